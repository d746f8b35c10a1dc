package command

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/operation"
)

// multiFlag collects a repeatable string flag (-target, -replace).
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// commonFlags are the options plan and apply share.
type commonFlags struct {
	chdir         string
	state         string
	parallelism   int
	lock          bool
	lockTimeout   time.Duration
	json, noColor bool
	input         bool
}

func (c *commonFlags) register(fs *flag.FlagSet, chdir string) {
	fs.StringVar(&c.chdir, "chdir", chdir, "switch to this working directory before anything else")
	fs.StringVar(&c.state, "state", "", "path of the state file (default terraform.tfstate, or the local backend's path)")
	fs.IntVar(&c.parallelism, "parallelism", 10, "limit the number of concurrent operations")
	fs.BoolVar(&c.lock, "lock", true, "lock the state file while working")
	fs.DurationVar(&c.lockTimeout, "lock-timeout", 0, "duration to retry a state lock")
	fs.BoolVar(&c.json, "json", false, "machine-readable output, one JSON object per line")
	fs.BoolVar(&c.noColor, "no-color", false, "disable colour in the output")
	fs.BoolVar(&c.input, "input", false, "accepted for compatibility; plankit never prompts for variables")
}

// check reports a bad combination of common options, as a usage error.
func (c *commonFlags) check() string {
	if c.parallelism < 1 {
		return fmt.Sprintf("-parallelism must be at least 1, not %d", c.parallelism)
	}
	if c.lockTimeout < 0 {
		return "-lock-timeout cannot be negative"
	}
	return ""
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(name string, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out)
	return fs
}

// parseTargets parses -target values into targetable addresses.
func parseTargets(vals []string, what string) ([]addrs.Targetable, hcl.Diagnostics) {
	var out []addrs.Targetable
	var diags hcl.Diagnostics
	for _, v := range vals {
		t, ds := addrs.ParseTargetStr(v)
		if ds.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what + " address",
				Detail: fmt.Sprintf("%q is not a valid address for %s: %s", v, what, ds[0].Detail)})
			continue
		}
		out = append(out, t.Subject)
	}
	return out, diags
}

// parseReplace parses -replace values into resource instance addresses.
func parseReplace(vals []string) ([]addrs.AbsResourceInstance, hcl.Diagnostics) {
	var out []addrs.AbsResourceInstance
	var diags hcl.Diagnostics
	for _, v := range vals {
		a, ds := addrs.ParseAbsResourceInstanceStr(v)
		if ds.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid -replace address",
				Detail: fmt.Sprintf("%q is not a resource instance address: %s", v, ds[0].Detail)})
			continue
		}
		out = append(out, a)
	}
	return out, diags
}

// moreChdir is splitChdir after a subcommand name that takes its own
// subcommand (state, workspace): a -chdir there wins over the one before.
func moreChdir(chdir string, args []string) (string, []string) {
	if dir, rest := splitChdir(args); len(rest) < len(args) {
		return dir, rest
	}
	return chdir, args
}

// splitChdir removes a leading -chdir option, which may precede a
// subcommand name ("plan -chdir=x show f.tfplan").
func splitChdir(args []string) (string, []string) {
	dir := ""
	for len(args) > 0 {
		a := args[0]
		switch {
		case strings.HasPrefix(a, "-chdir=") || strings.HasPrefix(a, "--chdir="):
			dir = a[strings.Index(a, "=")+1:]
			args = args[1:]
		case (a == "-chdir" || a == "--chdir") && len(args) > 1:
			dir = args[1]
			args = args[2:]
		default:
			return dir, args
		}
	}
	return dir, args
}

// varFlags collects -var and -var-file into one ordered list.
type varFlags struct {
	args *[]operation.VarArg
	file bool
}

func (f varFlags) String() string { return "" }
func (f varFlags) Set(s string) error {
	*f.args = append(*f.args, operation.VarArg{File: f.file, Value: s})
	return nil
}
