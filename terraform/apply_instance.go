package terraform

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// stateObject returns a copy-free read of an object of addr in the working
// state.
func (ws *walkState) stateObject(addr addrs.AbsResourceInstance, dk addrs.DeposedKey) *states.ResourceInstanceObjectSrc {
	s := ws.state.Lock()
	defer ws.state.Unlock()
	return s.ResourceInstanceObject(addr, dk)
}

// apply makes the planned change of one instance (create, update, or the
// create half of a replacement), or, when it has none, publishes its
// current object for references. The change is planned again with the
// final configuration (values unknown at plan time are known now); that
// final plan must keep every value the saved plan knew, and the new object
// every value the final plan knew.
func (ic *instanceCtx) apply(ctx context.Context) hcl.Diagnostics {
	ws, n, addr := ic.ws, ic.n, ic.w.addr
	ch := ws.applied.current.get(addr)
	if ch != nil && ch.Action == plans.Delete {
		return ic.publishPrior()
	}
	if ch == nil || ch.Action == plans.NoOp || ch.Action == plans.Read {
		return ic.publishCurrent()
	}
	cfg, cfgMarks, diags := ic.evalConfig()
	if diags.HasErrors() {
		return diags
	}
	prior := cty.NullVal(n.ty)
	var priv []byte
	if ch.Action == plans.Update {
		if src := ws.stateObject(addr, addrs.NotDeposed); src != nil {
			v, d := ic.priorNoRefresh(src) // the plan refreshed it
			diags = append(diags, d...)
			prior, _ = v.UnmarkDeep()
			priv = src.Private
		}
	}
	if !prior.IsNull() {
		cfg = ic.ignoreChanges(prior, cfg) // as the plan did
	}
	resp, d := ic.planChange(prior, cfg, priv)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return diags
	}
	if d := ic.checkFinalPlan(ch, prior, resp, cfgMarks); d.HasErrors() {
		return append(diags, d...)
	}
	dk := addrs.NotDeposed
	if ch.Action == plans.CreateThenDelete {
		dk = ic.deposeCurrent()
	}
	nv, ar, adiags := ic.applyChange(ch.Action, prior, cfg, resp, cfgMarks)
	diags = append(diags, adiags...)
	if adiags.HasErrors() {
		if prior.IsNull() && nv != cty.NilVal && !nv.IsNull() && nv.IsWhollyKnown() {
			ic.storeNew(nv, cfgMarks, ar.Private, states.ObjectTainted)
		} else if dk != addrs.NotDeposed {
			ic.restoreDeposed(dk)
		}
		ic.postApply(nv, adiags)
		return diags
	}
	marked := ic.storeNew(nv, cfgMarks, ar.Private, states.ObjectReady)
	if ch.Action != plans.Update {
		if ic.hasProvisioners(false) {
			// Recorded, but still being created until its provisioners
			// finished: a crash now leaves it named as in flight. A failed
			// record only loses that name (the persister reports it).
			_ = ws.beginOp(addr, addrs.NotDeposed, ch.Action)
		}
		d := ic.provision(ctx, marked, false)
		diags = append(diags, d...) // on_failure = continue leaves warnings
		if d.HasErrors() {
			ic.storeNew(nv, cfgMarks, ar.Private, states.ObjectTainted)
			ic.postApply(nv, d)
			return diags
		}
	}
	ic.postApply(nv, nil)
	return diags
}

// postApply reports the end of the instance's operation, provisioners
// included (as Terraform does: "Creation complete" follows their output),
// with the error that ended it, if any.
func (ic *instanceCtx) postApply(nv cty.Value, diags hcl.Diagnostics) {
	addr := ic.w.addr
	ic.ws.endOp(addr)
	ic.ws.hook(func(h Hook) (HookAction, error) { return h.PostApply(addr, addrs.NotDeposed, nv, tfdiags.Err(diags)) })
}

// applyChange calls ApplyResourceChange with the final plan of the saved
// change's action and checks the new object against it. It reports the start to the hooks (PreApply);
// the caller reports the end (postApply), after the provisioners.
func (ic *instanceCtx) applyChange(action plans.Action, prior, cfg cty.Value, resp providers.PlanResourceChangeResponse, cfgMarks []cty.PathValueMarks) (cty.Value, providers.ApplyResourceChangeResponse, hcl.Diagnostics) {
	ws, n, addr := ic.ws, ic.n, ic.w.addr
	if err := ws.beginOp(addr, addrs.NotDeposed, action); err != nil {
		// Unrecorded, the operation's fate would be unknown after a crash.
		return cty.NilVal, providers.ApplyResourceChangeResponse{}, hcl.Diagnostics{ic.stateWriteDiag(err)}
	}
	ws.hook(func(h Hook) (HookAction, error) {
		return h.PreApply(addr, addrs.NotDeposed, action, prior, resp.PlannedState)
	})
	ar := ic.p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: n.typ, PriorState: prior,
		PlannedState: resp.PlannedState, Config: cfg, PlannedPrivate: resp.PlannedPrivate})
	diags := ic.subjectDiags(ar.Diagnostics)
	nv := ar.NewState
	if !diags.HasErrors() {
		diags = append(diags, ic.checkConsistent(resp.PlannedState, nv, cfgMarks, resp.LegacyTypeSystem || ar.LegacyTypeSystem)...)
	}
	return nv, ar, diags
}

// deposeCurrent moves the current object aside for a create-before-destroy
// replacement and records the key for the destroy node.
func (ic *instanceCtx) deposeCurrent() addrs.DeposedKey {
	s := ic.ws.state.Lock()
	dk := s.DeposeResourceInstanceObject(ic.w.addr)
	ic.ws.state.Unlock()
	ic.ws.applied.setDeposed(ic.w.addr, dk)
	ic.ws.changed(ic.w.addr)
	return dk
}

// restoreDeposed puts back the object a failed create-before-destroy
// replacement deposed, when the create left no new object: the old object
// is still the one in use, and its destroy node will not run.
func (ic *instanceCtx) restoreDeposed(dk addrs.DeposedKey) {
	s := ic.ws.state.Lock()
	if s.ResourceInstanceObject(ic.w.addr, addrs.NotDeposed) == nil {
		if obj := s.ResourceInstanceObject(ic.w.addr, dk); obj != nil {
			s.SetResourceInstanceCurrent(ic.w.addr, obj, ic.n.provider)
			s.SetResourceInstanceDeposed(ic.w.addr, dk, nil, ic.n.provider)
		}
	}
	ic.ws.state.Unlock()
	ic.ws.applied.setDeposed(ic.w.addr, addrs.NotDeposed)
	ic.ws.changed(ic.w.addr)
}

// storeNew writes the new object to the state and publishes its value.
func (ic *instanceCtx) storeNew(nv cty.Value, cfgMarks []cty.PathValueMarks, priv []byte, status states.ObjectStatus) cty.Value {
	marked := ic.markSchema(nv.MarkWithPaths(cfgMarks))
	obj := &states.ResourceInstanceObject{Value: marked, Private: priv, Status: status,
		Dependencies: ic.n.stateDeps, CreateBeforeDestroy: ic.n.cbd}
	_ = ic.writeObject(addrs.NotDeposed, obj)
	ic.keepStateProvider()
	ic.ws.changed(ic.w.addr)
	ic.publish(marked)
	return marked
}

// publish makes v the instance's value for references. A resource nothing
// in the graph refers to keeps no values during the apply: the state holds
// the object, and each value would cost a decoded object (hundreds of
// bytes) per instance until the walk ends.
func (ic *instanceCtx) publish(v cty.Value) {
	if ic.n.referenced {
		ic.ws.values.set(ic.w.addr, v)
	}
}

// publishCurrent sets the instance's value from its current object in the
// working state (no change planned).
func (ic *instanceCtx) publishCurrent() hcl.Diagnostics {
	return ic.publishObject(ic.ws.stateObject(ic.w.addr, addrs.NotDeposed))
}

// publishPrior sets the value of an instance planned for deletion from its
// object in the state the apply started from. The instance's destroy node
// is not ordered against this node, so the working state may or may not
// still hold the object; the prior one gives every expression that reads
// it (a local in a destroy apply) the same value whatever the schedule.
func (ic *instanceCtx) publishPrior() hcl.Diagnostics {
	return ic.publishObject(ic.ws.prevState.ResourceInstanceObject(ic.w.addr, addrs.NotDeposed))
}

// publishObject sets the instance's value from src, null when nil.
func (ic *instanceCtx) publishObject(src *states.ResourceInstanceObjectSrc) hcl.Diagnostics {
	if src == nil {
		ic.publish(cty.NullVal(ic.n.ty))
		return nil
	}
	obj, err := src.Decode(ic.n.ty)
	if err != nil {
		return tfdiags.FromError("Invalid object in state for "+ic.w.addr.String(), err)
	}
	ic.publish(ic.markSchema(obj.Value))
	return nil
}

// checkConsistent reports every value the final plan knew that the
// provider's new object contradicts, at any depth, naming its path. A
// provider on the legacy type system is not held to it, as in Terraform.
func (ic *instanceCtx) checkConsistent(planned, got cty.Value, cfgMarks []cty.PathValueMarks, legacy bool) hcl.Diagnostics {
	const summary = "Provider produced inconsistent result after apply"
	if got == cty.NilVal || got.IsNull() {
		return hcl.Diagnostics{tfdiags.Errorf(summary,
			"When applying changes to %s, provider %s produced a null object. This is a bug in the provider.", ic.w.addr, ic.n.provider.Provider.ForDisplay())}
	}
	if errs := got.Type().TestConformance(ic.n.ty); len(errs) > 0 || !got.IsWhollyKnown() {
		return hcl.Diagnostics{tfdiags.Errorf(summary,
			"When applying changes to %s, provider %s produced an object of the wrong type or with unknown values. This is a bug in the provider.", ic.w.addr, ic.n.provider.Provider.ForDisplay())}
	}
	if legacy || planned == cty.NilVal || planned.IsNull() {
		return nil
	}
	var diags hcl.Diagnostics
	for _, m := range ic.ws.compatibleValues(planned, got, ic.secret(cfgMarks)) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  summary,
			Detail: fmt.Sprintf("When applying changes to %s, provider %s produced an unexpected new value: %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.",
				ic.w.addr, ic.n.provider.Provider.ForDisplay(), m),
			Subject: ic.declRange(),
		})
	}
	return diags
}

// checkFinalPlan compares the plan made at apply with the saved one: a
// value the saved plan knew must not change (unknowns may become known),
// and an update must not turn into a replacement. Either is a provider
// bug; the change is not applied.
func (ic *instanceCtx) checkFinalPlan(ch *plans.ResourceInstanceChange, prior cty.Value, resp providers.PlanResourceChangeResponse, cfgMarks []cty.PathValueMarks) hcl.Diagnostics {
	const summary = "Provider produced inconsistent final plan"
	bug := func(what string) *hcl.Diagnostic {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  summary,
			Detail: fmt.Sprintf("When expanding the plan for %s to include new values learned so far during apply, provider %s %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.",
				ic.w.addr, ic.n.provider.Provider.ForDisplay(), what),
			Subject: ic.declRange(),
		}
	}
	var diags hcl.Diagnostics
	if ch.Action == plans.Update && changedAt(prior, resp.PlannedState, resp.RequiresReplace) {
		diags = append(diags, bug("now requires replacing the object, but the saved plan only updates it"))
	}
	if resp.LegacyTypeSystem || ch.After == cty.NilVal || ch.After.IsNull() {
		return diags
	}
	for _, m := range ic.ws.compatibleValues(ch.After, resp.PlannedState, ic.secret(cfgMarks)) {
		diags = append(diags, bug("changed a planned value: "+m.String()))
	}
	return diags
}

// secret tells which paths of this instance's objects must not be shown.
func (ic *instanceCtx) secret(cfgMarks []cty.PathValueMarks) func(cty.Path) bool {
	var marked []cty.Path
	for _, pm := range cfgMarks {
		marked = append(marked, pm.Path)
	}
	return secretPaths(ic.n.schema.Block, marked)
}

func (ic *instanceCtx) declRange() *hcl.Range {
	if ic.n.rc == nil {
		return nil
	}
	return ic.n.rc.DeclRange.Ptr()
}

// applyData reads a data source planned as "read at apply", or publishes
// the value the plan read.
func (ic *instanceCtx) applyData() hcl.Diagnostics {
	ws, addr := ic.ws, ic.w.addr
	if ch := ws.applied.current.get(addr); ch != nil && ch.Action == plans.Read {
		cfg, cfgMarks, diags := ic.evalConfig()
		if diags.HasErrors() {
			return diags
		}
		diags = append(diags, ic.readData(cfg, cfgMarks)...)
		ws.changed(addr)
		return diags
	}
	return ic.publishCurrent()
}
