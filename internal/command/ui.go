package command

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/command/views"
)

// flagSet is a flag.FlagSet that reports a bad flag in one line and
// prints the command's usage for -help.
type flagSet struct {
	*flag.FlagSet
	usage string
	// interspersed flag sets (newSubFlagSet) take options after
	// positional arguments too; positional holds those arguments and
	// chdir the subcommand's -chdir.
	interspersed bool
	positional   []string
	chdir        string
	// refused are options the command does not declare but users may
	// expect (another command's), with the usage error that says why.
	refused map[string]string
}

func newFlagSetT(name string, _ io.Writer, usage string) *flagSet {
	fs := newFlagSet(name, io.Discard)
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, usage: usage}
}

// parse parses args. When it returns false the command is over and code
// is its exit code: 0 after -help (usage on stdout), 1 after a bad flag.
func (fs *flagSet) parse(m *Meta, args []string) (code int, ok bool) {
	if flagSetParsedHook != nil {
		flagSetParsedHook(fs)
	}
	var err error
	if fs.interspersed {
		err = fs.parseInterspersed(args)
	} else {
		err = fs.Parse(args)
	}
	switch {
	case err == nil:
		return ExitOK, true
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(m.Stdout, fs.usage)
		return ExitOK, false
	}
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok && fs.refused[name] != "" {
		return usageError(m, fs.refused[name]), false
	}
	return usageError(m, err.Error()), false
}

// flagSetParsedHook, when set (by tests), sees each flag set a command
// parses, to check the usage text against the options it declares.
var flagSetParsedHook func(*flagSet)

// ui renders a command's results for a person or, with -json, as the
// machine-readable UI stream.
type ui struct {
	out, errw io.Writer
	col       render.Colorizer
	// errColor colours the errors written to errw: stdout and stderr may
	// not both be terminals (plan 2>errors.log).
	errColor bool
	json     *views.JSONView
}

// newUI renders on the streams s: -json messages with jsonMode, colour
// on the terminals among them unless noColor.
func newUI(s views.Streams, jsonMode, noColor bool) *ui {
	u := &ui{out: s.Stdout, errw: s.Stderr, col: render.Colorizer{Enabled: !noColor && s.StdoutTTY}, errColor: !noColor && s.StderrTTY}
	if jsonMode {
		u.json = &views.JSONView{W: s.Stdout}
		u.json.Version()
	}
	return u
}

// diags renders diagnostics: -json messages, or errors on stderr and
// warnings on stdout as Terraform does.
func (u *ui) diags(diags hcl.Diagnostics, src views.Sources) {
	if len(diags) == 0 {
		return
	}
	if u.json != nil {
		u.json.Diagnostics(diags, src)
		return
	}
	var errs, warns, after hcl.Diagnostics
	for _, d := range diags {
		switch {
		case d.Severity == hcl.DiagError:
			errs = append(errs, d)
		case views.FollowsErrors(d):
			after = append(after, d)
		default:
			warns = append(warns, d)
		}
	}
	views.WriteDiagnostics(u.out, warns, src, u.col.Enabled)
	views.WriteDiagnostics(u.errw, errs, src, u.errColor)
	// A warning about the errors comes after them, also where stdout and
	// stderr are one terminal or log.
	views.WriteDiagnostics(u.out, after, src, u.col.Enabled)
}

// usageError reports a command-line mistake.
func usageError(m *Meta, msg string) int {
	fmt.Fprintf(m.Stderr, "Error: %s\n\nRun with -help for usage.\n", msg)
	return ExitError
}

// recoverPanic turns a panic in a command into a bug-report message and
// exit code 1 (RecoverPanic).
func recoverPanic(m *Meta, code *int) {
	if r := recover(); r != nil {
		reportPanic(m.Stderr, r, code)
	}
}

// RecoverPanic is plankit's one panic handler, deferred by the binaries
// around everything they run: a panic becomes a bug-report message on
// stderr and exit code 1, so no Go stack trace reaches a user who gave
// bad input; the trace goes to a crash log the message names.
func RecoverPanic(stderr io.Writer, code *int) {
	if r := recover(); r != nil {
		reportPanic(stderr, r, code)
	}
}

func reportPanic(stderr io.Writer, r any, code *int) {
	log := filepath.Join(os.TempDir(), fmt.Sprintf("plankit-crash-%d.log", os.Getpid()))
	_ = os.WriteFile(log, []byte(fmt.Sprintf("panic: %v\n\n%s", r, debug.Stack())), 0o600)
	fmt.Fprintf(stderr, "\nplankit crashed! This is always a bug in plankit, not in your configuration.\n\nPlease report it with the steps that led to it and the crash log written to\n%s\n\npanic: %v\n", log, r)
	*code = ExitError
}
