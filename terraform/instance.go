package terraform

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/lang/marks"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// instanceCtx is the processing of one resource instance in a walk.
type instanceCtx struct {
	ws *walkState
	n  *nodeResource
	p  providers.Interface
	w  instanceWork
	// providerKey is the instance of the provider configuration p is
	// (provider for_each); addrs.NoKey without.
	providerKey addrs.InstanceKey
}

// managed refreshes and plans one managed resource instance, according to
// the walk's operation. The refresh happens here, right before planning,
// as modern Terraform does: the refreshed object goes to the walk's
// working state (the plan's PriorState) and any difference to the drift
// list.
func (ic *instanceCtx) managed(ctx context.Context) hcl.Diagnostics {
	ws, w := ic.ws, ic.w
	switch ws.op {
	case opValidate:
		return ic.validateManaged()
	case opApply:
		return ic.apply(ctx)
	}
	cur, deposed := ws.currentObject(w.addr)
	prior, diags := ic.prior(cur, addrs.NotDeposed)
	for _, k := range sortedDeposed(deposed) {
		diags = append(diags, ic.deposed(k, deposed[k])...)
	}
	if diags.HasErrors() {
		return diags
	}
	switch {
	case ws.op == opRefreshOnly:
		if !w.gone {
			ws.values.set(w.addr, prior)
		}
		return diags
	case ws.op == opPlanDestroy:
		if !w.gone {
			ws.values.set(w.addr, prior)
		}
		if prior.IsNull() {
			return diags
		}
		if d := ic.preventDestroy(plans.Delete); d != nil {
			return append(diags, d)
		}
		if d := skipDestroyDiag(w.addr, cur); d != nil {
			return append(diags, d)
		}
		return append(diags, ic.planDelete(prior, addrs.NotDeposed, plans.ReasonNone)...)
	case w.gone:
		if prior.IsNull() {
			return diags
		}
		if d := skipDestroyDiag(w.addr, cur); d != nil {
			return append(diags, d)
		}
		return append(diags, ic.planDelete(prior, addrs.NotDeposed, w.orphan)...)
	}
	return append(diags, ic.plan(cur, prior)...)
}

// prior decodes a stored object through the provider (UpgradeResourceState)
// and, unless refresh is skipped, refreshes it (ReadResource). The result
// carries sensitive marks; null when there is no object (or it is gone).
func (ic *instanceCtx) prior(src *states.ResourceInstanceObjectSrc, dk addrs.DeposedKey) (cty.Value, hcl.Diagnostics) {
	if src == nil {
		return cty.NullVal(ic.n.ty), nil
	}
	v, diags := ic.priorNoRefresh(src)
	if diags.HasErrors() || ic.ws.skipRefr {
		return v, diags
	}
	nv, d := ic.refresh(v, src, dk)
	return nv, append(diags, d...)
}

// priorNoRefresh decodes a stored object through the provider without
// refreshing it.
func (ic *instanceCtx) priorNoRefresh(src *states.ResourceInstanceObjectSrc) (cty.Value, hcl.Diagnostics) {
	resp := ic.p.UpgradeResourceState(providers.UpgradeResourceStateRequest{
		TypeName: ic.n.typ, Version: int64(src.SchemaVersion), RawStateJSON: src.AttrsJSON,
	})
	if resp.Diagnostics.HasErrors() {
		return cty.NullVal(ic.n.ty), ic.subjectDiags(resp.Diagnostics)
	}
	return ic.markSchema(marks.MarkSensitivePaths(resp.UpgradedState, src.AttrSensitivePaths)), resp.Diagnostics
}

// refresh reads the object from the real world, writes the result to the
// working state and records drift.
func (ic *instanceCtx) refresh(prior cty.Value, src *states.ResourceInstanceObjectSrc, dk addrs.DeposedKey) (cty.Value, hcl.Diagnostics) {
	ws, n, addr := ic.ws, ic.n, ic.w.addr
	priorU, _ := prior.UnmarkDeep()
	ws.hook(func(h Hook) (HookAction, error) { return h.PreRefresh(addr, dk, priorU) })
	resp := ic.p.ReadResource(providers.ReadResourceRequest{TypeName: n.typ, PriorState: priorU, Private: src.Private})
	if resp.Diagnostics.HasErrors() {
		return prior, ic.subjectDiags(resp.Diagnostics)
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
	marked := ic.markSchema(marks.MarkSensitivePaths(nv, src.AttrSensitivePaths))
	ic.recordDrift(priorU, nv, prior, marked, dk)
	if nv.IsNull() {
		ic.setState(dk, nil)
		return marked, resp.Diagnostics
	}
	obj := &states.ResourceInstanceObject{Value: marked, Private: resp.Private, Status: src.Status,
		Dependencies: src.Dependencies, CreateBeforeDestroy: src.CreateBeforeDestroy}
	return marked, append(resp.Diagnostics, ic.writeObject(dk, obj)...)
}

// recordDrift adds a drift entry (update, or delete when the object is gone).
func (ic *instanceCtx) recordDrift(before, after, beforeMarked, afterMarked cty.Value, dk addrs.DeposedKey) {
	if before.RawEquals(after) {
		return
	}
	action := plans.Update
	if after.IsNull() {
		action = plans.Delete
	}
	_, bp := marks.SensitivePaths(beforeMarked)
	_, ap := marks.SensitivePaths(afterMarked)
	ic.ws.drift.add(&plans.ResourceInstanceChange{
		Addr: ic.w.addr, PrevRunAddr: ic.w.addr, DeposedKey: dk, ProviderAddr: ic.n.provider,
		Change: plans.Change{Action: action, Before: before, After: after, BeforeSensitivePaths: bp, AfterSensitivePaths: ap},
	})
}

// writeObject encodes obj and stores it in the working state.
func (ic *instanceCtx) writeObject(dk addrs.DeposedKey, obj *states.ResourceInstanceObject) hcl.Diagnostics {
	src, err := obj.Encode(ic.n.ty, uint64(ic.n.schema.Version))
	if err != nil {
		return tfdiags.FromError(fmt.Sprintf("Failed to encode %s for the state", ic.w.addr), err)
	}
	ic.setState(dk, src)
	return nil
}

func (ic *instanceCtx) setState(dk addrs.DeposedKey, src *states.ResourceInstanceObjectSrc) {
	if dk == addrs.NotDeposed {
		ic.ws.state.SetResourceInstanceCurrent(ic.w.addr, src, ic.n.provider)
	} else {
		ic.ws.state.SetResourceInstanceDeposed(ic.w.addr, dk, src, ic.n.provider)
	}
	if ic.providerKey != nil && ic.providerKey != addrs.NoKey && src != nil {
		ic.ws.state.SetResourceInstanceProviderKey(ic.w.addr, ic.providerKey)
	}
}

// deposed refreshes a deposed object and, unless refresh-only, plans its
// deletion.
func (ic *instanceCtx) deposed(dk addrs.DeposedKey, src *states.ResourceInstanceObjectSrc) hcl.Diagnostics {
	v, diags := ic.prior(src, dk)
	if diags.HasErrors() || v.IsNull() || ic.ws.op == opRefreshOnly {
		return diags
	}
	return append(diags, ic.planDelete(v, dk, plans.ReasonNone)...)
}

// planDelete records the deletion of an existing object.
func (ic *instanceCtx) planDelete(prior cty.Value, dk addrs.DeposedKey, reason plans.ResourceInstanceChangeActionReason) hcl.Diagnostics {
	ws, addr := ic.ws, ic.w.addr
	priorU, bp := marks.SensitivePaths(prior)
	after := cty.NullVal(ic.n.ty)
	ws.hook(func(h Hook) (HookAction, error) { return h.PreDiff(addr, dk, priorU, after) })
	ws.changes.add(&plans.ResourceInstanceChange{
		Addr: addr, PrevRunAddr: addr, DeposedKey: dk, ProviderAddr: ic.n.provider,
		Change:              plans.Change{Action: plans.Delete, Before: priorU, After: after, BeforeSensitivePaths: bp},
		ActionReason:        reason,
		CreateBeforeDestroy: ic.n.cbd,
	})
	ic.n.pending.Store(true)
	ws.hook(func(h Hook) (HookAction, error) { return h.PostDiff(addr, dk, plans.Delete, priorU, after) })
	return nil
}

// markSchema marks the schema's sensitive attributes in v.
func (ic *instanceCtx) markSchema(v cty.Value) cty.Value {
	if !ic.n.sensitive || v.IsNull() || !v.IsKnown() {
		return v
	}
	u, pvm := v.UnmarkDeepWithPaths()
	return marks.MarkSensitivePaths(u.MarkWithPaths(pvm), ic.n.schema.Block.SensitivePaths(u))
}

// subjectDiags gives provider diagnostics without a source range the
// resource block's range and names the instance.
func (ic *instanceCtx) subjectDiags(diags hcl.Diagnostics) hcl.Diagnostics {
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		c := *d
		if c.Subject == nil && ic.n.rc != nil {
			// A diagnostic about an argument points at it, as in
			// Terraform ("on main.tf line 12, in resource ...").
			if p := tfdiags.AttributePath(d); len(p) > 0 {
				c.Subject = rangeForPath(ic.n.rc.Config, p)
			}
			if c.Subject == nil {
				c.Subject = ic.n.rc.DeclRange.Ptr()
			}
		}
		if c.Detail == "" {
			c.Detail = "While processing " + ic.w.addr.String() + "."
		} else {
			c.Detail += "\n\n(" + ic.w.addr.String() + ")"
		}
		out[i] = &c
	}
	return out
}

// sortedDeposed returns the deposed keys of m in order (nil when none).
func sortedDeposed(m map[addrs.DeposedKey]*states.ResourceInstanceObjectSrc) []addrs.DeposedKey {
	return slices.Sorted(maps.Keys(m))
}
