package terraform

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/lang/marks"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/objchange"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// data reads one data source instance during the plan when its
// configuration is wholly known and nothing it depends on has a pending
// change (depsPending); otherwise it plans a read at apply (in normal
// mode) with the reason. The value read goes to the working state, as
// Terraform keeps data sources in the prior state.
func (pi *planInstance) data() hcl.Diagnostics {
	ws, n, addr := pi.ws, pi.n, pi.w.addr
	if pi.w.gone {
		ws.state.SetResourceInstanceCurrent(addr, nil, n.provider)
		return nil
	}
	cfg, cfgMarks, diags := pi.evalConfig()
	if diags.HasErrors() {
		ws.values.set(addr, cty.UnknownVal(n.ty))
		return diags
	}
	normal := pi.pw.opts.Mode == plans.NormalMode
	reason := plans.ReasonNone
	switch {
	case !cfg.IsWhollyKnown():
		reason = plans.ReasonReadBecauseConfigUnknown
	case normal && n.depsPending():
		reason = plans.ReasonReadBecauseDependencyPending
	}
	if reason != plans.ReasonNone {
		planned := objchange.ProposedNew(n.schema.Block, cty.NullVal(n.ty), cfg)
		plannedM := pi.markSchema(planned.MarkWithPaths(cfgMarks))
		ws.values.set(addr, plannedM)
		if !normal {
			return diags
		}
		_, ap := marks.SensitivePaths(plannedM)
		pi.pw.changes.add(&plans.ResourceInstanceChange{
			Addr: addr, PrevRunAddr: addr, ProviderAddr: n.provider,
			Change:       plans.Change{Action: plans.Read, Before: cty.NullVal(n.ty), After: planned, AfterSensitivePaths: ap},
			ActionReason: reason,
		})
		n.pending.Store(true)
		return diags
	}
	return append(diags, pi.readData(cfg, cfgMarks)...)
}

// readData calls ReadDataSource and stores the result. Like Terraform, it
// reports the read to the hooks as an apply of action Read (PreApply with
// the configuration as the planned value, PostApply with the object read
// or the error), so the UI shows "Reading..." and "Read complete".
func (ic *instanceCtx) readData(cfg cty.Value, cfgMarks []cty.PathValueMarks) hcl.Diagnostics {
	ws, n, addr := ic.ws, ic.n, ic.w.addr
	ws.hook(func(h Hook) (HookAction, error) {
		return h.PreApply(addr, addrs.NotDeposed, plans.Read, cty.NullVal(n.ty), cfg)
	})
	v, diags := ic.readDataValue(cfg, cfgMarks)
	ws.hook(func(h Hook) (HookAction, error) { return h.PostApply(addr, addrs.NotDeposed, v, tfdiags.Err(diags)) })
	return diags
}

// readDataValue is readData without the hooks: it returns the object read
// (cty.NilVal on failure).
func (ic *instanceCtx) readDataValue(cfg cty.Value, cfgMarks []cty.PathValueMarks) (cty.Value, hcl.Diagnostics) {
	ws, n, addr := ic.ws, ic.n, ic.w.addr
	resp := ic.p.ReadDataSource(providers.ReadDataSourceRequest{TypeName: n.typ, Config: cfg})
	diags := ic.subjectDiags(resp.Diagnostics)
	if diags.HasErrors() {
		ws.values.set(addr, cty.UnknownVal(n.ty))
		return cty.NilVal, diags
	}
	v := resp.State
	if v == cty.NilVal || v.IsNull() || !v.IsWhollyKnown() || len(v.Type().TestConformance(n.ty)) > 0 {
		ws.values.set(addr, cty.UnknownVal(n.ty))
		return cty.NilVal, append(diags, tfdiags.Errorf("Provider produced invalid object",
			"Provider %s returned a null, partly unknown or wrongly typed value for %s. This is a bug in the provider.", n.provider.Provider.ForDisplay(), addr))
	}
	marked := ic.markSchema(v.MarkWithPaths(cfgMarks))
	ws.values.set(addr, marked)
	return marked, append(diags, ic.writeObject(addrs.NotDeposed, &states.ResourceInstanceObject{Value: marked, Status: states.ObjectReady})...)
}

// depsPending reports whether a resource this data source depends on,
// directly or through locals, variables, outputs or module calls, has a
// pending change. O(1): the flags were propagated along the walk.
func (n *nodeResource) depsPending() bool {
	return n.upstream != nil && n.upstream.direct
}
