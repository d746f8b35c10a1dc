package command

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
	"github.com/plankit/plankit/tfdiags"
)

const outputUsage = `Usage: plan output [-json] [-raw] [-state=PATH] [NAME]

  Prints the root module's output values from the state: all of them, or
  the one called NAME. Sensitive values show as <sensitive> in the list,
  and in full when asked for by NAME, with -json or with -raw.

Options:
  -json         Print the outputs (or NAME's value) as JSON.
  -raw          Print NAME's value as is, with no quotes and no newline;
                only for strings, numbers and booleans.
  -state=PATH   State file (default terraform.tfstate, or the local
                backend's path).
  -backend-config=KV
                A backend setting KEY=VALUE, or a file of them
                (repeatable), as plan takes.
  -no-color     No colour.
`

// Output is `plan output [-json] [-raw] [-state=PATH] [NAME]`, as
// `terraform output`. It reads the state without locking it.
func Output(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan output", outputUsage, chdir)
	jsonOut := fs.Bool("json", false, "print as JSON")
	raw := fs.Bool("raw", false, "print a string, number or bool value as is")
	stateFlag := fs.String("state", "", "state file")
	var backendConfig multiFlag
	fs.Var(&backendConfig, "backend-config", "backend setting KEY=VALUE, or a file of them (repeatable)")
	noColor := fs.Bool("no-color", false, "disable colour")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	switch {
	case fs.NArg() > 1:
		return usageError(m, "plan output takes at most one output name")
	case *jsonOut && *raw:
		return usageError(m, "-json and -raw are mutually exclusive")
	case *raw && fs.NArg() == 0:
		return usageError(m, "-raw prints a single output: name it, as in plan output -raw NAME")
	}
	wd := m.workDir(fs.chdir)
	u := &ui{out: m.Stdout, errw: m.Stderr, errColor: !*noColor && m.StderrTTY}
	u.col.Enabled = !*noColor && m.StdoutTTY
	st, src, diags := readStateForCommand(m, wd, *stateFlag, backendConfig)
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	outs := st.RootOutputValues()
	if fs.NArg() == 1 {
		name := fs.Arg(0)
		ov := outs[name]
		if ov == nil {
			u.diags(hcl.Diagnostics{tfdiags.Errorf(fmt.Sprintf("Output %q not found", name),
				"The output variable requested could not be found in the state file. If you recently added it to your configuration, be sure to plan and apply before running this command again.")}, src)
			return ExitError
		}
		return printOneOutput(m, u, name, ov.Value, *jsonOut, *raw, src)
	}
	if len(outs) == 0 && !*jsonOut {
		u.diags(hcl.Diagnostics{tfdiags.Warning("No outputs found",
			"The state has no output values. Declare output blocks in the root module's configuration, then plan and apply to record them.")}, src)
		return ExitOK
	}
	views.OutputView{Out: m.Stdout}.List(outs, *jsonOut)
	return ExitOK
}

// printOneOutput prints the output name's value v (see
// views.OutputView.One), reporting a value it cannot print.
func printOneOutput(m *Meta, u *ui, name string, v cty.Value, jsonOut, raw bool, src views.Sources) int {
	if ds := (views.OutputView{Out: m.Stdout}).One(name, v, jsonOut, raw); ds.HasErrors() {
		u.diags(ds, src)
		return ExitError
	}
	return ExitOK
}

// readStateForCommand reads the state a read-only command shows (see
// stateTarget), without locking it. No state is an empty state.
func readStateForCommand(m *Meta, wd, stateFlag string, backendConfig []string) (*states.State, views.Sources, hcl.Diagnostics) {
	sf, _, src, diags := readStoredState(m, wd, stateFlag, backendConfig)
	if diags.HasErrors() {
		return nil, src, diags
	}
	if sf == nil || sf.State == nil {
		return states.NewState(), src, nil
	}
	return sf.State, src, nil
}

// readStoredState reads the state of the -state file or the selected
// workspace of the configuration's backend (see stateTarget), decrypted,
// without locking it; where names it for messages. A missing state is a
// nil file.
func readStoredState(m *Meta, wd, stateFlag string, backendConfig []string) (sf *statefile.File, where string, src views.Sources, diags hcl.Diagnostics) {
	src = views.Sources{Dir: wd}
	target, diags := stateTarget(m, wd, stateFlag, backendConfig, &src)
	if diags.HasErrors() {
		return nil, "", src, diags
	}
	codec, ds := operation.StateCodecIn(m.Env, wd)
	if ds.HasErrors() {
		return nil, "", src, ds
	}
	mgr, release, ds := operation.OpenBackendStateWith(m.ctx(), target, false, 0, "read", codec)
	if ds.HasErrors() {
		return nil, "", src, ds
	}
	defer release()
	return mgr.StateFile(), mgr.Describe(), src, nil
}
