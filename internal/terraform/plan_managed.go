package terraform

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
)

// plan evaluates the instance's configuration and asks the provider to
// plan it: ProposedNew, then PlanResourceChange, then the action and its
// reason. A replacement is planned again from a null prior so the planned
// object is the new one.
func (pi *planInstance) plan(cur *states.ResourceInstanceObjectSrc, prior cty.Value) hcl.Diagnostics {
	ws, n, addr := pi.ws, pi.n, pi.w.addr
	diags := pi.preconditions()
	if diags.HasErrors() {
		return diags
	}
	cfg, cfgMarks, d := pi.evalConfig()
	diags = append(diags, d...)
	if diags.HasErrors() {
		return diags
	}
	priorU, _ := prior.UnmarkDeep()
	var priv []byte
	if cur != nil {
		priv = cur.Private
	}
	if !priorU.IsNull() {
		cfg = pi.ignoreChanges(priorU, cfg)
	}
	resp, d := pi.planChange(priorU, cfg, priv)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return diags
	}
	action, reason := pi.decide(cur, priorU, resp)
	planned, private := resp.PlannedState, resp.PlannedPrivate
	if action.IsReplace() {
		resp2, d := pi.planChange(cty.NullVal(n.ty), cfg, nil)
		diags = append(diags, d...)
		if d.HasErrors() {
			return diags
		}
		planned, private = resp2.PlannedState, resp2.PlannedPrivate
	}
	if d := pi.preventDestroy(action); d != nil {
		return append(diags, d)
	}
	plannedM := pi.markSchema(planned.MarkWithPaths(cfgMarks))
	_, ap := marks.SensitivePaths(plannedM)
	_, bp := marks.SensitivePaths(prior)
	pi.pw.changes.add(&plans.ResourceInstanceChange{
		Addr: addr, PrevRunAddr: addr, ProviderAddr: n.provider,
		Change: plans.Change{Action: action, Before: priorU, After: planned,
			BeforeSensitivePaths: bp, AfterSensitivePaths: ap},
		ActionReason: reason, RequiredReplace: requiredReplace(priorU, resp), Private: private,
		CreateBeforeDestroy: n.cbd,
	})
	if action != plans.NoOp {
		n.pending.Store(true)
	}
	pi.keepDependencies(action)
	ws.values.set(addr, plannedM)
	ws.hook(func(h Hook) (HookAction, error) { return h.PostDiff(addr, addrs.NotDeposed, action, priorU, planned) })
	return append(diags, pi.postconditions(plannedM)...)
}

// keepDependencies brings what the refreshed state (the plan's prior
// state, which an apply persists for the objects it does not change)
// records for the instance's current object up to date, as OpenTofu
// does: create_before_destroy as the configuration has it (own or
// forced), and the dependencies: the configuration's when nothing
// changes (the apply will not write the object), else the configuration's
// joined with the recorded ones, which order this apply's destroys
// until the apply records the configuration's. Writes nothing when the
// record already agrees.
func (pi *planInstance) keepDependencies(action plans.Action) {
	n := pi.n
	if n.planDeps == nil || n.block == nil || n.block.Managed == nil {
		return
	}
	src := pi.ws.stateObject(pi.w.addr, addrs.NotDeposed)
	if src == nil {
		return
	}
	deps := src.Dependencies
	switch {
	case action == plans.NoOp:
		if !n.planDeps.equal(deps) {
			deps = n.planDeps.list()
		}
	case !n.planDeps.equal(deps):
		deps = states.SortedDependencies(append(slices.Clone(deps), n.planDeps.list()...))
	}
	if src.CreateBeforeDestroy == n.cbd && slices.EqualFunc(deps, src.Dependencies, addrs.ConfigResource.Equal) {
		return
	}
	next := &states.ResourceInstanceObjectSrc{
		SchemaVersion: src.SchemaVersion, AttrsJSON: src.AttrsJSON, AttrSensitivePaths: src.AttrSensitivePaths,
		Private: src.Private, Status: src.Status, Dependencies: deps, CreateBeforeDestroy: n.cbd,
		SkipDestroy: src.SkipDestroy, Identity: src.Identity,
	}
	pi.setState(addrs.NotDeposed, next)
}

// decide returns the action and reason for a planned change.
func (pi *planInstance) decide(cur *states.ResourceInstanceObjectSrc, prior cty.Value, resp providers.PlanResourceChangeResponse) (plans.Action, plans.ResourceInstanceChangeActionReason) {
	replace := plans.DeleteThenCreate
	if pi.n.cbd {
		replace = plans.CreateThenDelete
	}
	// A replace_triggered_by that fired names the reason even where the
	// object is new, tainted or replaced by request, as OpenTofu reports
	// it.
	triggered := pi.triggered()
	switch {
	case prior.IsNull() && triggered:
		return plans.Create, plans.ReasonReplaceByTriggers
	case prior.IsNull():
		return plans.Create, plans.ReasonNone
	case triggered:
		return replace, plans.ReasonReplaceByTriggers
	case cur != nil && cur.Status == states.ObjectTainted:
		return replace, plans.ReasonReplaceBecauseTainted
	case len(pi.pw.replace) > 0 && pi.pw.replace[pi.w.addr.String()]: // no address formatting per instance without -replace
		return replace, plans.ReasonReplaceByRequest
	case changedAt(prior, resp.PlannedState, resp.RequiresReplace):
		return replace, plans.ReasonReplaceBecauseCannotUpdate
	}
	if eq := prior.Equals(resp.PlannedState); eq.IsKnown() && eq.True() {
		return plans.NoOp, plans.ReasonNone
	}
	return plans.Update, plans.ReasonNone
}

// requiredReplace keeps the paths of resp.RequiresReplace whose values
// actually change, as Terraform does: providers on the legacy SDK list
// every force-new attribute in every plan, creates included, and only the
// changing ones force replacement (and get "# forces replacement").
func requiredReplace(prior cty.Value, resp providers.PlanResourceChangeResponse) []cty.Path {
	if prior.IsNull() || len(resp.RequiresReplace) == 0 {
		return nil
	}
	var out []cty.Path
	for _, p := range resp.RequiresReplace {
		if changedAt(prior, resp.PlannedState, []cty.Path{p}) {
			out = append(out, p)
		}
	}
	return out
}

// preventDestroy returns the error for a plan that would destroy a
// resource with lifecycle.prevent_destroy, nil otherwise.
func (pi *planInstance) preventDestroy(action plans.Action) *hcl.Diagnostic {
	block := pi.n.block
	if block == nil || block.Managed == nil || !block.Managed.PreventDestroy || (action != plans.Delete && !action.IsReplace()) {
		return nil
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Instance cannot be destroyed",
		Detail: fmt.Sprintf("Resource %s has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or reduce the scope of the plan using the -target flag.",
			pi.w.addr),
		Subject: block.DeclRange.Ptr(),
	}
}
