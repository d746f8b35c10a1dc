package terraform

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/internal/refactoring"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// planMoves is Terraform's refactoring step, before the plan walk: the
// moved blocks (and implied moves) applied to a copy of the previous run
// state. The walk plans from moved; the plan records prev as its
// PrevRunState and each moved instance's old address as PrevRunAddr.
type planMoves struct {
	prev    *states.State
	moved   *states.State
	stmts   []refactoring.Statement
	results refactoring.Results
}

// applyMoves runs the refactoring step for a plan of prev with opts.
func applyMoves(config *configs.Config, prev *states.State, opts *PlanOpts) (*planMoves, hcl.Diagnostics) {
	pm := &planMoves{prev: prev, moved: prev}
	pm.stmts = refactoring.FindStatements(config, prev)
	if len(pm.stmts) == 0 {
		return pm, nil // nothing to move: the walk plans from prev itself
	}
	// ApplyMoves only rearranges objects, never edits one: a snapshot
	// (the state's structure copied, its immutable objects shared) keeps
	// prev as it was without a second copy of every object.
	pm.moved = prev.Snapshot()
	pm.results = refactoring.ApplyMoves(pm.stmts, pm.moved)
	if d := refactoring.TargetsDiag(pm.results, opts.Targets); d != nil {
		return pm, hcl.Diagnostics{d}
	}
	return pm, nil
}

// validate checks the statements once the walk has expanded the
// configuration. Invalid moves make the plan meaningless (it started from
// the wrong prior state), so their errors replace the walk's, as in
// Terraform; blocked moves are a warning when nothing else failed.
func (pm *planMoves) validate(ws *walkState, walkDiags hcl.Diagnostics) (hcl.Diagnostics, bool) {
	if len(pm.stmts) == 0 {
		return walkDiags, false
	}
	d := refactoring.Validate(pm.stmts, ws.config, declaredObjects{ws})
	if d.HasErrors() {
		return d, true
	}
	walkDiags = append(walkDiags, d...)
	if w := refactoring.BlockedWarning(pm.results.Blocked); w != nil && !walkDiags.HasErrors() {
		walkDiags = append(walkDiags, w)
	}
	return walkDiags, false
}

// record sets PrevRunAddr on the planned changes and drift of moved
// instances; a moved object whose new address has no resource block is
// deleted "because it was moved to an address not in configuration".
func (pm *planMoves) record(p *plans.Plan, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse) {
	if pm == nil {
		return
	}
	p.PrevRunState = pm.prev
	if len(pm.results.Moves) == 0 {
		return
	}
	defer pm.driftForMoves(p, schemas)
	for _, list := range [][]*plans.ResourceInstanceChange{p.Changes.Resources, p.DriftedResources} {
		for _, rc := range list {
			m, ok := pm.results.Moves[rc.Addr.String()]
			if !ok {
				continue
			}
			rc.PrevRunAddr = m.From
			if rc.Action == plans.Delete && rc.ActionReason == plans.ReasonDeleteBecauseNoResourceConfig {
				rc.ActionReason = plans.ReasonDeleteBecauseNoMoveTarget
			}
		}
	}
}

// movedObjects adapts a moved instance's objects to their new address
// before it is planned: the resource is recorded under this block's
// provider configuration, and an object of another resource type is
// converted by the target provider (MoveResourceState), as Terraform does
// since 1.8. Instances that did not move are returned unchanged, at the
// cost of one map lookup when the configuration moved anything.
func (pi *planInstance) movedObjects(cur *states.ResourceInstanceObjectSrc, deposed map[addrs.DeposedKey]*states.ResourceInstanceObjectSrc) (*states.ResourceInstanceObjectSrc, map[addrs.DeposedKey]*states.ResourceInstanceObjectSrc, hcl.Diagnostics) {
	pm := pi.pw.moves
	if pm == nil || len(pm.results.Moves) == 0 || (cur == nil && len(deposed) == 0) {
		return cur, deposed, nil
	}
	m, ok := pm.results.Moves[pi.w.addr.String()]
	if !ok {
		return cur, deposed, nil
	}
	if m.From.Resource.Resource.Type == pi.w.addr.Resource.Resource.Type {
		if cur != nil {
			pi.setState(addrs.NotDeposed, cur)
		}
		for _, dk := range sortedDeposed(deposed) {
			pi.setState(dk, deposed[dk])
		}
		return cur, deposed, nil
	}
	srcProvider := addrs.Provider{}
	if rs := pm.prev.Resource(m.From.ContainingResource()); rs != nil {
		srcProvider = rs.ProviderConfig.Provider
	}
	var diags hcl.Diagnostics
	conv := func(dk addrs.DeposedKey, src *states.ResourceInstanceObjectSrc) *states.ResourceInstanceObjectSrc {
		out, d := pi.moveAcrossTypes(m, srcProvider, dk, src)
		diags = append(diags, d...)
		return out
	}
	if cur != nil {
		cur = conv(addrs.NotDeposed, cur)
	}
	if len(deposed) > 0 {
		nd := make(map[addrs.DeposedKey]*states.ResourceInstanceObjectSrc, len(deposed))
		for _, dk := range sortedDeposed(deposed) {
			if o := conv(dk, deposed[dk]); o != nil {
				nd[dk] = o
			}
		}
		deposed = nd
	}
	return cur, deposed, diags
}

// moveAcrossTypes converts one stored object of m.From's type into this
// instance's type through the target provider and stores the result in
// the working state.
func (pi *planInstance) moveAcrossTypes(m refactoring.Move, srcProvider addrs.Provider, dk addrs.DeposedKey, src *states.ResourceInstanceObjectSrc) (*states.ResourceInstanceObjectSrc, hcl.Diagnostics) {
	resp := pi.p.MoveResourceState(providers.MoveResourceStateRequest{
		SourceProviderAddress: srcProvider.String(), SourceTypeName: m.From.Resource.Resource.Type,
		SourceSchemaVersion: int64(src.SchemaVersion), SourceStateJSON: src.AttrsJSON, SourcePrivate: src.Private,
		TargetTypeName: pi.res.typ,
	})
	fail := func(why string) hcl.Diagnostics {
		return hcl.Diagnostics{&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported move across resource types",
			Detail: fmt.Sprintf("The moved block at %s:%d moves %s to %s, a resource of another type. The provider %s must convert the object (MoveResourceState), and it did not: %s\n\nRemove this moved block and replace or import the object instead, or use a provider version that supports moving %s objects to %s.",
				m.Stmt.DeclRange.Filename, m.Stmt.DeclRange.Start.Line, m.From, m.To, pi.res.provider.Provider.ForDisplay(), why,
				m.From.Resource.Resource.Type, pi.res.typ),
			Subject: m.Stmt.DeclRange.Ptr()}}
	}
	if resp.Diagnostics.HasErrors() {
		return nil, fail(tfdiags.Err(resp.Diagnostics).Error())
	}
	v := resp.TargetState
	if v == cty.NilVal || v.IsNull() || len(v.Type().TestConformance(pi.res.ty)) > 0 {
		return nil, fail("it returned a null object or one of the wrong type (a bug in the provider)")
	}
	obj := &states.ResourceInstanceObject{Value: v, Private: resp.TargetPrivate, Status: src.Status,
		Dependencies: src.Dependencies, CreateBeforeDestroy: src.CreateBeforeDestroy}
	out, err := obj.Encode(pi.res.ty, uint64(pi.res.schema.Version))
	if err != nil {
		return nil, tfdiags.FromError("Failed to encode "+pi.w.addr.String()+" for the state", err)
	}
	pi.setState(dk, out)
	return out, resp.Diagnostics
}

// declaredObjects answers refactoring.Declared from the walk's expansion
// of module calls and resources.
type declaredObjects struct{ ws *walkState }

func (d declaredObjects) ModuleInstances(path addrs.Module) []addrs.ModuleInstance {
	var out []addrs.ModuleInstance
	for _, mi := range d.ws.exp.moduleInstances(path) {
		out = append(out, mi.addr)
	}
	return out
}

func (d declaredObjects) HasModuleInstance(mi addrs.ModuleInstance) bool {
	if mi.IsRoot() {
		return true
	}
	insts, _ := d.ws.exp.children(mi.Parent().String(), mi[len(mi)-1].Name)
	for _, c := range insts {
		if c.addr.Equal(mi) {
			return true
		}
	}
	return false
}

func (d declaredObjects) HasModuleCall(parent addrs.ModuleInstance, name string) bool {
	if !d.HasModuleInstance(parent) {
		return false
	}
	c := d.ws.config.Descendant(parent.Module())
	return c != nil && c.Module.ModuleCalls[name] != nil
}

func (d declaredObjects) HasResource(r addrs.AbsResource) bool {
	if !d.HasModuleInstance(r.Module) {
		return false
	}
	c := d.ws.config.Descendant(r.Module.Module())
	return c != nil && c.Module.ResourceByAddr(r.Resource) != nil
}

func (d declaredObjects) HasResourceInstance(r addrs.AbsResourceInstance) bool {
	if !d.HasResource(r.ContainingResource()) {
		return false
	}
	d.ws.values.mu.RLock()
	rv := d.ws.values.m[r.ContainingResource().String()]
	d.ws.values.mu.RUnlock()
	if rv == nil {
		return false
	}
	rv.mu.Lock()
	defer rv.mu.Unlock()
	switch k := r.Resource.Key.(type) {
	case addrs.IntKey:
		return rv.mode == expCount && int(k) >= 0 && int(k) < len(rv.byIdx)
	case addrs.StringKey:
		return rv.mode == expForEach && slices.Contains(rv.keys, r.Resource.Key)
	}
	return rv.mode == expSingle
}

// recordMoves tells the state writer, before any other operation, about
// every object the plan moved: the apply starts from the plan's prior
// state, which has them at their new addresses, and a pure move (no other
// change) must reach the stored state too. Both addresses are recorded,
// so a journal replayed after a crash has the object at its new address
// and nothing at the old one.
func (aw *applyWalk) recordMoves(plan *plans.Plan) {
	done := map[string]bool{}
	for _, rc := range plan.Changes.Resources {
		if rc.Moved() && !done[rc.Addr.String()] {
			done[rc.Addr.String()] = true
			aw.changed(rc.PrevRunAddr)
			aw.changed(rc.Addr)
		}
	}
}

// driftForMoves adds a no-op drift entry for each object that moved
// without the refresh finding a change, as Terraform does: a refresh-only
// plan shows and applies moves through its drift, and show -json lists
// them in resource_drift. Objects moved to another resource type are left
// out (their old and new values are not comparable), also as Terraform.
func (pm *planMoves) driftForMoves(p *plans.Plan, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse) {
	have := map[string]bool{}
	for _, rc := range p.DriftedResources {
		if rc.DeposedKey == addrs.NotDeposed {
			have[rc.Addr.String()] = true
		}
	}
	// The planned change's prior value is the refreshed object: reuse it
	// instead of decoding the state again (only a refresh-only plan has
	// no changes to take it from).
	planned := make(map[string]*plans.ResourceInstanceChange, len(pm.results.Moves))
	for _, rc := range p.Changes.Resources {
		if rc.DeposedKey == addrs.NotDeposed && rc.Moved() {
			planned[rc.Addr.String()] = rc
		}
	}
	added := false
	for _, m := range pm.results.Sorted() {
		if have[m.To.String()] || m.From.Resource.Resource.Type != m.To.Resource.Resource.Type {
			continue
		}
		rs := p.PriorState.Resource(m.To.ContainingResource())
		ri := rs.Instance(m.To.Resource.Key)
		if ri == nil || ri.Current == nil {
			continue
		}
		if rc := planned[m.To.String()]; rc != nil && rc.Before != cty.NilVal && !rc.Before.IsNull() {
			p.DriftedResources = append(p.DriftedResources, &plans.ResourceInstanceChange{
				Addr: m.To, PrevRunAddr: m.From, ProviderAddr: rs.ProviderConfig,
				Change: plans.Change{Action: plans.NoOp, Before: rc.Before, After: rc.Before,
					BeforeSensitivePaths: rc.BeforeSensitivePaths, AfterSensitivePaths: rc.BeforeSensitivePaths},
			})
			added = true
			continue
		}
		ps := schemas[rs.ProviderConfig.Provider]
		if ps == nil {
			continue
		}
		schema, ok := ps.ResourceTypes[m.To.Resource.Resource.Type]
		if !ok {
			continue
		}
		obj, err := ri.Current.Decode(schema.Block.ImpliedType())
		if err != nil {
			continue
		}
		v, paths := marks.SensitivePaths(obj.Value)
		p.DriftedResources = append(p.DriftedResources, &plans.ResourceInstanceChange{
			Addr: m.To, PrevRunAddr: m.From, ProviderAddr: rs.ProviderConfig,
			Change: plans.Change{Action: plans.NoOp, Before: v, After: v, BeforeSensitivePaths: paths, AfterSensitivePaths: paths},
		})
		added = true
	}
	if added {
		ch := &plans.Changes{Resources: p.DriftedResources}
		ch.Sort()
		p.DriftedResources = ch.Resources
	}
}
