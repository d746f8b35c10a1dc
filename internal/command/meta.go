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
	"os"
	"path/filepath"
	"sync"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/providers"
)

// Version is plankit's version (operation.Version).
const Version = operation.Version

// Meta is everything a command takes from its process: the streams its
// views use (views.Streams), the environment its operations use
// (operation.Environment), and the process's controls: interrupts, exit,
// context and working directory. Nothing below main reads os.Args,
// os.Environ or the terminal itself, and nothing below command takes a
// Meta.
type Meta struct {
	views.Streams
	operation.Environment

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

// discovers reports whether providers are found by discovery
// (providers/install) rather than given as a fixed map (tests).
func (m *Meta) discovers() bool { return m.ProviderSource().Discovers() }

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
