// Package command holds plankit's commands: the plan binary (plan and
// its subcommands show, graph, diff, init, validate, providers, output,
// state list/show/mv/rm/pull/push, workspace, force-unlock, fmt, version)
// and the apply binary. routing.go routes a command line to its command;
// each command parses its flags into plain values, runs the operation
// (internal/operation: configuration, backend and state, encryption,
// archives) and renders what it reports (render, diagnostics, the -json
// UI). main packages are thin: they gather the process environment into
// a Meta and call Plan or Apply, which return the exit code.
package command

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/providers"
)

// Version is plankit's version (operation.Version).
const Version = operation.Version

// Meta is everything a command takes from its process: streams, whether
// they are terminals, the environment and the provider factories. Nothing
// below main reads os.Args, os.Environ or the terminal itself.
type Meta struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// StdinTTY, StdoutTTY, StderrTTY say whether each stream is a terminal:
	// colour and progress need one; apply without a plan asks for "yes"
	// only on one.
	StdinTTY, StdoutTTY, StderrTTY bool
	// Env is the process environment as KEY=VALUE (TF_VAR_ values; HOME,
	// TF_CLI_CONFIG_FILE, TF_PLUGIN_CACHE_DIR, TF_DATA_DIR for discovery).
	Env []string
	// Providers, when set, is the fixed set of provider factories plan
	// and apply use, with no discovery (tests pass doubles here).
	Providers map[addrs.Provider]providers.Factory
	// ProvidersIn, when set, builds the provider factories for a working
	// directory (the absolute -chdir directory), so in-process providers
	// resolve relative paths there as Terraform's do (builtin.FactoriesIn).
	ProvidersIn func(workingDir string) map[addrs.Provider]providers.Factory
	// Plugins starts provider plugins found by discovery (cli wires it to
	// providers/plugin). Discovery (providers/install) runs when Providers
	// is nil: plugins first, then the built-ins ProvidersIn serves.
	Plugins operation.PluginFactory
	// PrestartPlugin, when set, starts the plugin Plugins would serve for
	// the same arguments in the background, for the first Factory call
	// to take (cli wires it to providers/plugin.Prestart; see
	// operation.PrestartLocked).
	PrestartPlugin func(p addrs.Provider, version, executable string)
	// Interrupts delivers one value per Ctrl-C (SIGINT/SIGTERM); nil when
	// signals are not wired.
	Interrupts <-chan struct{}
	// Exit ends the process at once (the second Ctrl-C); nil means return.
	Exit func(code int)
	// Context is the parent context of the command.
	Context context.Context
	// Chdir, when set, changes the process's working directory to the
	// -chdir directory, as soon as the command has read its options and
	// before it reads or starts anything: cli sets os.Chdir, so that
	// everything the process starts (provider plugins, local-exec, the
	// programs providers run) and every relative path works in that
	// directory, as in Terraform. Commands run in-process by tests leave it
	// nil (changing the directory of a test process would move every test
	// running beside it) and work in the -chdir directory by its path:
	// built-in providers (ProvidersIn) and provisioners are given it, but
	// plugin processes (Plugins) start in the process's directory, so a
	// caller that serves plugins sets Chdir.
	Chdir func(dir string) error
	// HTTPClient talks to provider and module registries and mirrors
	// (plan init, -install); nil means the default transport, which
	// honours HTTPS_PROXY and SSL_CERT_FILE.
	HTTPClient *http.Client

	// entered is set once Chdir changed into the -chdir directory.
	entered bool

	// phaseOnce and phaseLog hold the phase report (see PhasesEnv).
	phaseOnce sync.Once
	phaseLog  *phaseLog
}

func (m *Meta) ctx() context.Context {
	if m.Context != nil {
		return m.Context
	}
	return context.Background()
}

// workDir enters the working directory chosen with -chdir and returns the
// path that names it from now on: "." once the process has changed into
// it (Meta.Chdir), else chdir itself ("." when there is none). Relative
// paths of the command line are taken from that directory either way
// (resolve), as Terraform takes them after its -chdir. A directory that
// cannot be entered is left for the command to report: it works with the
// path given, as without Chdir, and fails to find its files there.
func (m *Meta) workDir(chdir string) string {
	if chdir == "" || m.entered {
		return "."
	}
	if m.Chdir == nil {
		return chdir
	}
	if st, err := os.Stat(chdir); err != nil || !st.IsDir() {
		return chdir
	}
	if err := m.Chdir(chdir); err != nil {
		return chdir
	}
	m.entered = true
	return "."
}

// providerSource is where plan and apply get their providers (the
// environment, the fixed map or the built-ins and plugins).
func (m *Meta) providerSource() *operation.ProviderSource {
	return &operation.ProviderSource{Env: m.Env, Fixed: m.Providers, In: m.ProvidersIn, Plugins: m.Plugins, Prestart: m.PrestartPlugin}
}

// discovers reports whether providers are found by discovery
// (providers/install) rather than given as a fixed map (tests).
func (m *Meta) discovers() bool { return m.providerSource().Discovers() }

// providerFactories returns the provider factories for the working
// directory wd: ProvidersIn(absolute wd) when set, else Providers.
func (m *Meta) providerFactories(wd string) map[addrs.Provider]providers.Factory {
	if m.ProvidersIn == nil {
		return m.Providers
	}
	abs, err := filepath.Abs(wd)
	if err != nil {
		abs = wd
	}
	return m.ProvidersIn(abs)
}
