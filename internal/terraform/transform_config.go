package terraform

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/terraform/variables"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/states"
)

// buildInput is what the transformers of a builder read.
type buildInput struct {
	config  *configs.Config
	schemas map[addrs.Provider]*providers.GetProviderSchemaResponse
	state   *states.State // nil when there is none (validate)
	targets []addrs.Targetable
	// removed are the configuration's removed blocks (removed.go).
	removed []configs.RemovedStatement

	// apply is the apply walk the destroy nodes work for (apply graphs
	// that are walked; nil otherwise).
	apply *applyWalk

	// configUses is the set of providers the configuration uses, filled
	// by orphanResourceTransformer when it first needs it.
	configUses map[addrs.Provider]bool

	// derived caches attachSchema's results per schema block, so blocks of
	// one type share one decoder spec and one implied type (made per
	// block, they would grow memory with every resource block).
	derived map[providers.Schema]*schemaDerived
}

// schemaDerived is what the nodes of one resource type share.
type schemaDerived struct {
	schema   *providers.Schema // nil when the provider lacks the type
	spec     hcldec.Spec
	fastSpec *fastSpec // spec's attributes for evalBody's fast path
	ty       cty.Type
	// sensitive is set when the schema has sensitive attributes.
	sensitive bool
}

// noSchema is the schemaDerived of a resource whose provider lacks its
// type (or is not loaded): every field zero. Never written.
var noSchema = &schemaDerived{}

// eachModule calls fn for every module of the configuration, root first,
// children by name.
func (b *buildInput) eachModule(fn func(*configs.Config)) { b.config.DeepEach(fn) }

// rootVariableTransformer adds a node per root input variable.
type rootVariableTransformer struct{ in *buildInput }

func (t rootVariableTransformer) Transform(g *Graph) error {
	root := t.in.config
	for _, name := range slices.Sorted(maps.Keys(root.Module.Variables)) {
		g.Add(&nodeVariable{cfg: root, v: root.Module.Variables[name]})
	}
	return nil
}

// localTransformer adds a node per local value of every module.
type localTransformer struct{ in *buildInput }

func (t localTransformer) Transform(g *Graph) error {
	t.in.eachModule(func(c *configs.Config) {
		for _, name := range slices.Sorted(maps.Keys(c.Module.Locals)) {
			g.Add(&nodeLocal{cfg: c, l: c.Module.Locals[name]})
		}
	})
	return nil
}

// outputTransformer adds a node per output value of every module.
type outputTransformer struct{ in *buildInput }

func (t outputTransformer) Transform(g *Graph) error {
	t.in.eachModule(func(c *configs.Config) {
		for _, name := range slices.Sorted(maps.Keys(c.Module.Outputs)) {
			g.Add(&nodeOutput{cfg: c, o: c.Module.Outputs[name]})
		}
	})
	return nil
}

// resourceTransformer adds a node per resource block (mode managed) or data
// block (mode data) of every module; instances come at walk time.
type resourceTransformer struct {
	in   *buildInput
	mode addrs.ResourceMode
	// destroying names the managed resource nodes "ADDR (destroy)", as
	// Terraform's plan-destroy graph does, so the graph and cycle errors
	// say what the nodes plan.
	destroying bool
}

func (t resourceTransformer) Transform(g *Graph) error {
	t.in.eachModule(func(c *configs.Config) {
		set := c.Module.ManagedResources
		switch t.mode {
		case addrs.DataResourceMode:
			set = c.Module.DataResources
		case addrs.EphemeralResourceMode:
			set = c.Module.EphemeralResources
		}
		for _, key := range slices.Sorted(maps.Keys(set)) {
			block := set[key]
			addr := block.Addr().InModule(c.Path)
			n := &nodeResource{name: resourceNodeName(addr, t.destroying), resourceBlock: t.in.resourceBlock(c, block, addr,
				resolveProvider(c, block.ProviderConfigAddr(), block.Provider))}
			if block.ProviderConfigRef == nil || block.ProviderConfigRef.KeyExpr == nil {
				n.passedKey = resolvePassedKey(c, block.ProviderConfigAddr(), block.Provider)
			}
			if m := block.Managed; m != nil && n.schema != nil {
				n.ignore = ignorePaths(n.schema.Block, m.IgnoreChanges, m.IgnoreAllChanges)
				n.cbd = m.CreateBeforeDestroy
			}
			g.Add(n)
		}
	})
	return nil
}

// resourceBlock returns the block of resource addr, configured by block in
// module c (either may be nil), managed by provider configuration pc,
// with the schema-derived fields set when the provider has the type.
func (b *buildInput) resourceBlock(c *configs.Config, block *configs.Resource, addr addrs.ConfigResource, pc addrs.AbsProviderConfig) resourceBlock {
	n := resourceBlock{cfg: c, block: block, typ: addr.Resource.Type, addr: addr, provider: pc, schemaDerived: noSchema}
	b.attachSchema(&n)
	return n
}

// attachSchema sets the schema-derived fields of n.
func (b *buildInput) attachSchema(n *resourceBlock) {
	ps := b.schemas[n.provider.Provider]
	if ps == nil {
		return
	}
	var s providers.Schema
	var ok bool
	switch n.addr.Resource.Mode {
	case addrs.DataResourceMode:
		s, ok = ps.DataSources[n.typ]
	case addrs.EphemeralResourceMode:
		s, ok = ps.EphemeralResourceTypes[n.typ]
	default:
		s, ok = ps.ResourceTypes[n.typ]
	}
	if !ok || s.Block == nil {
		return
	}
	d := b.derived[s]
	if d == nil {
		d = &schemaDerived{schema: &s, spec: s.Block.DecoderSpec(), ty: s.Block.ImpliedType(), sensitive: hasSensitive(s.Block)}
		d.fastSpec = newFastSpec(d.spec)
		if b.derived == nil {
			b.derived = map[providers.Schema]*schemaDerived{}
		}
		b.derived[s] = d
	}
	n.schemaDerived = d
}

// hasSensitive reports whether any attribute of b, however nested (in
// blocks or nested attributes), is sensitive.
func hasSensitive(b *configschema.Block) bool {
	for _, a := range b.Attributes {
		if a.Sensitive || (a.NestedType != nil && hasSensitive(&configschema.Block{Attributes: a.NestedType.Attributes})) {
			return true
		}
	}
	for _, nb := range b.BlockTypes {
		if hasSensitive(&nb.Block) {
			return true
		}
	}
	return false
}

// orphanResourceTransformer adds a node per resource the state has whose
// block is gone from the configuration (or whose module is gone); it plans
// the deletion of every instance. Count and for_each shrinkage is found by
// the resource's own node at walk time.
type orphanResourceTransformer struct {
	in         *buildInput
	destroying bool // as resourceTransformer's
}

func (t orphanResourceTransformer) Transform(g *Graph) error {
	st := t.in.state
	if st == nil {
		return nil
	}
	seen := map[string]bool{}
	for _, mi := range st.ModuleInstances() {
		sm := st.Module(mi)
		c := t.in.config.Descendant(mi.Module())
		for _, rkey := range slices.Sorted(maps.Keys(sm.Resources)) {
			rs := sm.Resources[rkey]
			if c != nil && c.Module.ResourceByAddr(rs.Addr.Resource) != nil {
				continue
			}
			ca := rs.Addr.Config()
			if seen[ca.String()] {
				continue
			}
			seen[ca.String()] = true
			n := &nodeResource{name: resourceNodeName(ca, t.destroying), resourceBlock: t.in.resourceBlock(c, nil, ca, t.orphanProvider(rs.ProviderConfig))}
			n.removed = t.in.removedFor(ca)
			g.Add(n)
		}
	}
	return nil
}

// orphanProvider is the provider configuration that deletes an orphan
// recorded with pc: pc itself, unless the configuration uses not pc's
// provider but its registry twin (an OpenTofu state's
// registry.opentofu.org/hashicorp/null where the configuration implies
// registry.terraform.io/hashicorp/null), in which case the twin, so that
// the configuration's provider block (under whatever local name) and its
// one provider instance serve the orphan too.
func (t orphanResourceTransformer) orphanProvider(pc addrs.AbsProviderConfig) addrs.AbsProviderConfig {
	twin, ok := pc.Provider.RegistryTwin()
	if !ok {
		return pc
	}
	if t.in.configUses == nil {
		t.in.configUses = map[addrs.Provider]bool{}
		for _, p := range t.in.config.ProviderTypes() {
			t.in.configUses[p] = true
		}
	}
	if !t.in.configUses[pc.Provider] && t.in.configUses[twin] {
		pc.Provider = twin
	}
	return pc
}

// moduleCallTransformer adds, per module call, its expansion node and a
// node per input variable of the child module, whose value is the call's
// argument. An argument the child does not declare is an error.
type moduleCallTransformer struct{ in *buildInput }

func (t moduleCallTransformer) Transform(g *Graph) error {
	var diags hcl.Diagnostics
	t.in.eachModule(func(c *configs.Config) {
		if c.Path.IsRoot() {
			return
		}
		call := c.Parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
		g.Add(&nodeModuleExpand{cfg: c, call: call})
		attrs, d := call.Config.JustAttributes()
		diags = append(diags, d...)
		for name, a := range attrs {
			if _, ok := c.Module.Variables[name]; !ok {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported argument",
					Detail:  fmt.Sprintf("An argument named %q is not expected here: module %q declares no such input variable.", name, call.Name),
					Subject: a.NameRange.Ptr()})
			}
		}
		for _, name := range slices.Sorted(maps.Keys(c.Module.Variables)) {
			n := &nodeVariable{cfg: c, v: c.Module.Variables[name]}
			if a, ok := attrs[name]; ok {
				n.expr = a.Expr
			}
			g.Add(n)
		}
	})
	if diags.HasErrors() {
		return diags
	}
	return nil
}

// resolveProvider finds the provider configuration a resource in module c
// uses for local configuration name local: a provider block in c, else one
// passed by the module call's providers map, else (for a default, not
// aliased, configuration) the parent's by inheritance, up to an implied
// empty configuration in the root module.
func resolveProvider(c *configs.Config, local addrs.LocalProviderConfig, typ addrs.Provider) addrs.AbsProviderConfig {
	for {
		if _, ok := c.Module.ProviderConfigs[local.String()]; ok || c.Parent == nil {
			return addrs.AbsProviderConfig{Module: c.Path, Provider: typ, Alias: local.Alias}
		}
		call := c.Parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
		passed := false
		for _, pp := range call.Providers {
			if pp.InChild == local {
				local, passed = pp.InParent, true
				break
			}
		}
		if !passed {
			if local.Alias != "" {
				return addrs.AbsProviderConfig{Module: c.Path, Provider: typ, Alias: local.Alias}
			}
			local = addrs.LocalProviderConfig{LocalName: c.Parent.Module.LocalNameForProvider(typ)}
		}
		c = c.Parent
	}
}

// checkTransformer adds a node per check block of every module.
type checkTransformer struct{ in *buildInput }

func (t checkTransformer) Transform(g *Graph) error {
	t.in.eachModule(func(c *configs.Config) {
		for _, name := range slices.Sorted(maps.Keys(c.Module.Checks)) {
			g.Add(&nodeCheck{cfg: c, c: c.Module.Checks[name]})
		}
	})
	return nil
}

// variableValidationTransformer adds a nodeVariableValidation for every
// variable whose validation rules refer to other objects.
type variableValidationTransformer struct{ in *buildInput }

func (t variableValidationTransformer) Transform(g *Graph) error {
	t.in.eachModule(func(c *configs.Config) {
		for _, name := range slices.Sorted(maps.Keys(c.Module.Variables)) {
			if v := c.Module.Variables[name]; len(v.Validations) > 0 && !variables.SelfOnly(v) {
				g.Add(&nodeVariableValidation{cfg: c, v: v})
			}
		}
	})
	return nil
}
