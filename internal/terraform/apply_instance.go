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
func (ai *applyInstance) apply(ctx context.Context) hcl.Diagnostics {
	ws, n, addr := ai.ws, ai.n, ai.w.addr
	ch := ai.aw.applied.current.get(addr)
	ai.announceImport(ch)
	if ch != nil && ch.Action == plans.Delete {
		return ai.publishPrior()
	}
	if ch == nil || ch.Action == plans.NoOp || ch.Action == plans.Read {
		diags := ai.publishCurrent()
		if ch != nil && ch.Action == plans.NoOp {
			diags = append(diags, ai.unchangedConditions()...)
		}
		return diags
	}
	diags := ai.preconditions()
	if diags.HasErrors() {
		return diags
	}
	cfg, cfgMarks, d := ai.evalConfig()
	diags = append(diags, d...)
	if diags.HasErrors() {
		return diags
	}
	prior := cty.NullVal(n.ty)
	var priv []byte
	if ch.Action == plans.Update {
		if src := ws.stateObject(addr, addrs.NotDeposed); src != nil {
			v, d := ai.priorNoRefresh(src) // the plan refreshed it
			diags = append(diags, d...)
			prior, _ = v.UnmarkDeep()
			priv = src.Private
		}
	}
	if !prior.IsNull() {
		cfg = ai.ignoreChanges(prior, cfg) // as the plan did
	}
	resp, d := ai.planChange(prior, cfg, priv)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return diags
	}
	if d := ai.checkFinalPlan(ch, prior, resp, cfgMarks); d.HasErrors() {
		return append(diags, d...)
	}
	dk := addrs.NotDeposed
	if ch.Action == plans.CreateThenDelete {
		dk = ai.deposeCurrent()
	}
	nv, ar, adiags := ai.applyChange(ch.Action, prior, cfg, resp, cfgMarks)
	diags = append(diags, adiags...)
	if adiags.HasErrors() {
		if prior.IsNull() && nv != cty.NilVal && !nv.IsNull() && nv.IsWhollyKnown() {
			ai.storeNew(nv, cfgMarks, ar.Private, states.ObjectTainted)
		} else if dk != addrs.NotDeposed {
			ai.restoreDeposed(dk)
		}
		ai.postApply(nv, adiags)
		return diags
	}
	marked := ai.storeNew(nv, cfgMarks, ar.Private, states.ObjectReady)
	if ch.Action != plans.Update {
		if ai.hasProvisioners(false) {
			// Recorded, but still being created until its provisioners
			// finished: a crash now leaves it named as in flight. A failed
			// record only loses that name (the persister reports it).
			_ = ai.aw.beginProvisioners(addr, ch.Action)
		}
		d := ai.provision(ctx, marked, false)
		diags = append(diags, d...) // on_failure = continue leaves warnings
		if d.HasErrors() {
			ai.storeNew(nv, cfgMarks, ar.Private, states.ObjectTainted)
			ai.postApply(nv, d)
			return diags
		}
	}
	ai.postApply(nv, nil)
	// A failing postcondition is an error, but the object exists: it
	// stays in the state as applied, as in Terraform.
	return append(diags, ai.postconditions(marked)...)
}

// postApply reports the end of the instance's operation, provisioners
// included (as Terraform does: "Creation complete" follows their output),
// with the error that ended it, if any.
func (ai *applyInstance) postApply(nv cty.Value, diags hcl.Diagnostics) {
	addr := ai.w.addr
	ai.aw.endOp(addr)
	ai.ws.hook(func(h Hook) (HookAction, error) { return h.PostApply(addr, addrs.NotDeposed, nv, tfdiags.Err(diags)) })
}

// applyChange calls ApplyResourceChange with the final plan of the saved
// change's action and checks the new object against it. It reports the start to the hooks (PreApply);
// the caller reports the end (postApply), after the provisioners.
func (ai *applyInstance) applyChange(action plans.Action, prior, cfg cty.Value, resp providers.PlanResourceChangeResponse, cfgMarks []cty.PathValueMarks) (cty.Value, providers.ApplyResourceChangeResponse, hcl.Diagnostics) {
	ws, n, addr := ai.ws, ai.n, ai.w.addr
	if err := ai.aw.beginOp(addr, addrs.NotDeposed, action); err != nil {
		// Unrecorded, the operation's fate would be unknown after a crash.
		return cty.NilVal, providers.ApplyResourceChangeResponse{}, hcl.Diagnostics{ai.stateWriteDiag(err)}
	}
	ws.hook(func(h Hook) (HookAction, error) {
		return h.PreApply(addr, addrs.NotDeposed, action, prior, resp.PlannedState)
	})
	ar := ai.p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: n.typ, PriorState: prior,
		PlannedState: resp.PlannedState, Config: cfg, PlannedPrivate: resp.PlannedPrivate})
	diags := ai.subjectDiags(ar.Diagnostics)
	nv := ar.NewState
	if !diags.HasErrors() && nv != cty.NilVal {
		if p := writeOnlyValue(n.schema.Block, nv); p != nil {
			// Kept out of the state: the object is stored (tainted) with
			// it null.
			nv = nullWriteOnly(n.schema.Block, nv)
			diags = append(diags, tfdiags.Errorf("Provider produced invalid object",
				"Provider %s returned a value for the write-only attribute %s of %s, which must be null: a state never holds write-only values. This is a bug in the provider.", n.provider.Provider.ForDisplay(), tfdiags.FormatPath(p), addr))
		}
	}
	if !diags.HasErrors() {
		diags = append(diags, ai.checkConsistent(resp.PlannedState, nv, cfgMarks, resp.LegacyTypeSystem || ar.LegacyTypeSystem)...)
	}
	return nv, ar, diags
}

// deposeCurrent moves the current object aside for a create-before-destroy
// replacement and records the key for the destroy node.
func (ai *applyInstance) deposeCurrent() addrs.DeposedKey {
	s := ai.ws.state.Lock()
	dk := s.DeposeResourceInstanceObject(ai.w.addr)
	ai.ws.state.Unlock()
	ai.aw.applied.setDeposed(ai.w.addr, dk)
	ai.aw.changed(ai.w.addr)
	return dk
}

// restoreDeposed puts back the object a failed create-before-destroy
// replacement deposed, when the create left no new object: the old object
// is still the one in use, and its destroy node will not run.
func (ai *applyInstance) restoreDeposed(dk addrs.DeposedKey) {
	s := ai.ws.state.Lock()
	if s.ResourceInstanceObject(ai.w.addr, addrs.NotDeposed) == nil {
		if obj := s.ResourceInstanceObject(ai.w.addr, dk); obj != nil {
			s.SetResourceInstanceCurrent(ai.w.addr, obj, ai.n.provider)
			s.SetResourceInstanceDeposed(ai.w.addr, dk, nil, ai.n.provider)
		}
	}
	ai.ws.state.Unlock()
	ai.aw.applied.setDeposed(ai.w.addr, addrs.NotDeposed)
	ai.aw.changed(ai.w.addr)
}

// storeNew writes the new object to the state and publishes its value.
func (ai *applyInstance) storeNew(nv cty.Value, cfgMarks []cty.PathValueMarks, priv []byte, status states.ObjectStatus) cty.Value {
	marked := ai.markSchema(nv.MarkWithPaths(cfgMarks))
	obj := &states.ResourceInstanceObject{Value: marked, Private: priv, Status: status,
		Dependencies: ai.n.stateDeps, CreateBeforeDestroy: ai.n.cbd}
	_ = ai.writeObject(addrs.NotDeposed, obj)
	ai.keepStateProvider()
	ai.aw.changed(ai.w.addr)
	ai.publish(marked)
	return marked
}

// publish makes v the instance's value for references. A resource nothing
// in the graph refers to keeps no values during the apply: the state holds
// the object, and each value would cost a decoded object (hundreds of
// bytes) per instance until the walk ends.
func (ai *applyInstance) publish(v cty.Value) {
	if ai.n.referenced {
		ai.ws.values.set(ai.w.addr, v)
	}
}

// publishCurrent sets the instance's value from its current object in the
// working state (no change planned).
func (ai *applyInstance) publishCurrent() hcl.Diagnostics {
	return ai.publishObject(ai.ws.stateObject(ai.w.addr, addrs.NotDeposed))
}

// publishPrior sets the value of an instance planned for deletion from its
// object in the state the apply started from. The instance's destroy node
// is not ordered against this node, so the working state may or may not
// still hold the object; the prior one gives every expression that reads
// it (a local in a destroy apply) the same value whatever the schedule.
func (ai *applyInstance) publishPrior() hcl.Diagnostics {
	return ai.publishObject(ai.ws.prevState.ResourceInstanceObject(ai.w.addr, addrs.NotDeposed))
}

// publishObject sets the instance's value from src, null when nil.
func (ai *applyInstance) publishObject(src *states.ResourceInstanceObjectSrc) hcl.Diagnostics {
	if src == nil {
		ai.publish(cty.NullVal(ai.n.ty))
		return nil
	}
	obj, err := src.Decode(ai.n.ty)
	if err != nil {
		return tfdiags.FromError("Invalid object in state for "+ai.w.addr.String(), err)
	}
	ai.publish(ai.markSchema(obj.Value))
	return nil
}

// checkConsistent reports every value the final plan knew that the
// provider's new object contradicts, at any depth, naming its path. A
// provider on the legacy type system is not held to it, as in Terraform.
func (ai *applyInstance) checkConsistent(planned, got cty.Value, cfgMarks []cty.PathValueMarks, legacy bool) hcl.Diagnostics {
	const summary = "Provider produced inconsistent result after apply"
	if got == cty.NilVal || got.IsNull() {
		return hcl.Diagnostics{tfdiags.Errorf(summary,
			"When applying changes to %s, provider %s produced a null object. This is a bug in the provider.", ai.w.addr, ai.n.provider.Provider.ForDisplay())}
	}
	if errs := got.Type().TestConformance(ai.n.ty); len(errs) > 0 || !got.IsWhollyKnown() {
		return hcl.Diagnostics{tfdiags.Errorf(summary,
			"When applying changes to %s, provider %s produced an object of the wrong type or with unknown values. This is a bug in the provider.", ai.w.addr, ai.n.provider.Provider.ForDisplay())}
	}
	if legacy || planned == cty.NilVal || planned.IsNull() {
		return nil
	}
	var diags hcl.Diagnostics
	for _, m := range ai.ws.compatibleValues(planned, got, ai.secret(cfgMarks)) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  summary,
			Detail: fmt.Sprintf("When applying changes to %s, provider %s produced an unexpected new value: %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.",
				ai.w.addr, ai.n.provider.Provider.ForDisplay(), m),
			Subject: ai.declRange(),
		})
	}
	return diags
}

// checkFinalPlan compares the plan made at apply with the saved one: a
// value the saved plan knew must not change (unknowns may become known),
// and an update must not turn into a replacement. Either is a provider
// bug; the change is not applied.
func (ai *applyInstance) checkFinalPlan(ch *plans.ResourceInstanceChange, prior cty.Value, resp providers.PlanResourceChangeResponse, cfgMarks []cty.PathValueMarks) hcl.Diagnostics {
	const summary = "Provider produced inconsistent final plan"
	bug := func(what string) *hcl.Diagnostic {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  summary,
			Detail: fmt.Sprintf("When expanding the plan for %s to include new values learned so far during apply, provider %s %s.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.",
				ai.w.addr, ai.n.provider.Provider.ForDisplay(), what),
			Subject: ai.declRange(),
		}
	}
	var diags hcl.Diagnostics
	if ch.Action == plans.Update && changedAt(prior, resp.PlannedState, resp.RequiresReplace) {
		diags = append(diags, bug("now requires replacing the object, but the saved plan only updates it"))
	}
	if resp.LegacyTypeSystem || ch.After == cty.NilVal || ch.After.IsNull() {
		return diags
	}
	for _, m := range ai.ws.compatibleValues(ch.After, resp.PlannedState, ai.secret(cfgMarks)) {
		diags = append(diags, bug("changed a planned value: "+m.String()))
	}
	return diags
}

// secret tells which paths of this instance's objects must not be shown.
func (ai *applyInstance) secret(cfgMarks []cty.PathValueMarks) func(cty.Path) bool {
	var marked []cty.Path
	for _, pm := range cfgMarks {
		marked = append(marked, pm.Path)
	}
	return secretPaths(ai.res.schema.Block, marked)
}

// applyData reads a data source planned as "read at apply", or publishes
// the value the plan read.
func (ai *applyInstance) applyData() hcl.Diagnostics {
	addr := ai.w.addr
	if ch := ai.aw.applied.current.get(addr); ch != nil && ch.Action == plans.Read {
		diags := ai.preconditions()
		if diags.HasErrors() {
			return diags
		}
		cfg, cfgMarks, d := ai.evalConfig()
		diags = append(diags, d...)
		if diags.HasErrors() {
			return diags
		}
		var v cty.Value
		if ai.n.block != nil && ai.n.block.Check != "" {
			v, d = ai.readNested(cfg, cfgMarks)
		} else {
			v, d = ai.readDataObject(cfg, cfgMarks)
		}
		diags = append(diags, d...)
		ai.aw.changed(addr)
		if diags.HasErrors() {
			return diags
		}
		return append(diags, ai.postconditions(v)...)
	}
	return ai.publishCurrent()
}
