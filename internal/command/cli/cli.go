// Package cli wires a command to the process: streams, terminal detection,
// environment, signals and the exit code. It is the one place that reads
// the process state; cmd/plan and cmd/apply are two lines each.
package cli

import (
	"context"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/command"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/providers/plugin"
	"github.com/plankit/plankit/providers"
)

// Run builds a Meta from the process and runs cmd with os.Args[1:], then
// exits with its code. A panic anywhere is turned into a bug-report
// message, never a raw stack trace.
func Run(cmd func(*command.Meta, []string) int) {
	tuneGC()
	stop := startProfiles()
	code := run(cmd)
	stop()
	os.Exit(code)
}

func run(cmd func(*command.Meta, []string) int) (code int) {
	defer command.RecoverPanic(os.Stderr, &code)
	// Every plugin process is stopped on the way out: normal returns,
	// errors, the first Ctrl-C (the command returns) and panics; Exit
	// (the second Ctrl-C) stops them before exiting.
	defer plugin.CleanupClients()
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	interrupts := make(chan struct{}, 4)
	go func() {
		for range sig {
			interrupts <- struct{}{}
		}
	}()
	m := &command.Meta{
		Streams: views.Streams{
			Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
			StdinTTY: isTerminal(os.Stdin), StdoutTTY: isTerminal(os.Stdout), StderrTTY: isTerminal(os.Stderr),
		},
		Environment: operation.Environment{
			Env:         environ(),
			ProvidersIn: builtin.FactoriesIn,
			Plugins:     pluginFactory,
			PrestartPlugin: func(p addrs.Provider, version, executable string) {
				plugin.Prestart(plugin.Meta{Provider: p, Version: version, Executable: executable}, plugin.Options{})
			},
		},
		Interrupts: interrupts,
		Exit: func(code int) {
			plugin.CleanupClients()
			os.Exit(code)
		},
		Context: context.Background(),
		// The whole process changes into the -chdir directory, as
		// Terraform's does: provider plugins, local-exec and the programs
		// providers run all start there.
		Chdir: os.Chdir,
	}
	return cmd(m, os.Args[1:])
}

// pluginFactory starts the provider plugins discovery selects, with
// plankit's environment. Their stderr is shown only with TF_LOG or
// TF_LOG_PROVIDER, as Terraform shows it (providers/plugin decides).
func pluginFactory(p addrs.Provider, version, executable string) providers.Factory {
	return plugin.Factory(plugin.Meta{Provider: p, Version: version, Executable: executable}, plugin.Options{})
}

// environ is the process environment with a relative TF_CLI_CONFIG_FILE
// made absolute: it names a file from the directory plankit was started
// in, where Terraform reads it before its -chdir, while everything else
// is read after the command changes into the -chdir directory.
func environ() []string {
	env := os.Environ()
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "TF_CLI_CONFIG_FILE="); ok && v != "" && !filepath.IsAbs(v) {
			if abs, err := filepath.Abs(v); err == nil {
				env[i] = "TF_CLI_CONFIG_FILE=" + abs
			}
		}
	}
	return env
}
