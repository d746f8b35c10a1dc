package terraform

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// managed refreshes and plans one managed resource instance according
// to the plan's mode. The refresh happens here, right before planning, as
// modern Terraform does: the refreshed object goes to the walk's working
// state (the plan's PriorState) and any difference to the drift list.
func (pi *planInstance) managed() hcl.Diagnostics {
	if pi.w.gone && pi.res.forgets() && pi.pw.opts.Mode == plans.NormalMode {
		return pi.forget()
	}
	cur, deposed := pi.ws.currentObject(pi.w.addr)
	cur, deposed, mdiags := pi.movedObjects(cur, deposed)
	if mdiags.HasErrors() {
		return mdiags
	}
	imp, cur, prior, diags := pi.priorOrImported(cur)
	diags = append(mdiags, diags...)
	for _, k := range sortedDeposed(deposed) {
		diags = append(diags, pi.deposed(k, deposed[k])...)
	}
	if diags.HasErrors() {
		return diags
	}
	diags = append(diags, pi.pw.forCurrent(pi, cur, prior)...)
	pi.pw.markImported(imp, prior, pi.n.provider)
	return diags
}

// keepRefreshed is refresh-only mode's step: the refreshed object is
// the instance's value; nothing is planned.
func (pi *planInstance) keepRefreshed(_ *states.ResourceInstanceObjectSrc, prior cty.Value) hcl.Diagnostics {
	if pi.w.gone {
		return nil
	}
	pi.ws.values.set(pi.w.addr, prior)
	if prior.IsNull() {
		return nil
	}
	return pi.postconditions(prior) // warnings: see opTraits.conditionsWarn
}

// planDestroy is destroy mode's step: the object, if any, is planned for
// deletion.
func (pi *planInstance) planDestroy(cur *states.ResourceInstanceObjectSrc, prior cty.Value) hcl.Diagnostics {
	if !pi.w.gone {
		pi.ws.values.set(pi.w.addr, prior)
	}
	if prior.IsNull() {
		return nil
	}
	if d := pi.preventDestroy(plans.Delete); d != nil {
		return hcl.Diagnostics{d}
	}
	if d := skipDestroyDiag(pi.w.addr, cur); d != nil {
		return hcl.Diagnostics{d}
	}
	return pi.planDelete(prior, addrs.NotDeposed, plans.ReasonNone)
}

// planConfigured is normal mode's step: an instance the configuration
// still has is planned from it; one it no longer has is planned for
// deletion.
func (pi *planInstance) planConfigured(cur *states.ResourceInstanceObjectSrc, prior cty.Value) hcl.Diagnostics {
	if !pi.w.gone {
		return pi.plan(cur, prior)
	}
	if prior.IsNull() {
		return nil
	}
	if d := skipDestroyDiag(pi.w.addr, cur); d != nil {
		return hcl.Diagnostics{d}
	}
	return pi.planDelete(prior, addrs.NotDeposed, pi.w.orphan)
}

// prior decodes a stored object through the provider (UpgradeResourceState)
// and, unless refresh is skipped, refreshes it (ReadResource). The result
// carries sensitive marks; null when there is no object (or it is gone).
func (pi *planInstance) prior(src *states.ResourceInstanceObjectSrc, dk addrs.DeposedKey) (cty.Value, hcl.Diagnostics) {
	if src == nil {
		return cty.NullVal(pi.n.ty), nil
	}
	v, diags := pi.priorNoRefresh(src)
	if diags.HasErrors() || pi.pw.opts.SkipRefresh {
		return v, diags
	}
	nv, d := pi.refresh(v, src, dk)
	return nv, append(diags, d...)
}

// refresh reads the object from the real world, writes the result to the
// working state and records drift.
func (pi *planInstance) refresh(prior cty.Value, src *states.ResourceInstanceObjectSrc, dk addrs.DeposedKey) (cty.Value, hcl.Diagnostics) {
	ws, n, addr := pi.ws, pi.n, pi.w.addr
	priorU, _ := prior.UnmarkDeep()
	ws.hook(func(h Hook) (HookAction, error) { return h.PreRefresh(addr, dk, priorU) })
	resp := pi.p.ReadResource(providers.ReadResourceRequest{TypeName: n.typ, PriorState: priorU, Private: src.Private})
	if resp.Diagnostics.HasErrors() {
		return prior, pi.subjectDiags(resp.Diagnostics)
	}
	nv := resp.NewState
	if nv == cty.NilVal {
		nv = cty.NullVal(n.ty)
	}
	if errs := nv.Type().TestConformance(n.ty); len(errs) > 0 {
		return prior, hcl.Diagnostics{tfdiags.Errorf("Provider produced invalid object",
			"Provider %s returned a value of the wrong type for %s after refresh: %s. This is a bug in the provider.", n.provider.Provider.ForDisplay(), addr, errs[0])}
	}
	ws.hook(func(h Hook) (HookAction, error) { return h.PostRefresh(addr, dk, priorU, nv) })
	if nv.RawEquals(priorU) && string(resp.Private) == string(src.Private) {
		return prior, resp.Diagnostics
	}
	marked := pi.markSchema(marks.MarkSensitivePaths(nv, src.AttrSensitivePaths))
	pi.recordDrift(priorU, nv, prior, marked, dk)
	if nv.IsNull() {
		pi.setState(dk, nil)
		return marked, resp.Diagnostics
	}
	obj := &states.ResourceInstanceObject{Value: marked, Private: resp.Private, Status: src.Status,
		Dependencies: src.Dependencies, CreateBeforeDestroy: src.CreateBeforeDestroy}
	return marked, append(resp.Diagnostics, pi.writeObject(dk, obj)...)
}

// recordDrift adds a drift entry (update, or delete when the object is gone).
func (pi *planInstance) recordDrift(before, after, beforeMarked, afterMarked cty.Value, dk addrs.DeposedKey) {
	if before.RawEquals(after) {
		return
	}
	action := plans.Update
	if after.IsNull() {
		action = plans.Delete
	}
	_, bp := marks.SensitivePaths(beforeMarked)
	_, ap := marks.SensitivePaths(afterMarked)
	pi.pw.drift.add(&plans.ResourceInstanceChange{
		Addr: pi.w.addr, PrevRunAddr: pi.w.addr, DeposedKey: dk, ProviderAddr: pi.n.provider,
		Change: plans.Change{Action: action, Before: before, After: after, BeforeSensitivePaths: bp, AfterSensitivePaths: ap},
	})
}

// deposed refreshes a deposed object and, unless refresh-only, plans its
// deletion.
func (pi *planInstance) deposed(dk addrs.DeposedKey, src *states.ResourceInstanceObjectSrc) hcl.Diagnostics {
	v, diags := pi.prior(src, dk)
	if diags.HasErrors() || v.IsNull() || pi.pw.opts.Mode == plans.RefreshOnlyMode {
		return diags
	}
	return append(diags, pi.planDelete(v, dk, plans.ReasonNone)...)
}

// planDelete records the deletion of an existing object.
func (pi *planInstance) planDelete(prior cty.Value, dk addrs.DeposedKey, reason plans.ResourceInstanceChangeActionReason) hcl.Diagnostics {
	pi.planToNull(prior, dk, plans.Delete, reason, pi.n.cbd)
	return nil
}

// planToNull records a change of action (Delete or Forget) from prior to
// null, between the PreDiff and PostDiff hooks. planDelete and planForget
// share it.
func (pi *planInstance) planToNull(prior cty.Value, dk addrs.DeposedKey, action plans.Action, reason plans.ResourceInstanceChangeActionReason, cbd bool) {
	ws, addr := pi.ws, pi.w.addr
	priorU, bp := marks.SensitivePaths(prior)
	after := cty.NullVal(pi.res.ty)
	ws.hook(func(h Hook) (HookAction, error) { return h.PreDiff(addr, dk, priorU, after) })
	pi.pw.changes.add(&plans.ResourceInstanceChange{
		Addr: addr, PrevRunAddr: addr, DeposedKey: dk, ProviderAddr: pi.res.provider,
		Change:              plans.Change{Action: action, Before: priorU, After: after, BeforeSensitivePaths: bp},
		ActionReason:        reason,
		CreateBeforeDestroy: cbd,
	})
	pi.n.pending.Store(true)
	ws.hook(func(h Hook) (HookAction, error) { return h.PostDiff(addr, dk, action, priorU, after) })
}
