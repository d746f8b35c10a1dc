package terraform

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// nodeDestroy destroys one object: a planned delete, the old object of a
// replacement (current for delete-then-create, deposed by the create for
// create-before-destroy), or an already deposed object.
type nodeDestroy struct {
	change *plans.ResourceInstanceChange
	res    *resourceBlock // the object's resource: schema, provider, block
	apply  *applyWalk     // the apply it is part of
}

var _ executable = (*nodeDestroy)(nil)

func (n *nodeDestroy) Name() string {
	s := n.change.Addr.String() + " (destroy"
	if n.change.DeposedKey != addrs.NotDeposed {
		s += " deposed " + string(n.change.DeposedKey)
	}
	return s + ")"
}

func (n *nodeDestroy) providerAddr() addrs.AbsProviderConfig { return n.change.ProviderAddr }

func (n *nodeDestroy) Execute(ctx context.Context, ws *walkState) hcl.Diagnostics {
	addr := n.change.Addr
	if n.res.schema == nil {
		return hcl.Diagnostics{n.res.missingSchemaDiag()}
	}
	dk := n.change.DeposedKey
	if n.change.Action == plans.CreateThenDelete {
		if dk = n.apply.applied.deposedKey(addr); dk == addrs.NotDeposed {
			return nil // the create failed before deposing: nothing to destroy
		}
	}
	src := ws.stateObject(addr, dk)
	if src == nil {
		return nil
	}
	if !ws.acquire(ctx) {
		ws.notStarted.Add(1) // cancelled: reported once for the whole walk
		return nil
	}
	defer ws.release()
	// An object managed by an instance of a provider configuration with
	// for_each is destroyed by that instance (the key its state recorded).
	var pkey addrs.InstanceKey = addrs.NoKey
	if ri := ws.prevState.ResourceInstance(addr); ri != nil && ri.ProviderKey != nil {
		pkey = ri.ProviderKey
	}
	p, diags := ws.provs.getKey(n.change.ProviderAddr, pkey)
	if diags.HasErrors() {
		return diags
	}
	ic := &applyInstance{&instanceCtx{ws: ws, res: n.res, p: p, w: instanceWork{addr: addr, mod: moduleInstOf(addr.Module), rep: repetitionOf(addr.Resource.Key)}}, n.apply}
	prior, diags := ic.priorNoRefresh(src)
	if diags.HasErrors() {
		return diags
	}
	priorU, _ := prior.UnmarkDeep()
	null := cty.NullVal(n.res.ty)
	if err := n.apply.beginOp(addr, dk, plans.Delete); err != nil {
		return append(diags, ic.stateWriteDiag(err))
	}
	defer n.apply.endOp(addr)
	ws.hook(func(h Hook) (HookAction, error) { return h.PreApply(addr, dk, plans.Delete, priorU, null) })
	if dk == addrs.NotDeposed && src.Status != states.ObjectTainted {
		pd := ic.provision(ctx, prior, true)
		diags = append(diags, pd...)
		if pd.HasErrors() {
			ws.hook(func(h Hook) (HookAction, error) { return h.PostApply(addr, dk, priorU, tfdiags.Err(pd)) })
			return diags // on_failure = fail: the object is not destroyed and stays in the state
		}
	}
	resp := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: n.res.typ, PriorState: priorU, PlannedState: null, Config: null, PlannedPrivate: src.Private})
	d := ic.subjectDiags(resp.Diagnostics)
	diags = append(diags, d...)
	ws.hook(func(h Hook) (HookAction, error) { return h.PostApply(addr, dk, null, tfdiags.Err(d)) })
	if d.HasErrors() {
		return diags
	}
	ic.setState(dk, nil)
	n.apply.changed(addr)
	return diags
}

// moduleInstOf is the moduleInst of a module instance address.
func moduleInstOf(addr addrs.ModuleInstance) moduleInst {
	return moduleInst{addr: addr, key: addr.String()}
}

// repetitionOf is what count.index and each.key mean for an instance key
// when only the key is known (a destroy: each.value is not available).
func repetitionOf(k addrs.InstanceKey) repetition {
	switch k := k.(type) {
	case addrs.IntKey:
		return repetition{mode: expCount, key: k}
	case addrs.StringKey:
		return repetition{mode: expForEach, key: k, eachValue: cty.DynamicVal}
	}
	return repetition{mode: expSingle, key: addrs.NoKey}
}
