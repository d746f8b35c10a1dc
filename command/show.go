package command

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/command/jsonplan"
	"github.com/plankit/plankit/command/render"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
	"github.com/plankit/plankit/encryption"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/terraform"
	"github.com/plankit/plankit/tfdiags"
)

// readArchive opens a plan archive and reads its plan; it needs no
// configuration directory, providers or state. An encrypted archive is
// refused, saying so: readArchiveIn decrypts it.
func readArchive(path string, opts ...planfile.Option) (*planfile.Reader, *plans.Plan, hcl.Diagnostics) {
	enc, _ := encryption.New(nil, encryption.Options{})
	return readArchiveWith(path, enc.Plan(), opts...)
}

// readArchiveIn is readArchive decrypting an encrypted archive with
// TF_ENCRYPTION and wd's encryption block.
func readArchiveIn(m *Meta, wd, path string, opts ...planfile.Option) (*planfile.Reader, *plans.Plan, hcl.Diagnostics) {
	enc, diags := loadEncryptionIn(m, wd)
	if diags.HasErrors() {
		return nil, nil, diags
	}
	return readArchiveWith(path, enc.Plan(), opts...)
}

// planFileDiags explains why a plan archive was refused. The planfile
// error already names the file, the check that failed and the entry.
func planFileDiags(err error) hcl.Diagnostics {
	switch {
	case errors.Is(err, planfile.KindUnsigned), errors.Is(err, planfile.KindSignature):
		return hcl.Diagnostics{tfdiags.Errorf("Plan signature check failed",
			"%s\n\nNothing was applied. Apply only archives signed with the key that -verify-key trusts (plan -sign-key=FILE).", err)}
	case errors.Is(err, planfile.KindIO):
		return hcl.Diagnostics{tfdiags.Errorf("Failed to read plan file", "%s", err)}
	case errors.Is(err, planfile.KindFormatVersion):
		return hcl.Diagnostics{tfdiags.Errorf("Unsupported plan file format",
			"%s\n\nApply the plan with the plankit version that made it, or plan again.", err)}
	}
	return hcl.Diagnostics{tfdiags.Errorf("Invalid plan file",
		"%s\n\nThe file is not a usable plan archive; nothing in it was used. Create a new plan with plan -out=FILE.", err)}
}

// Show is `plan show [-json] [-no-color] FILE`.
func Show(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan show", showUsage, chdir)
	jsonOut := fs.Bool("json", false, "print Terraform's JSON plan representation")
	noColor := fs.Bool("no-color", false, "disable colour")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(m, "plan show needs exactly one plan file")
	}
	wd := workDir(fs.chdir)
	u := &ui{out: m.Stdout, errw: m.Stderr, col: render.Colorizer{Enabled: !*noColor && m.StdoutTTY}}
	r, p, diags := readArchiveIn(m, wd, resolve(wd, fs.Arg(0)))
	if diags.HasErrors() {
		u.diags(diags, Sources{})
		return ExitError
	}
	defer r.Close()
	if !*jsonOut {
		if err := render.Plan(m.Stdout, p, u.col.Enabled); err != nil {
			return ExitError
		}
		return ExitOK
	}
	config, cdiags := r.ReadConfig()
	if cdiags.HasErrors() {
		config = nil // the configuration section is left out rather than failing show
	}
	b, err := jsonplan.Marshal(p, jsonplan.Options{Version: Version, Config: config})
	if err != nil {
		u.diags(hcl.Diagnostics{tfdiags.Errorf("Failed to render the plan as JSON", "%s", err)}, Sources{})
		return ExitError
	}
	fmt.Fprintln(m.Stdout, string(b))
	return ExitOK
}

// Graph is `plan graph [-type=plan|apply|plan-destroy] [-plan=FILE]`: the
// core's graph in DOT. With -plan the archive alone is used (default type
// apply); without, the working directory's configuration and state
// (default type plan). The steps: graphKind checks -type, then
// graphFromArchive or graphFromWorkingDir loads the inputs, and the core
// draws the graph.
func Graph(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan graph", graphUsage, chdir)
	typ := fs.String("type", "", "plan, plan-destroy or apply")
	planPath := fs.String("plan", "", "render the graph of this plan archive")
	statePathFlag := fs.String("state", "", "state file (without -plan)")
	var pluginDirs multiFlag
	fs.Var(&pluginDirs, "plugin-dir", "look for provider plugins in this directory first (repeatable)")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(m, "plan graph takes no positional arguments")
	}
	wd := workDir(fs.chdir)
	u := &ui{out: m.Stdout, errw: m.Stderr}
	kind, msg := graphKind(*typ, *planPath != "")
	if msg != "" {
		return usageError(m, msg)
	}
	src := Sources{Dir: wd}
	var in graphInputs
	var diags hcl.Diagnostics
	if *planPath != "" {
		var done func()
		in, done, diags = graphFromArchive(m, wd, resolve(wd, *planPath))
		defer done()
	} else {
		in, diags = graphFromWorkingDir(m, wd, *statePathFlag)
	}
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	if in.config != nil {
		src.Files = in.config.SourceFiles()
	}
	// The graph needs provider schemas: the providers are found as plan
	// and apply find them, checked against the archive's lock file (or
	// the working directory's), but nothing is recorded.
	lockFile := depsfile.LockFilePath
	if in.locks == nil {
		var ds hcl.Diagnostics
		if in.locks, ds = depsfile.LoadLocksFromFile(filepath.Join(wd, depsfile.LockFilePath)); ds.HasErrors() {
			u.diags(ds, src)
			return ExitError
		}
	} else {
		lockFile = "the plan's lock file"
	}
	factories, diags := discoveredFactories(m, wd, pluginDirs, in.config, in.state, in.locks, lockFile)
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	core, diags := terraform.NewContext(&terraform.ContextOpts{Providers: factories, WorkingDir: wd})
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	dot, diags := core.GraphDOT(in.config, in.state, in.plan, kind)
	if diags.HasErrors() {
		u.diags(diags, src)
		return ExitError
	}
	fmt.Fprint(m.Stdout, dot)
	return ExitOK
}

// graphKind maps -type to the graph to draw; an empty -type means apply
// for an archive and plan otherwise. msg is the usage error for any other
// value.
func graphKind(typ string, fromArchive bool) (kind terraform.GraphKind, msg string) {
	kinds := map[string]terraform.GraphKind{"plan": terraform.GraphKindPlan, "plan-destroy": terraform.GraphKindPlanDestroy, "apply": terraform.GraphKindApply}
	if typ == "" {
		typ = "plan"
		if fromArchive {
			typ = "apply"
		}
	}
	kind, ok := kinds[typ]
	if !ok {
		return kind, fmt.Sprintf("-type must be plan, plan-destroy or apply, not %q", typ)
	}
	if kind == terraform.GraphKindApply && !fromArchive {
		return kind, "-type=apply draws the graph of a saved plan: pass -plan=FILE (a plan archive made by plan -out=FILE)"
	}
	return kind, ""
}

// graphInputs is what the core draws a graph from; plan is nil unless the
// graph comes from an archive.
type graphInputs struct {
	config *configs.Config
	state  *states.State
	plan   *plans.Plan
	// locks are the archive's lock file (nil without -plan).
	locks *depsfile.Locks
}

// graphFromArchive reads the plan, its prior state and its configuration
// from the archive at path. done releases the archive; it is never nil,
// and is to be called once the graph is drawn.
func graphFromArchive(m *Meta, wd, path string) (in graphInputs, done func(), diags hcl.Diagnostics) {
	r, p, diags := readArchiveIn(m, wd, path)
	if diags.HasErrors() {
		return in, func() {}, diags
	}
	in.plan, in.state = p, p.PriorState
	if in.config, diags = r.ReadConfig(); diags.HasErrors() {
		return in, func() { r.Close() }, diags
	}
	locks, err := r.ReadDependencyLocks()
	if err != nil {
		return in, func() { r.Close() }, planFileDiags(err)
	}
	in.locks = locks
	return in, func() { r.Close() }, nil
}

// graphFromWorkingDir loads the configuration in wd and reads its state
// (-state, or where the configuration says) without locking it: graph
// only reads. No state means an empty one.
func graphFromWorkingDir(m *Meta, wd, stateFlag string) (in graphInputs, diags hcl.Diagnostics) {
	if in.config, diags = configs.LoadConfigDir(wd); diags.HasErrors() {
		return in, diags
	}
	settings, ds := resolveBackend(m, wd, in.config, stateFlag, nil, nil)
	if ds.HasErrors() {
		return in, ds
	}
	vals, ds := CollectVariables(in.config, wd, nil, m.Env)
	if ds.HasErrors() {
		return in, ds
	}
	enc, ds := loadEncryption(m, in.config, vals)
	if ds.HasErrors() {
		return in, ds
	}
	mgr, release, ds := openBackendStateWith(m.ctx(), settings, false, 0, "graph", codecFor(enc))
	if ds.HasErrors() {
		return in, ds
	}
	release()
	in.state = mgr.State()
	if in.state == nil {
		in.state = states.NewState()
	}
	return in, nil
}

// resourceDiff is one resource instance whose planned change differs
// between two plans.
type resourceDiff struct {
	Address string   `json:"address"`
	Deposed string   `json:"deposed,omitempty"`
	Status  string   `json:"status"` // added, removed, changed
	ActionA []string `json:"actions_a,omitempty"`
	ActionB []string `json:"actions_b,omitempty"`
	Fields  []string `json:"changed_fields,omitempty"`
}

// Diff is `plan diff [-json] A.tfplan B.tfplan`: the resource instances
// whose planned change differs between two plans. Exit code 0 when the
// plans plan the same changes, 2 when they differ, 1 on error.
func Diff(m *Meta, chdir string, args []string) int {
	fs := newSubFlagSet("plan diff", diffUsage, chdir)
	jsonOut := fs.Bool("json", false, "machine-readable output")
	noColor := fs.Bool("no-color", false, "disable colour")
	if code, ok := fs.parse(m, args); !ok {
		return code
	}
	if fs.NArg() != 2 {
		return usageError(m, "plan diff needs two plan files")
	}
	wd := workDir(fs.chdir)
	u := &ui{out: m.Stdout, errw: m.Stderr, col: render.Colorizer{Enabled: !*noColor && m.StdoutTTY}}
	var ps [2]*plans.Plan
	for i := range ps {
		r, p, diags := readArchiveIn(m, wd, resolve(wd, fs.Arg(i)))
		if diags.HasErrors() {
			u.diags(diags, Sources{})
			return ExitError
		}
		r.Close()
		ps[i] = p
	}
	diffs, err := DiffPlans(ps[0], ps[1])
	if diffs == nil {
		diffs = []resourceDiff{} // -json prints [], never null
	}
	if err != nil {
		u.diags(hcl.Diagnostics{tfdiags.Errorf("Failed to compare plans", "%s", err)}, Sources{})
		return ExitError
	}
	if *jsonOut {
		b, _ := json.Marshal(map[string]any{"format_version": "1.0", "a": fs.Arg(0), "b": fs.Arg(1), "resources": diffs})
		fmt.Fprintln(m.Stdout, string(b))
	} else if len(diffs) == 0 {
		fmt.Fprintln(m.Stdout, "The two plans propose the same changes.")
	} else {
		for _, d := range diffs {
			addr := d.Address
			if d.Deposed != "" {
				addr += " (deposed object " + d.Deposed + ")"
			}
			switch d.Status {
			case "added":
				fmt.Fprintf(m.Stdout, "%s %s: no change in %s, %s in %s\n", u.col.Green("+"), addr, fs.Arg(0), strings.Join(d.ActionB, ", "), fs.Arg(1))
			case "removed":
				fmt.Fprintf(m.Stdout, "%s %s: %s in %s, no change in %s\n", u.col.Red("-"), addr, strings.Join(d.ActionA, ", "), fs.Arg(0), fs.Arg(1))
			default:
				fmt.Fprintf(m.Stdout, "%s %s: %s -> %s", u.col.Yellow("~"), addr, strings.Join(d.ActionA, ", "), strings.Join(d.ActionB, ", "))
				if len(d.Fields) > 0 {
					fmt.Fprintf(m.Stdout, " (differs in %s)", strings.Join(d.Fields, ", "))
				}
				fmt.Fprintln(m.Stdout)
			}
		}
	}
	if len(diffs) > 0 {
		return ExitChanges
	}
	return ExitOK
}

// DiffPlans compares the resource instance changes and root output
// changes of two plans, keyed by address and deposed key, via their JSON
// plan representation so that unknowns and sensitivity compare as they
// are shown. Outputs appear with address "output.NAME". The steps:
// indexChanges for each plan, then compareChange for every key in either,
// in key order. O(size of plans).
func DiffPlans(a, b *plans.Plan) ([]resourceDiff, error) {
	ia, err := indexChanges(a)
	if err != nil {
		return nil, err
	}
	ib, err := indexChanges(b)
	if err != nil {
		return nil, err
	}
	var out []resourceDiff
	for _, k := range unionKeys(ia, ib) {
		if d, differs := compareChange(k, ia, ib); differs {
			out = append(out, d)
		}
	}
	return out, nil
}

// plannedChange is one change of a plan's JSON representation: its
// actions and its raw "change" fields.
type plannedChange struct {
	actions []string
	fields  map[string]json.RawMessage
}

// indexChanges maps every resource instance change and root output change
// of p that is not a no-op by its key: address, NUL, deposed key (empty
// for outputs and current objects). O(size of p).
func indexChanges(p *plans.Plan) (map[string]plannedChange, error) {
	raw, err := jsonplan.Marshal(p, jsonplan.Options{})
	if err != nil {
		return nil, err
	}
	var doc struct {
		ResourceChanges []struct {
			Address string                     `json:"address"`
			Deposed string                     `json:"deposed"`
			Change  map[string]json.RawMessage `json:"change"`
		} `json:"resource_changes"`
		OutputChanges map[string]map[string]json.RawMessage `json:"output_changes"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	out := map[string]plannedChange{}
	add := func(key string, ch map[string]json.RawMessage) {
		var acts []string
		_ = json.Unmarshal(ch["actions"], &acts)
		if len(acts) == 1 && acts[0] == "no-op" {
			return
		}
		out[key] = plannedChange{acts, ch}
	}
	for _, rc := range doc.ResourceChanges {
		add(rc.Address+"\x00"+rc.Deposed, rc.Change)
	}
	for name, ch := range doc.OutputChanges {
		add("output."+name+"\x00", ch)
	}
	return out, nil
}

// unionKeys returns the keys of a and b together, sorted, so that the
// diff is deterministic.
func unionKeys(a, b map[string]plannedChange) []string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	return sorted
}

// comparedFields are the fields of a change that make two plans differ,
// in the order a diff names them.
var comparedFields = []string{"actions", "before", "after", "after_unknown", "before_sensitive", "after_sensitive", "replace_paths"}

// compareChange compares the change under key k in the two indexes:
// added (only in b), removed (only in a), or changed in the fields that
// differ; differs is false when both plan the same change.
func compareChange(k string, ia, ib map[string]plannedChange) (d resourceDiff, differs bool) {
	addr, deposed, _ := strings.Cut(k, "\x00")
	ea, inA := ia[k]
	eb, inB := ib[k]
	d = resourceDiff{Address: addr, Deposed: deposed, ActionA: ea.actions, ActionB: eb.actions}
	switch {
	case !inA:
		d.Status = "added"
	case !inB:
		d.Status = "removed"
	default:
		var fields []string
		for _, f := range comparedFields {
			if !jsonEqual(ea.fields[f], eb.fields[f]) {
				fields = append(fields, f)
			}
		}
		if len(fields) == 0 {
			return d, false
		}
		d.Status, d.Fields = "changed", fields
	}
	return d, true
}

// jsonEqual reports whether two JSON texts hold the same value, whatever
// their key order or spacing; an undecodable text equals only itself.
func jsonEqual(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
