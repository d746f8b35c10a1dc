package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/tfdiags"
)

// ResourceDiff is one resource instance whose planned change differs
// between two plans.
type ResourceDiff struct {
	Address string   `json:"address"`
	Deposed string   `json:"deposed,omitempty"`
	Status  string   `json:"status"` // added, removed, changed
	ActionA []string `json:"actions_a,omitempty"`
	ActionB []string `json:"actions_b,omitempty"`
	Fields  []string `json:"changed_fields,omitempty"`
}

// Diff is `plan diff [-json] A.tfplan B.tfplan`: the resource instances
// whose planned change differs between two plans, each plankit's or
// Terraform's or OpenTofu's. Exit code 0 when the
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
	wd := m.workDir(fs.chdir)
	u := &ui{out: m.Stdout, errw: m.Stderr, col: render.Colorizer{Enabled: !*noColor && m.StdoutTTY}}
	enc, diags := operation.LoadEncryptionIn(m.Env, wd)
	if diags.HasErrors() {
		u.diags(diags, views.Sources{})
		return ExitError
	}
	var ps [2]*plans.Plan
	for i := range ps {
		// Either may be a plan file Terraform or OpenTofu wrote: a team
		// moving to plankit compares their tool's plan with plankit's.
		r, diags := operation.OpenArchive(operation.Resolve(wd, fs.Arg(i)), enc, planfile.WithForeign())
		if diags.HasErrors() {
			u.diags(diags, views.Sources{})
			return ExitError
		}
		p, _, err := r.ReadForeignPlan() // ReadPlan for plankit's own archives
		r.Close()
		if err != nil {
			u.diags(operation.ArchiveDiags(err), views.Sources{})
			return ExitError
		}
		ps[i] = p
	}
	diffs, err := DiffPlans(ps[0], ps[1])
	if diffs == nil {
		diffs = []ResourceDiff{} // -json prints [], never null
	}
	if err != nil {
		u.diags(hcl.Diagnostics{tfdiags.Errorf("Failed to compare plans", "%s", err)}, views.Sources{})
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
func DiffPlans(a, b *plans.Plan) ([]ResourceDiff, error) {
	ia, err := indexChanges(a)
	if err != nil {
		return nil, err
	}
	ib, err := indexChanges(b)
	if err != nil {
		return nil, err
	}
	var out []ResourceDiff
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
func compareChange(k string, ia, ib map[string]plannedChange) (d ResourceDiff, differs bool) {
	addr, deposed, _ := strings.Cut(k, "\x00")
	ea, inA := ia[k]
	eb, inB := ib[k]
	d = ResourceDiff{Address: addr, Deposed: deposed, ActionA: ea.actions, ActionB: eb.actions}
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
