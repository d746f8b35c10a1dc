package command

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
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

func newUI(m *Meta, jsonMode, noColor bool) *ui {
	u := &ui{out: m.Stdout, errw: m.Stderr, col: render.Colorizer{Enabled: !noColor && m.StdoutTTY}, errColor: !noColor && m.StderrTTY}
	if jsonMode {
		u.json = &views.JSONView{W: m.Stdout}
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

// note shows an informational message: a paragraph on stdout, or a
// -json "log" message.
func (u *ui) note(msg string) {
	if u.json != nil {
		u.json.Emit("info", "log", msg, nil)
		return
	}
	fmt.Fprintf(u.out, "%s\n\n", msg)
}

// plan renders a plan: the human text, or the -json messages (drift,
// planned changes, summary, outputs).
func (u *ui) plan(p *plans.Plan) {
	if u.json == nil {
		_ = render.Plan(u.out, p, u.col.Enabled)
		return
	}
	for _, rc := range plans.SortedResourceChanges(p.DriftedResources) {
		// A move alone is drift only in refresh-only mode; otherwise the
		// planned changes report it (as Terraform does).
		if rc.Action == plans.NoOp && (!rc.Moved() || p.UIMode != plans.RefreshOnlyMode) {
			continue
		}
		ch := changeJSON(rc)
		u.json.Emit("info", "resource_drift", fmt.Sprintf("%s: Drift detected (%s)", rc.Addr, ch["action"]),
			map[string]any{"change": ch})
	}
	changes := p.Changes
	if changes == nil {
		changes = plans.NewChanges()
	}
	for _, rc := range plans.SortedResourceChanges(changes.Resources) {
		if rc.Action == plans.NoOp && !rc.Moved() && rc.Importing == nil {
			continue
		}
		ch := changeJSON(rc)
		u.json.Emit("info", "planned_change", fmt.Sprintf("%s: Plan to %s", rc.Addr, ch["action"]),
			map[string]any{"change": ch})
	}
	c := render.CountChanges(changes)
	msg := "Plan: " + c.Summary()
	if !render.HasResourceChanges(changes) && !render.HasOutputChanges(changes) && !render.HasMoves(changes) {
		msg = "No changes. Your infrastructure matches the configuration."
	}
	u.json.Emit("info", "change_summary", msg, map[string]any{"changes": map[string]any{
		"add": c.Add, "change": c.Change, "import": c.Import, "remove": c.Destroy, "forget": c.Forget, "operation": "plan"}})
	outs := map[string]any{}
	for _, oc := range changes.Outputs {
		// Unchanged outputs are listed too ("noop"), as in Terraform.
		if !oc.Addr.Module.IsRoot() {
			continue
		}
		outs[oc.Addr.OutputValue.Name] = map[string]any{"sensitive": oc.Sensitive, "action": planVerb(oc.Action)}
	}
	if len(outs) > 0 {
		u.json.Emit("info", "outputs", fmt.Sprintf("Outputs: %d", len(outs)), map[string]any{"outputs": outs})
	}
}

// planVerb is the action word of the -json UI stream, as Terraform's:
// "replace" for both replacement orders, "noop" for no change.
func planVerb(a plans.Action) string {
	switch a {
	case plans.DeleteThenCreate, plans.CreateThenDelete:
		return "replace"
	case plans.NoOp:
		return "noop"
	case plans.Forget:
		return "remove" // Terraform's word for it in the -json UI stream
	}
	return jsonplan.Actions(a)[0]
}

func changeJSON(rc *plans.ResourceInstanceChange) map[string]any {
	out := map[string]any{"resource": resourceJSON(rc.Addr), "action": planVerb(rc.Action)}
	if r := uiReason(rc.ActionReason); r != "" {
		out["reason"] = r
	}
	if !rc.PrevRunAddr.Equal(rc.Addr) && rc.PrevRunAddr.Resource.Resource.Type != "" {
		out["previous_resource"] = resourceJSON(rc.PrevRunAddr)
		if rc.Action == plans.NoOp {
			out["action"] = "move" // a move alone, as Terraform reports it
		}
	}
	importJSON(out, rc)
	return out
}

// applySummary prints "Apply complete!" and the root outputs.
func (u *ui) applySummary(c render.Counts, destroy bool, state *states.State) {
	msg := fmt.Sprintf("Apply complete! Resources: %s%d added, %d changed, %d destroyed.", render.ImportPrefix(c, "imported"), c.Add, c.Change, c.Destroy)
	if c.Forget > 0 { // OpenTofu's wording; Terraform does not count them
		msg = strings.TrimSuffix(msg, ".") + fmt.Sprintf(", %d forgotten.", c.Forget)
	}
	if destroy {
		msg = fmt.Sprintf("Destroy complete! Resources: %d destroyed.", c.Destroy)
	}
	var outs map[string]*states.OutputValue
	if state != nil {
		outs = state.RootOutputValues()
	}
	names := make([]string, 0, len(outs))
	for n := range outs {
		names = append(names, n)
	}
	sort.Strings(names)
	if u.json != nil {
		u.json.Emit("info", "change_summary", msg, map[string]any{"changes": map[string]any{
			"add": c.Add, "change": c.Change, "import": c.Import, "remove": c.Destroy, "forget": c.Forget, "operation": map[bool]string{true: "destroy", false: "apply"}[destroy]}})
		jo := map[string]any{}
		for _, n := range names {
			ov := outs[n]
			v, _ := ov.Value.UnmarkDeep()
			sensitive := ov.Sensitive || marks.Contains(ov.Value, marks.Sensitive)
			entry := map[string]any{"sensitive": sensitive}
			if v.IsWhollyKnown() {
				// A sensitive output's value stays out of the UI stream,
				// as in Terraform; its type is still given.
				if raw, err := ctyjson.Marshal(v, v.Type()); err == nil && !sensitive {
					entry["value"] = jsonRaw(raw)
				}
				if raw, err := ctyjson.MarshalType(v.Type()); err == nil {
					entry["type"] = jsonRaw(raw)
				}
			}
			jo[n] = entry
		}
		u.json.Emit("info", "outputs", fmt.Sprintf("Outputs: %d", len(jo)), map[string]any{"outputs": jo})
		return
	}
	fmt.Fprintf(u.out, "\n%s\n", u.col.Green(u.col.Bold(msg)))
	if len(names) == 0 {
		return
	}
	fmt.Fprintf(u.out, "\n%s\n\n", u.col.Green(u.col.Bold("Outputs:")))
	for _, n := range names {
		ov := outs[n]
		if ov.Sensitive || marks.Contains(ov.Value, marks.Sensitive) {
			fmt.Fprintf(u.out, "%s = <sensitive>\n", n)
			continue
		}
		fmt.Fprintf(u.out, "%s = %s\n", n, FormatValue(ov.Value, 0))
	}
}

type jsonRaw []byte

func (r jsonRaw) MarshalJSON() ([]byte, error) { return r, nil }

// FormatValue renders a value the way Terraform prints outputs after an
// apply: strings quoted (a heredoc when multi-line), lists, sets and maps
// wrapped in tolist/toset/tomap so the type is visible, tuples and objects
// bare, keys quoted, one element per line, sensitive parts hidden.
// O(size of the value).
func FormatValue(v cty.Value, indent int) string {
	if v.HasMark(marks.Sensitive) {
		return "(sensitive value)"
	}
	v, _ = v.Unmark()
	switch {
	case !v.IsKnown():
		return "(known after apply)"
	case v.IsNull():
		return "null"
	}
	ty := v.Type()
	pad := strings.Repeat(" ", indent)
	switch {
	case ty == cty.String:
		s := v.AsString()
		if strings.Contains(strings.TrimSuffix(s, "\n"), "\n") {
			var b strings.Builder
			b.WriteString("<<EOT\n")
			for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
				b.WriteString(pad + l + "\n")
			}
			b.WriteString(pad + "EOT")
			return b.String()
		}
		return strconv.Quote(s)
	case ty == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case ty == cty.Bool:
		return strconv.FormatBool(v.True())
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		var b strings.Builder
		b.WriteString("[")
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			b.WriteString("\n" + pad + "  " + FormatValue(ev, indent+2) + ",")
		}
		if v.LengthInt() > 0 {
			b.WriteString("\n" + pad)
		}
		b.WriteString("]")
		switch {
		case ty.IsListType():
			return "tolist(" + b.String() + ")"
		case ty.IsSetType():
			return "toset(" + b.String() + ")"
		}
		return b.String()
	case ty.IsMapType() || ty.IsObjectType():
		var b strings.Builder
		b.WriteString("{")
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			b.WriteString("\n" + pad + "  " + strconv.Quote(k.AsString()) + " = " + FormatValue(ev, indent+2))
		}
		if v.LengthInt() > 0 {
			b.WriteString("\n" + pad)
		}
		b.WriteString("}")
		if ty.IsMapType() {
			return "tomap(" + b.String() + ")"
		}
		return b.String()
	}
	return v.GoString()
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
