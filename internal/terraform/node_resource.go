package terraform

import (
	"context"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
)

// nodeResource is a resource, data or ephemeral block of a static module. At walk
// time it expands: for each instance of its module it evaluates count or
// for_each, then refreshes/plans each instance (in parallel, bounded by the
// walk's provider semaphore), plus the instances the state has that the
// expansion no longer includes (shrunk count, removed for_each key, module
// instance gone).
type nodeResource struct {
	resourceBlock
	name string // Name(): the address, "ADDR (destroy)" in a destroy plan
	// ignore are the lifecycle.ignore_changes paths.
	ignore []cty.Path
	// cbd is the effective create_before_destroy (own or from a dependent).
	cbd bool
	// filter, when non-nil, limits the instances processed to those the
	// -target addresses contain.
	filter []addrs.Targetable
	// validateOnce: all instances in a module instance share one
	// configuration, validated once (validateConfig); set by Execute.
	validateOnce bool
	validated    validConfigs
	// refs caches the body's references (evalBody).
	refs bodyRefs
	fast fastBody // attribute-only bodies of many instances (evalBody)
	// What only plan walks use, and what only apply walks use.
	resourcePlanning
	resourceApplying
}

// resourcePlanning is a resource node's state that only plan walks use.
type resourcePlanning struct {
	// pending is set when an instance has a planned action other than
	// no-op (a read deferred to apply included); data sources downstream
	// read it (upstreamEntry.settle). One atomic store per changed
	// instance, no address formatting.
	pending atomic.Bool
	// upstream, for a data source, tells whether something it depends on
	// has a pending change (see pendingUpstreamTransformer).
	upstream *upstreamEntry
	// triggers caches the replace_triggered_by references (triggered).
	triggers triggerRefs
	// planDeps are the resources this one depends on
	// (planDepsTransformer); nil in graphs that do not record them.
	planDeps *depSet
}

// resourceApplying is a resource node's state that only apply walks use.
type resourceApplying struct {
	// stateDeps are the resources this one depends on, recorded with each
	// object in the state (stateDepsTransformer).
	stateDeps []addrs.ConfigResource
	// referenced is set (referenceTransformer) when a node of the graph
	// refers to this resource; the apply walk keeps the instances' values
	// for expressions only then (applyInstance.publish).
	referenced bool
}

// resourceBlock is what every node working on a resource's objects knows
// of the resource: its address and configuration block, the provider
// configuration that manages it and what its schema gives (decoder spec,
// type). A resource node embeds one; the destroy nodes of a resource
// share one.
type resourceBlock struct {
	cfg      *configs.Config   // the module's configuration (nil: module gone)
	block    *configs.Resource // nil for a resource only the state has
	typ      string
	addr     addrs.ConfigResource
	provider addrs.AbsProviderConfig
	// passedKey, when set, selects the provider instance: a module call
	// passed the configuration as NAME.ALIAS[KEY] (provider for_each);
	// see provider_instances.go.
	passedKey *passedProviderKey
	// *schemaDerived is what the schema gives, shared by all the
	// resources of a type (noSchema when the provider lacks the type): one
	// pointer per node instead of a copy of each field.
	*schemaDerived
	// removed is the removed block naming this resource, for one only
	// the state has (nil otherwise; see removed.go).
	removed *configs.RemovedStatement
}

var (
	_ executable    = (*nodeResource)(nil)
	_ referencer    = (*nodeResource)(nil)
	_ referenceable = (*nodeResource)(nil)
)

func (n *nodeResource) Name() string { return n.name }

// resourceNodeName is the name of the node of resource addr: its address,
// and for a managed resource in a destroy plan "ADDR (destroy)".
func resourceNodeName(addr addrs.ConfigResource, destroying bool) string {
	if destroying && addr.Resource.Mode == addrs.ManagedResourceMode {
		return addr.String() + " (destroy)"
	}
	return addr.String()
}

func (n *nodeResource) referenceKeys() []refKey {
	return []refKey{keyIn(n.addr.Module, n.addr.Resource.String())}
}

func (n *nodeResource) references() []refKey {
	if n.block == nil {
		return nil
	}
	mod := n.addr.Module
	keys := exprKeys(mod, n.block.Count, n.block.ForEach)
	if n.block.ProviderConfigRef != nil && n.block.ProviderConfigRef.KeyExpr != nil {
		keys = append(keys, exprKeys(mod, n.block.ProviderConfigRef.KeyExpr)...)
	}
	if n.passedKey != nil {
		keys = append(keys, exprKeys(n.passedKey.call.Parent(), n.passedKey.expr)...)
	}
	keys = append(keys, traversalKeys(mod, n.block.DependsOn)...)
	keys = append(keys, conditionKeys(mod, n.block.Preconditions, n.block.Postconditions)...)
	if n.spec != nil {
		refs, _ := n.bodyReferences()
		keys = append(keys, keysForRefs(mod, refs)...)
	}
	if m := n.block.Managed; m != nil {
		keys = append(keys, exprKeys(mod, m.ReplaceTriggeredBy...)...)
		for _, p := range m.Provisioners {
			if p.When == configs.ProvisionerWhenDestroy {
				continue // self, count and each only (destroyProvisionerDiags)
			}
			attrs, _ := p.Config.JustAttributes()
			for _, a := range attrs {
				keys = append(keys, exprKeys(mod, a.Expr)...)
			}
		}
	}
	if !mod.IsRoot() {
		keys = append(keys, moduleCallKey(mod))
	}
	return append(keys, importReferenceKeys(n)...)
}

func (n *nodeResource) providerAddr() addrs.AbsProviderConfig { return n.provider }

// instanceWork is one instance to process.
type instanceWork struct {
	addr   addrs.AbsResourceInstance
	mod    moduleInst
	rep    repetition
	orphan plans.ResourceInstanceChangeActionReason // non-zero: not in configuration any more
	gone   bool                                     // orphan: delete (true even with ReasonNone in destroy mode)
}

func (n *nodeResource) Execute(ctx context.Context, ws *walkState) hcl.Diagnostics {
	if n.schema == nil {
		return hcl.Diagnostics{n.missingSchemaDiag()}
	}
	// The provider is looked up once per node, not per instance (the
	// lookup formats its address); its node ran before this one.
	p, pdiags := ws.provs.get(n.provider)
	if n.block == nil {
		return runInstances(ctx, ws, workItems(n.orphanedModuleInstances(ws, nil)), func(w instanceWork) hcl.Diagnostics {
			return n.executeInstance(ctx, ws, w, p, pdiags)
		})
	}
	var diags hcl.Diagnostics
	if ws.traits.checkDestroyRefs {
		diags = destroyProvisionerDiags(n.block)
	}
	var work workList
	expanded := map[string]bool{}
	for _, mi := range ws.exp.moduleInstances(n.addr.Module) {
		expanded[mi.key] = true
		diags = append(diags, n.expand(ws, mi, &work)...)
	}
	if ws.traits.orphans {
		work.addItems(n.orphanedModuleInstances(ws, expanded))
	}
	if !diags.HasErrors() {
		diags = append(diags, ws.op.resolveImports(ws, n)...)
	}
	if diags.HasErrors() {
		return diags
	}
	n.validateOnce = ws.traits.validateOnce && work.len() > 1 && n.sameConfigForAll()
	return append(diags, runInstances(ctx, ws, work, func(w instanceWork) hcl.Diagnostics {
		return n.executeInstance(ctx, ws, w, p, pdiags)
	})...)
}

// expand evaluates count/for_each in module instance mi and adds the
// instances to process there, orphans included, to work. Without -target
// the configured instances are added as one generated segment: O(1)
// memory per instance beyond the expansion's keys.
func (n *nodeResource) expand(ws *walkState, mi moduleInst, work *workList) hcl.Diagnostics {
	scope := ws.scope(mi, n.cfg, nil, nil)
	x, diags := evalExpansion(scope, n.block.Count, n.block.ForEach, ws.traits.unknowns)
	ws.putScope(scope)
	if !diags.HasErrors() {
		diags = append(diags, ws.checkExpansion(x, n.block.Count, n.block.ForEach, n.addr.Resource.String())...)
	}
	if diags.HasErrors() {
		return diags
	}
	if !x.known {
		x = expansion{mode: expUnknown, keys: []addrs.InstanceKey{addrs.NoKey}, known: true}
	}
	abs := n.addr.Resource.Absolute(mi.addr)
	ws.values.expand(abs, x, n.ty)
	n.expandChecks(ws, mi, abs, x)
	if n.filter == nil {
		work.addExpansion(abs, mi, x)
	} else {
		var items []instanceWork
		for i := range x.len() {
			k := x.key(i)
			if inst := abs.Instance(k); n.targeted(inst) {
				items = append(items, instanceWork{addr: inst, mod: mi, rep: x.rep(k)})
			}
		}
		work.addItems(items)
	}
	if !ws.traits.orphans {
		return diags
	}
	if rs := ws.prevState.Resource(abs); rs != nil {
		var orphans []instanceWork
		for _, k := range rs.SortedKeys() {
			if x.has(k) || !n.targeted(abs.Instance(k)) {
				continue
			}
			orphans = append(orphans, instanceWork{addr: abs.Instance(k), mod: mi, orphan: orphanReason(x, k), gone: true})
		}
		work.addItems(orphans)
	}
	return diags
}

// orphanReason says why key k of a resource is no longer in expansion x.
func orphanReason(x expansion, k addrs.InstanceKey) plans.ResourceInstanceChangeActionReason {
	switch k.(type) {
	case addrs.IntKey:
		if x.mode == expCount {
			return plans.ReasonDeleteBecauseCountIndex
		}
	case addrs.StringKey:
		if x.mode == expForEach {
			return plans.ReasonDeleteBecauseEachKey
		}
	}
	return plans.ReasonDeleteBecauseWrongRepetition
}

// orphanedModuleInstances returns the state's instances of this resource
// in module instances the configuration no longer has (every module
// instance when the resource block itself is gone).
func (n *nodeResource) orphanedModuleInstances(ws *walkState, expanded map[string]bool) []instanceWork {
	var work []instanceWork
	reason := plans.ReasonDeleteBecauseNoModule
	if n.block == nil && n.cfg != nil {
		reason = plans.ReasonDeleteBecauseNoResourceConfig
	}
	for _, m := range ws.stateModules(n.addr.Module) {
		key := m.String()
		if expanded[key] {
			continue
		}
		rs := ws.prevState.Resource(n.addr.Resource.Absolute(m))
		if rs == nil {
			continue
		}
		mi := moduleInst{addr: m, key: key}
		for _, k := range rs.SortedKeys() {
			if inst := rs.Addr.Instance(k); n.targeted(inst) {
				work = append(work, instanceWork{addr: inst, mod: mi, orphan: reason, gone: true})
			}
		}
	}
	return work
}

func (n *nodeResource) targeted(inst addrs.AbsResourceInstance) bool {
	if n.filter == nil {
		return true
	}
	for _, t := range n.filter {
		if addrs.TargetContains(t, inst) {
			return true
		}
	}
	return false
}

func (n *resourceBlock) missingSchemaDiag() *hcl.Diagnostic {
	what := "resource type"
	switch n.addr.Resource.Mode {
	case addrs.DataResourceMode:
		what = "data source"
	case addrs.EphemeralResourceMode:
		what = "ephemeral resource type"
	}
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid " + what,
		Detail:   "The provider " + n.provider.Provider.ForDisplay() + " does not support " + what + " \"" + n.typ + "\".",
	}
	if n.block != nil {
		d.Subject = n.block.TypeRange.Ptr()
	}
	return d
}

// executeInstance processes one instance under a provider slot with
// provider p (pdiags: the node's lookup of p failed).
func (n *nodeResource) executeInstance(ctx context.Context, ws *walkState, w instanceWork, p providers.Interface, pdiags hcl.Diagnostics) hcl.Diagnostics {
	if !ws.acquire(ctx) {
		ws.notStarted.Add(1) // cancelled: reported once for the whole walk
		return nil
	}
	defer ws.release()
	ic := &instanceCtx{ws: ws, n: n, res: &n.resourceBlock, p: p, w: w}
	if n.hasProviderKey() || w.gone || n.block == nil {
		ip, key, d := n.instanceProvider(ws, w)
		if d.HasErrors() {
			return d
		}
		if ip != nil {
			ic.p, ic.providerKey, pdiags = ip, key, nil
		}
	}
	if pdiags.HasErrors() {
		return pdiags
	}
	switch n.addr.Resource.Mode {
	case addrs.DataResourceMode:
		return ws.op.dataInstance(ctx, ic)
	case addrs.EphemeralResourceMode:
		return ws.op.ephemeralInstance(ctx, ic)
	}
	return ws.op.managedInstance(ctx, ic)
}
