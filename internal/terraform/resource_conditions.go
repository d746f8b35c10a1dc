package terraform

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/internal/providers/objchange"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/tfdiags"
)

// This file applies a resource's preconditions and postconditions to its
// instances, and reads the scoped data sources of check blocks, for the
// plan and apply walks.

// hasConditions reports whether the resource's block has preconditions
// or postconditions.
func (rb *resourceBlock) hasConditions() bool {
	b := rb.block
	return b != nil && len(b.Preconditions)+len(b.Postconditions) > 0
}

// preconditions evaluates the block's preconditions for this instance,
// before it is planned or applied: a false one is an error that stops
// the instance; an unknown one waits for apply. O(conditions).
func (ic *instanceCtx) preconditions() hcl.Diagnostics {
	b := ic.res.block
	if b == nil || len(b.Preconditions) == 0 {
		return nil
	}
	s := ic.ws.scope(ic.w.mod, ic.n.cfg, &ic.w.rep, nil)
	r := evalConditions(s, b.Preconditions, condResourcePre, ic.conditionSeverity(), ic.ws.traits.unknowns)
	ic.ws.putScope(s)
	return ic.reportConditions(r)
}

// postconditions evaluates the block's postconditions with self the
// instance's planned, read or new object. O(conditions).
func (ic *instanceCtx) postconditions(self cty.Value) hcl.Diagnostics {
	b := ic.res.block
	if b == nil || len(b.Postconditions) == 0 {
		return nil
	}
	s := ic.ws.selfScope(ic.w.mod, ic.n.cfg, &ic.w.rep, ic.n.addr.Resource, self)
	r := evalConditions(s, b.Postconditions, condResourcePost, ic.conditionSeverity(), ic.ws.traits.unknowns)
	ic.ws.putScope(s)
	return ic.reportConditions(r)
}

// conditionSeverity is the severity of a failed resource condition:
// an error, except in a refresh-only plan.
func (ic *instanceCtx) conditionSeverity() hcl.DiagnosticSeverity {
	if ic.ws.traits.conditionsWarn {
		return hcl.DiagWarning
	}
	return hcl.DiagError
}

// reportConditions records r as the instance's check result and returns
// its diagnostics; validation (values unknown by design) records nothing
// and keeps only the errors in the expressions themselves.
func (ic *instanceCtx) reportConditions(r condResult) hcl.Diagnostics {
	if ic.ws.traits.unknowns {
		return r.evalErrors()
	}
	ic.ws.checks.object("resource", ic.n.addr.Module.String(), ic.n.addr.Resource.String(),
		ic.w.mod.addr.String(), ic.w.addr.String(), r.status, r.failures)
	return r.diags
}

// currentValue decodes the instance's current object in the working state
// (null when none), for postconditions of an instance with no change.
func (ic *instanceCtx) currentValue() (cty.Value, hcl.Diagnostics) {
	src := ic.ws.stateObject(ic.w.addr, addrs.NotDeposed)
	if src == nil {
		return cty.NullVal(ic.n.ty), nil
	}
	obj, err := src.Decode(ic.n.ty)
	if err != nil {
		return cty.NilVal, tfdiags.FromError("Invalid object in state for "+ic.w.addr.String(), err)
	}
	return ic.markSchema(obj.Value), nil
}

// unchangedConditions evaluates both kinds of conditions of an instance
// planned as a no-op, self being its current object, as Terraform does:
// values unknown when planning may be known now. (Instances the plan has
// no change for at all, data sources read while planning and everything
// in a refresh-only plan, are not checked again, as in Terraform.)
func (ic *instanceCtx) unchangedConditions() hcl.Diagnostics {
	if !ic.res.hasConditions() {
		return nil
	}
	diags := ic.preconditions()
	if diags.HasErrors() {
		return diags
	}
	v, d := ic.currentValue()
	if d.HasErrors() {
		return append(diags, d...)
	}
	return append(diags, ic.postconditions(v)...)
}

// readDataObject is readData returning the object read (cty.NilVal when
// the read failed).
func (ic *instanceCtx) readDataObject(cfg cty.Value, cfgMarks []cty.PathValueMarks) (cty.Value, hcl.Diagnostics) {
	ws, n, addr := ic.ws, ic.n, ic.w.addr
	ws.hook(func(h Hook) (HookAction, error) {
		return h.PreApply(addr, addrs.NotDeposed, plans.Read, cty.NullVal(n.ty), cfg)
	})
	v, diags := ic.readDataValue(cfg, cfgMarks)
	ws.hook(func(h Hook) (HookAction, error) { return h.PostApply(addr, addrs.NotDeposed, v, tfdiags.Err(diags)) })
	return v, diags
}

// checkObjectAddr is the address of check block name in module instance
// mi, as check results name it.
func checkObjectAddr(mi addrs.ModuleInstance, name string) string {
	return joinAddr(mi.String(), "check."+name)
}

// readNested reads a check block's scoped data source. Its errors become
// warnings and fail the check (whose assertions are then not evaluated),
// as in Terraform: a check never blocks a plan or an apply. It returns
// the object read, or an unknown one when the read failed.
func (ic *instanceCtx) readNested(cfg cty.Value, cfgMarks []cty.PathValueMarks) (cty.Value, hcl.Diagnostics) {
	v, diags := ic.readDataObject(cfg, cfgMarks)
	if !diags.HasErrors() {
		return v, diags
	}
	name := ic.n.block.Check
	var msgs []string
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			msgs = append(msgs, d.Summary+": "+d.Detail)
		}
	}
	ic.ws.checks.object("check", ic.n.addr.Module.String(), name, ic.w.mod.addr.String(),
		checkObjectAddr(ic.w.mod.addr, name), plans.CheckFail, msgs)
	planned := objchange.ProposedNew(ic.n.schema.Block, cty.NullVal(ic.n.ty), cfg)
	plannedM := ic.markSchema(planned.MarkWithPaths(cfgMarks))
	ic.ws.values.set(ic.w.addr, plannedM)
	return plannedM, asWarnings(diags)
}

// asWarnings returns diags with every error turned into a warning.
func asWarnings(diags hcl.Diagnostics) hcl.Diagnostics {
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		c := *d
		c.Severity = hcl.DiagWarning
		out[i] = &c
	}
	return out
}

// planNested reads a check block's scoped data source while planning and,
// in a normal plan, plans reading it again at apply (reason
// ReadBecauseCheckNested) so the check is verified against the applied
// infrastructure, as Terraform does. Nothing depends on that read: it
// does not mark the data source pending.
func (pi *planInstance) planNested(cfg cty.Value, cfgMarks []cty.PathValueMarks) hcl.Diagnostics {
	v, diags := pi.readNested(cfg, cfgMarks)
	if pi.pw.opts.Mode != plans.NormalMode {
		return diags
	}
	after, ap := marks.SensitivePaths(v)
	pi.pw.changes.add(&plans.ResourceInstanceChange{
		Addr: pi.w.addr, PrevRunAddr: pi.w.addr, ProviderAddr: pi.n.provider,
		Change:       plans.Change{Action: plans.Read, Before: cty.NullVal(pi.n.ty), After: after, AfterSensitivePaths: ap},
		ActionReason: plans.ReasonReadBecauseCheckNested,
	})
	return diags
}

// validateConditions evaluates the instance's conditions with its own
// value unknown, for the errors in their expressions (validation judges
// no condition).
func (ic *instanceCtx) validateConditions() hcl.Diagnostics {
	if !ic.res.hasConditions() {
		return nil
	}
	return append(ic.preconditions(), ic.postconditions(cty.UnknownVal(ic.n.ty))...)
}

// expandChecks registers the instances of expansion x in module instance
// mi with the walk's check results when the block has conditions that
// the operation evaluates (not when validating or destroying).
// O(instances) for such blocks, O(1) for the others.
func (n *nodeResource) expandChecks(ws *walkState, mi moduleInst, abs addrs.AbsResource, x expansion) {
	if !n.hasConditions() || ws.traits.unknowns || ws.traits.skipOutputs {
		return
	}
	insts := make([]addrs.AbsResourceInstance, 0, x.len())
	for i := range x.len() {
		if inst := abs.Instance(x.key(i)); n.targeted(inst) {
			insts = append(insts, inst)
		}
	}
	ws.checks.expanded(n.addr.Module.String(), n.addr.Resource.String(), mi.addr, insts)
}
