package terraform

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/internal/providers/objchange"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// instanceCtx is the processing of one resource instance in a walk.
type instanceCtx struct {
	ws *walkState
	// n is the resource node the instance belongs to (nil for a destroy
	// node's object); res is its block (a destroy node's when n is nil).
	n   *nodeResource
	res *resourceBlock
	p   providers.Interface
	w   instanceWork
	// providerKey is the instance of the provider configuration p is
	// (provider for_each); addrs.NoKey without.
	providerKey addrs.InstanceKey
}

// priorNoRefresh decodes a stored object through the provider without
// refreshing it.
func (ic *instanceCtx) priorNoRefresh(src *states.ResourceInstanceObjectSrc) (cty.Value, hcl.Diagnostics) {
	resp := ic.p.UpgradeResourceState(providers.UpgradeResourceStateRequest{
		TypeName: ic.res.typ, Version: int64(src.SchemaVersion), RawStateJSON: src.AttrsJSON,
	})
	if resp.Diagnostics.HasErrors() {
		return cty.NullVal(ic.res.ty), ic.subjectDiags(resp.Diagnostics)
	}
	return ic.markSchema(marks.MarkSensitivePaths(resp.UpgradedState, src.AttrSensitivePaths)), resp.Diagnostics
}

// writeObject encodes obj and stores it in the working state.
func (ic *instanceCtx) writeObject(dk addrs.DeposedKey, obj *states.ResourceInstanceObject) hcl.Diagnostics {
	src, err := obj.Encode(ic.res.ty, uint64(ic.res.schema.Version))
	if err != nil {
		return tfdiags.FromError(fmt.Sprintf("Failed to encode %s for the state", ic.w.addr), err)
	}
	ic.setState(dk, src)
	return nil
}

func (ic *instanceCtx) setState(dk addrs.DeposedKey, src *states.ResourceInstanceObjectSrc) {
	if dk == addrs.NotDeposed {
		ic.ws.state.SetResourceInstanceCurrent(ic.w.addr, src, ic.res.provider)
	} else {
		ic.ws.state.SetResourceInstanceDeposed(ic.w.addr, dk, src, ic.res.provider)
	}
	if ic.providerKey != nil && ic.providerKey != addrs.NoKey && src != nil {
		ic.ws.state.SetResourceInstanceProviderKey(ic.w.addr, ic.providerKey)
	}
}

// markSchema marks the schema's sensitive attributes in v.
func (ic *instanceCtx) markSchema(v cty.Value) cty.Value {
	if !ic.res.sensitive || v.IsNull() || !v.IsKnown() {
		return v
	}
	u, pvm := marks.UnmarkDeepWithPaths(v)
	return marks.MarkSensitivePaths(u.MarkWithPaths(pvm), ic.res.schema.Block.SensitivePaths(u))
}

// subjectDiags gives provider diagnostics without a source range the
// resource block's range and names the instance.
func (ic *instanceCtx) subjectDiags(diags hcl.Diagnostics) hcl.Diagnostics {
	out := make(hcl.Diagnostics, len(diags))
	for i, d := range diags {
		c := *d
		if c.Subject == nil && ic.res.block != nil {
			// A diagnostic about an argument points at it, as in
			// Terraform ("on main.tf line 12, in resource ...").
			if p := tfdiags.AttributePath(d); len(p) > 0 {
				c.Subject = rangeForPath(ic.res.block.Config, p)
			}
			if c.Subject == nil {
				c.Subject = ic.res.block.DeclRange.Ptr()
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
	if len(m) == 0 {
		return nil // the usual case; Sorted would allocate even for none
	}
	return slices.Sorted(maps.Keys(m))
}

// evalConfig evaluates the resource body for this instance and returns it
// unmarked, with the marks it carried.
func (ic *instanceCtx) evalConfig() (cty.Value, []cty.PathValueMarks, hcl.Diagnostics) {
	n, w := ic.n, ic.w
	scope := ic.ws.scope(w.mod, n.cfg, &w.rep, nil)
	val, diags := n.evalBody(scope)
	ic.ws.putScope(scope)
	if diags.HasErrors() {
		return cty.NilVal, nil, diags
	}
	u, pvm := marks.UnmarkDeepWithPaths(val)
	pvm, d := ic.ephemeralArguments(pvm)
	if d.HasErrors() {
		return cty.NilVal, nil, append(diags, d...)
	}
	return u, pvm, append(diags, ic.validateConfig(u)...)
}

// ephemeralArguments refuses an ephemeral value anywhere in the resource's
// arguments but in a write-only attribute (whose value is sent to the
// provider and stored nowhere), and returns marks without the Ephemeral
// mark: the planned and stored values hold null for write-only attributes.
// O(marked paths × depth).
func (ic *instanceCtx) ephemeralArguments(pvm []cty.PathValueMarks) ([]cty.PathValueMarks, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	out := pvm[:0:0]
	for _, m := range pvm {
		if _, ok := m.Marks[marks.Ephemeral]; !ok {
			out = append(out, m)
			continue
		}
		if !ic.writeOnlyPath(m.Path) {
			d := &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Ephemeral value in a resource argument",
				Detail: fmt.Sprintf("The argument %s of %s gets an ephemeral value (or one derived from it), but it is not write-only, so the value would be saved in the plan and the state. "+
					"Ephemeral values may go only to write-only arguments here; elsewhere they belong in provider configuration, provisioners, locals and ephemeral variables and outputs. Use ephemeralasnull() to drop them.",
					tfdiags.FormatPath(m.Path), ic.w.addr),
			}
			if ic.res.block != nil {
				d.Subject = rangeForPath(ic.res.block.Config, m.Path)
				if d.Subject == nil {
					d.Subject = ic.res.block.DeclRange.Ptr()
				}
			}
			diags = append(diags, d)
			continue
		}
		rest := cty.ValueMarks{}
		for k := range m.Marks {
			if k != marks.Ephemeral {
				rest[k] = struct{}{}
			}
		}
		if len(rest) > 0 {
			out = append(out, cty.PathValueMarks{Path: m.Path, Marks: rest})
		}
	}
	return out, diags
}

// writeOnlyPath reports whether p is, or is inside, a write-only attribute
// of the resource's schema.
func (ic *instanceCtx) writeOnlyPath(p cty.Path) bool {
	if ic.res.schema == nil || ic.res.schema.Block == nil {
		return false
	}
	for i := 1; i <= len(p); i++ {
		if a := ic.res.schema.Block.AttributeByPath(p[:i]); a != nil && a.WriteOnly {
			return true
		}
	}
	return false
}

// planChange calls PlanResourceChange with the proposed new state and
// checks that the answer has the schema's type.
func (ic *instanceCtx) planChange(prior, cfg cty.Value, priv []byte) (providers.PlanResourceChangeResponse, hcl.Diagnostics) {
	n, addr := ic.n, ic.w.addr
	proposed := objchange.ProposedNew(n.schema.Block, prior, cfg)
	ic.ws.hook(func(h Hook) (HookAction, error) { return h.PreDiff(addr, addrs.NotDeposed, prior, proposed) })
	resp := ic.p.PlanResourceChange(providers.PlanResourceChangeRequest{
		TypeName: n.typ, PriorState: prior, ProposedNewState: proposed, Config: cfg, PriorPrivate: priv,
	})
	diags := ic.subjectDiags(resp.Diagnostics)
	if diags.HasErrors() {
		return resp, diags
	}
	if resp.PlannedState == cty.NilVal || resp.PlannedState.IsNull() {
		return resp, append(diags, tfdiags.Errorf("Provider produced invalid plan",
			"Provider %s planned a null object for %s, which is not being destroyed. This is a bug in the provider.", n.provider.Provider.ForDisplay(), addr))
	}
	if errs := configschema.ConformanceErrors(resp.PlannedState.Type(), n.ty); len(errs) > 0 {
		return resp, append(diags, tfdiags.Errorf("Provider produced invalid plan",
			"Provider %s planned a value of the wrong type for %s: %s. This is a bug in the provider.", n.provider.Provider.ForDisplay(), addr, errs[0]))
	}
	if p := writeOnlyValue(n.schema.Block, resp.PlannedState); p != nil {
		return resp, append(diags, tfdiags.Errorf("Provider produced invalid plan",
			"Provider %s planned a value for the write-only attribute %s of %s, which must be null: a plan never holds write-only values. This is a bug in the provider.", n.provider.Provider.ForDisplay(), tfdiags.FormatPath(p), addr))
	}
	return resp, diags
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

// changedAt reports whether any of paths differs (or is unknown) between
// before and after.
func changedAt(before, after cty.Value, paths []cty.Path) bool {
	for _, p := range paths {
		b, err1 := p.Apply(before)
		a, err2 := p.Apply(after)
		if err1 != nil || err2 != nil {
			if (err1 == nil) != (err2 == nil) {
				return true
			}
			continue
		}
		if eq := b.Equals(a); !eq.IsKnown() || eq.False() {
			return true
		}
	}
	return false
}

func (ic *instanceCtx) declRange() *hcl.Range {
	if ic.res.block == nil {
		return nil
	}
	return ic.res.block.DeclRange.Ptr()
}
