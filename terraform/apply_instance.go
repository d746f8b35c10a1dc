package terraform

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/lang/marks"
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

func (ws *walkState) markDirty() {
	if ws.dirty != nil {
		ws.dirty()
	}
}

// apply makes the planned change of one instance (create, update, or the
// create half of a replacement), or, when it has none, publishes its
// current object for references.
func (ic *instanceCtx) apply(ctx context.Context) hcl.Diagnostics {
	ws, n, addr := ic.ws, ic.n, ic.w.addr
	ch := ws.applied.current[addr.String()]
	if ch == nil || ch.Action == plans.NoOp || ch.Action == plans.Delete || ch.Action == plans.Read {
		return ic.publishCurrent()
	}
	cfg, cfgMarks, diags := ic.evalConfig()
	if diags.HasErrors() {
		return diags
	}
	prior := cty.NullVal(n.ty)
	var priv []byte
	if ch.Action == plans.Update {
		src := ws.stateObject(addr, addrs.NotDeposed)
		if src != nil {
			v, d := ic.prior(src, addrs.NotDeposed)
			diags = append(diags, d...)
			prior, _ = v.UnmarkDeep()
			priv = src.Private
		}
	}
	if ch.Action == plans.CreateThenDelete {
		s := ws.state.Lock()
		dk := s.DeposeResourceInstanceObject(addr)
		ws.state.Unlock()
		ws.applied.setDeposed(addr, dk)
		ws.markDirty()
	}
	resp, d := ic.planChange(prior, cfg, priv)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return diags
	}
	ws.hook(func(h Hook) (HookAction, error) {
		return h.PreApply(addr, addrs.NotDeposed, ch.Action, prior, resp.PlannedState)
	})
	ar := ic.p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: n.typ, PriorState: prior,
		PlannedState: resp.PlannedState, Config: cfg, PlannedPrivate: resp.PlannedPrivate})
	adiags := ic.subjectDiags(ar.Diagnostics)
	nv := ar.NewState
	if !adiags.HasErrors() {
		adiags = append(adiags, ic.checkConsistent(ch.After, nv)...)
	}
	ws.hook(func(h Hook) (HookAction, error) { return h.PostApply(addr, addrs.NotDeposed, nv, tfdiags.Err(adiags)) })
	diags = append(diags, adiags...)
	if adiags.HasErrors() {
		if prior.IsNull() && nv != cty.NilVal && !nv.IsNull() && nv.IsWhollyKnown() {
			ic.storeNew(nv, cfgMarks, ar.Private, states.ObjectTainted)
		}
		return diags
	}
	marked := ic.storeNew(nv, cfgMarks, ar.Private, states.ObjectReady)
	if ch.Action != plans.Update {
		if d := ic.provision(ctx, marked, false); d.HasErrors() {
			ic.storeNew(nv, cfgMarks, ar.Private, states.ObjectTainted)
			return append(diags, d...)
		}
	}
	return diags
}

// storeNew writes the new object to the state and publishes its value.
func (ic *instanceCtx) storeNew(nv cty.Value, cfgMarks []cty.PathValueMarks, priv []byte, status states.ObjectStatus) cty.Value {
	marked := ic.markSchema(nv.MarkWithPaths(cfgMarks))
	obj := &states.ResourceInstanceObject{Value: marked, Private: priv, Status: status,
		Dependencies: ic.n.stateDeps, CreateBeforeDestroy: ic.n.cbd}
	_ = ic.writeObject(addrs.NotDeposed, obj)
	ic.ws.markDirty()
	ic.ws.values.set(ic.w.addr, marked)
	return marked
}

// publishCurrent sets the instance's value from its current object in the
// working state (no change planned, or a delete still pending).
func (ic *instanceCtx) publishCurrent() hcl.Diagnostics {
	src := ic.ws.stateObject(ic.w.addr, addrs.NotDeposed)
	if src == nil {
		ic.ws.values.set(ic.w.addr, cty.NullVal(ic.n.ty))
		return nil
	}
	obj, err := src.Decode(ic.n.ty)
	if err != nil {
		return tfdiags.FromError("Invalid object in state for "+ic.w.addr.String(), err)
	}
	ic.ws.values.set(ic.w.addr, ic.markSchema(obj.Value))
	return nil
}

// checkConsistent reports every top-level attribute the plan knew that
// the provider's result contradicts.
func (ic *instanceCtx) checkConsistent(planned, got cty.Value) hcl.Diagnostics {
	if got == cty.NilVal || got.IsNull() {
		return hcl.Diagnostics{tfdiags.Errorf("Provider produced inconsistent result after apply",
			"When applying changes to %s, provider %s produced a null object. This is a bug in the provider.", ic.w.addr, ic.n.provider.Provider.ForDisplay())}
	}
	if errs := got.Type().TestConformance(ic.n.ty); len(errs) > 0 || !got.IsWhollyKnown() {
		return hcl.Diagnostics{tfdiags.Errorf("Provider produced inconsistent result after apply",
			"When applying changes to %s, provider %s produced an object of the wrong type or with unknown values. This is a bug in the provider.", ic.w.addr, ic.n.provider.Provider.ForDisplay())}
	}
	if planned == cty.NilVal || planned.IsNull() || !planned.Type().IsObjectType() {
		return nil
	}
	var diags hcl.Diagnostics
	for _, name := range sortedNames(planned.Type().AttributeTypes()) {
		pv := planned.GetAttr(name)
		if !pv.IsWhollyKnown() {
			continue
		}
		if eq := pv.Equals(got.GetAttr(name)); eq.IsKnown() && eq.True() {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Provider produced inconsistent result after apply",
			Detail: fmt.Sprintf("When applying changes to %s, provider %s produced an unexpected new value: .%s: the planned value was known and the result differs. This is a bug in the provider, which should be reported in the provider's own issue tracker.",
				ic.w.addr, ic.n.provider.Provider.ForDisplay(), name),
			Subject: ic.declRange(),
		})
	}
	return diags
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
	if ch := ws.applied.current[addr.String()]; ch != nil && ch.Action == plans.Read {
		cfg, cfgMarks, diags := ic.evalConfig()
		if diags.HasErrors() {
			return diags
		}
		diags = append(diags, ic.readData(cfg, cfgMarks)...)
		ws.markDirty()
		return diags
	}
	return ic.publishCurrent()
}

var _ = marks.Sensitive
