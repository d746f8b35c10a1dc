package views

import (
	"fmt"
	"io"
	"strings"

	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/plans"
)

// PlanView is where plan reports: its output, and the -json UI stream
// with -json.
type PlanView struct {
	Out   io.Writer
	Color render.Colorizer
	JSON  *JSONView
}

// Plan renders a plan: the human text, or the -json messages (drift,
// planned changes, summary, outputs).
func (v PlanView) Plan(p *plans.Plan) {
	if v.JSON == nil {
		_ = render.Plan(v.Out, p, v.Color.Enabled)
		return
	}
	for _, rc := range plans.SortedResourceChanges(p.DriftedResources) {
		// A move alone is drift only in refresh-only mode; otherwise the
		// planned changes report it (as Terraform does).
		if rc.Action == plans.NoOp && (!rc.Moved() || p.UIMode != plans.RefreshOnlyMode) {
			continue
		}
		ch := changeJSON(rc)
		v.JSON.Emit("info", "resource_drift", fmt.Sprintf("%s: Drift detected (%s)", rc.Addr, ch["action"]),
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
		v.JSON.Emit("info", "planned_change", fmt.Sprintf("%s: Plan to %s", rc.Addr, ch["action"]),
			map[string]any{"change": ch})
	}
	c := render.CountChanges(changes)
	msg := "Plan: " + c.Summary()
	if !render.HasResourceChanges(changes) && !render.HasOutputChanges(changes) && !render.HasMoves(changes) {
		msg = "No changes. Your infrastructure matches the configuration."
	}
	v.JSON.Emit("info", "change_summary", msg, map[string]any{"changes": map[string]any{
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
		v.JSON.Emit("info", "outputs", fmt.Sprintf("Outputs: %d", len(outs)), map[string]any{"outputs": outs})
	}
}

// LocksRecorded says which provider selections plan added to the lock
// file, and that it belongs with the configuration: a paragraph, or a
// -json "log" message.
func (v PlanView) LocksRecorded(lockFile string, added []string) {
	msg := fmt.Sprintf("plankit recorded the provider selections in %s:\n  %s\nCommit it with the configuration so that every run uses these packages.", lockFile, strings.Join(added, "\n  "))
	if v.JSON != nil {
		v.JSON.Emit("info", "log", msg, nil)
		return
	}
	fmt.Fprintf(v.Out, "%s\n\n", msg)
}

// Saved says where -out saved the plan and the command that applies it.
func (v PlanView) Saved(path, applyCmd string) {
	fmt.Fprintf(v.Out, "\n%s\n\nSaved the plan to: %s\n\nTo perform exactly these actions, run the following command to apply:\n    %s\n",
		v.Color.Gray(hr), path, applyCmd)
}

// Unsaved notes that a plan not saved with -out may not be what a later
// apply does.
func (v PlanView) Unsaved() {
	fmt.Fprintf(v.Out, "\n%s\n\nNote: You didn't use the -out option to save this plan, so plankit can't\nguarantee to take exactly these actions if you run \"apply\" now.\n", v.Color.Gray(hr))
}

const hr = "─────────────────────────────────────────────────────────────────────────────"

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

// importJSON adds an import's fields to a -json UI change: the action
// "import" for an import with nothing else to do (as Terraform's stream
// says), the imported ID and any generated configuration.
func importJSON(out map[string]any, rc *plans.ResourceInstanceChange) {
	if rc.Importing == nil {
		return
	}
	if out["action"] == "noop" {
		out["action"] = "import"
	}
	out["importing"] = map[string]any{"id": rc.Importing.ID}
	if rc.GeneratedConfig != "" {
		out["generated_config"] = rc.GeneratedConfig
	}
}
