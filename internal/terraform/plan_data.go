package terraform

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/internal/providers/objchange"
	"github.com/plankit/plankit/plans"
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
	diags := pi.preconditions()
	if diags.HasErrors() {
		ws.values.set(addr, cty.UnknownVal(n.ty))
		return diags
	}
	cfg, cfgMarks, d := pi.evalConfig()
	diags = append(diags, d...)
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
			return append(diags, pi.postconditions(plannedM)...)
		}
		_, ap := marks.SensitivePaths(plannedM)
		pi.pw.changes.add(&plans.ResourceInstanceChange{
			Addr: addr, PrevRunAddr: addr, ProviderAddr: n.provider,
			Change:       plans.Change{Action: plans.Read, Before: cty.NullVal(n.ty), After: planned, AfterSensitivePaths: ap},
			ActionReason: reason,
		})
		n.pending.Store(true)
		return append(diags, pi.postconditions(plannedM)...)
	}
	if n.block.Check != "" {
		return append(diags, pi.planNested(cfg, cfgMarks)...)
	}
	v, d := pi.readDataObject(cfg, cfgMarks)
	diags = append(diags, d...)
	if d.HasErrors() {
		return diags
	}
	return append(diags, pi.postconditions(v)...)
}

// depsPending reports whether a resource this data source depends on,
// directly or through locals, variables, outputs or module calls, has a
// pending change. O(1): the flags were propagated along the walk.
func (n *nodeResource) depsPending() bool {
	if n.upstream == nil {
		return false
	}
	n.upstream.settle()
	return n.upstream.direct
}
