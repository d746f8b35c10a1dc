package jsonplan

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// resourceAttr is one entry of relevant_attributes: a resource instance
// and an attribute path in it.
type resourceAttr = plans.RelevantAttribute

// RelevantAttributes is relevant_attributes of plan p of config, for
// plans.Plan.RelevantAttributes.
func RelevantAttributes(config *configs.Config, p *plans.Plan) []plans.RelevantAttribute {
	return relevantAttributes(config, p)
}

// relevantAttributes finds, as OpenTofu and Terraform do for
// relevant_attributes, the resource attributes that contribute to the
// plan's changes (relevanceIndex.attributes says how).
// O(references followed + changes).
func relevantAttributes(config *configs.Config, p *plans.Plan) []resourceAttr {
	if p != nil && p.RelevantKnown {
		// Sorted by resource as OpenTofu lists them (a Terraform or
		// OpenTofu plan file records them in another order; plankit's
		// own are in this one already).
		if slices.IsSortedFunc(p.RelevantAttributes, compareRelevantResource) {
			return p.RelevantAttributes
		}
		out := slices.Clone(p.RelevantAttributes)
		slices.SortStableFunc(out, compareRelevantResource)
		return out
	}
	if config == nil || p == nil {
		return nil
	}
	return newRelevanceIndex(config, p.ProviderSchemas).attributes(p)
}

// relevanceIndex is what relevantAttributes reads of a configuration:
// the configuration and the schemas of its resources, whose arguments
// are read for references only when a change reaches them.
type relevanceIndex struct {
	config  *configs.Config
	schemas map[addrs.Provider]*providers.GetProviderSchemaResponse
	// bodyRefs caches the references of a resource block's arguments
	// (narrowed by the steps after it) by module path, resource and
	// steps: every instance of the resource makes the same ones.
	bodyRefs map[string][]*addrs.Reference
}

func newRelevanceIndex(config *configs.Config, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse) *relevanceIndex {
	return &relevanceIndex{config: config, schemas: schemas, bodyRefs: map[string][]*addrs.Reference{}}
}

// relRef is a reference made in a module instance (mod), or, for
// count.* and each.*, in a resource instance of it (res set).
type relRef struct {
	mod addrs.ModuleInstance
	res *addrs.AbsResourceInstance
	ref *addrs.Reference
}

// key identifies a reference for the walk: where it is made, what kind
// of object it names and how it is written.
func (r relRef) key() string {
	where := r.mod.String()
	if r.res != nil {
		where = r.res.String()
	}
	return where + "|" + subjectKind(r.ref.Subject) + "|" + r.ref.Subject.String() + traversalString(r.ref.Remaining)
}

func subjectKind(s addrs.Referenceable) string {
	switch s.(type) {
	case addrs.Resource:
		return "r"
	case addrs.ResourceInstance:
		return "ri"
	case addrs.InputVariable:
		return "v"
	case addrs.LocalValue:
		return "l"
	case addrs.ModuleCall:
		return "m"
	case addrs.ModuleCallInstance:
		return "mi"
	case addrs.ModuleCallInstanceOutput:
		return "mo"
	case addrs.CountAttr, addrs.ForEachAttr:
		return "e"
	}
	return "?"
}

// traversalString writes the steps after a reference's subject.
func traversalString(t hcl.Traversal) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			k, _ := json.Marshal(ctyKey(s.Key))
			b.WriteString("[" + string(k) + "]")
		}
	}
	return b.String()
}

// ctyKey is an index key as a JSON value: a string or a number.
func ctyKey(v cty.Value) any {
	switch {
	case !v.IsKnown() || v.IsNull():
		return nil
	case v.Type() == cty.String:
		return v.AsString()
	case v.Type() == cty.Number:
		if i, acc := v.AsBigFloat().Int64(); acc == 0 {
			return i
		}
		f, _ := v.AsBigFloat().Float64()
		return f
	}
	return nil
}

// attributes returns the resource attributes contributing to p's
// changes, as OpenTofu finds them: start from the references of every
// changed resource instance's arguments and of every changed output
// (root outputs, and, outside a destroy plan, the outputs of every
// module instance, which a plan always records as new) and, in a destroy
// plan, of every data source instance the state holds, then follow
// each reference once: an input variable to its module call's argument,
// a local value to its expression, a module output (or a whole module
// call or instance: all its outputs) to its expression in that module
// instance, count.* and each.* to the resource's count or for_each, and
// a resource to its arguments (to just the argument a reference names
// after it, none for an attribute the configuration does not set).
// Every reference to a resource is an entry: the resource instance
// (the module instance it is made in, with the resource's key where
// the reference gives one) and the path written after it. Sorted by
// resource, then path. O(references followed + changes).
func (x *relevanceIndex) attributes(p *plans.Plan) []resourceAttr {
	t := x.traversal()
	return t.finish(p)
}

// relevanceTraversal is attributes' traversal, which can be fed the
// plan's changes one at a time while the plan is being made (feed), and
// finished with the whole plan (finish). What it finds does not depend
// on the order it is fed: each reference is followed once, and the
// entries are sorted at the end.
type relevanceTraversal struct {
	x       *relevanceIndex
	seen    map[string]bool
	pending []relRef
	found   map[string]resourceAttr
	// fed is every resource instance fed before finish (the changes of
	// its current and deposed objects make the same references).
	fed map[string]bool
}

func (x *relevanceIndex) traversal() *relevanceTraversal {
	return &relevanceTraversal{x: x, seen: map[string]bool{}, found: map[string]resourceAttr{}, fed: map[string]bool{}}
}

func (t *relevanceTraversal) push(refs []relRef) {
	for _, r := range refs {
		if k := r.key(); !t.seen[k] {
			t.seen[k] = true
			t.pending = append(t.pending, r)
		}
	}
}

// drain follows every pending reference, and the references they lead to.
func (t *relevanceTraversal) drain() {
	for len(t.pending) > 0 {
		r := t.pending[len(t.pending)-1]
		t.pending = t.pending[:len(t.pending)-1]
		if ra, ok := r.resourceAttr(); ok {
			k, _ := json.Marshal([]any{ra.Resource, ra.Attribute})
			t.found[string(k)] = ra
		}
		t.push(t.x.follow(r))
	}
}

// feed adds the references of a resource instance whose plan changes it
// (an action other than NoOp), and follows them.
func (t *relevanceTraversal) feed(addr addrs.AbsResourceInstance) {
	k := addr.String()
	if t.fed[k] {
		return
	}
	t.fed[k] = true
	t.push(t.x.resourceRefs(addr.Module, addr.Resource, nil))
	t.drain()
}

// finish adds what p's changes, outputs and (destroy plan) state add to
// what was fed, and returns the entries. A traversal fed an instance
// that p does not change (the plan changed its mind after the feed)
// starts again from p alone.
func (t *relevanceTraversal) finish(p *plans.Plan) []resourceAttr {
	changes := p.Changes
	if changes == nil {
		changes = plans.NewChanges()
	}
	if len(t.fed) > 0 {
		changed := make(map[string]bool, len(changes.Resources))
		for _, rc := range changes.Resources {
			if rc.Action != plans.NoOp {
				changed[rc.Addr.String()] = true
			}
		}
		for k := range t.fed {
			if !changed[k] {
				return t.x.attributes(p)
			}
		}
	}
	for _, rc := range changes.Resources {
		if rc.Action != plans.NoOp {
			t.feed(rc.Addr)
		}
	}
	for _, oc := range changes.Outputs {
		if oc.Action != plans.NoOp && oc.Addr.Module.IsRoot() {
			t.push(t.x.outputRefs(addrs.RootModuleInstance, oc.Addr.OutputValue.Name))
		}
	}
	if p.UIMode == plans.DestroyMode && p.PriorState != nil {
		// A destroy plan deletes the data sources' state too (changes
		// show -json leaves out, and this plan does not record).
		for _, mi := range p.PriorState.ModuleInstances() {
			m := p.PriorState.Module(mi)
			for _, k := range sortedKeys(m.Resources) {
				rs := m.Resources[k]
				if rs.Addr.Resource.Mode != addrs.DataResourceMode {
					continue
				}
				for key := range rs.Instances {
					t.push(t.x.resourceRefs(mi, rs.Addr.Resource.Instance(key), nil))
				}
			}
		}
	}
	if p.UIMode != plans.DestroyMode {
		for _, mi := range moduleInstances(p) {
			c := t.x.config.Descendant(mi.Module())
			if c == nil {
				continue
			}
			for _, name := range sortedKeys(c.Module.Outputs) {
				if !isNullLiteral(c.Module.Outputs[name].Expr) {
					t.push(t.x.outputRefs(mi, name))
				}
			}
		}
	}
	t.drain()
	keys := sortedKeys(t.found)
	out := make([]resourceAttr, 0, len(keys))
	for _, k := range keys {
		out = append(out, t.found[k])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Resource < out[j].Resource })
	return out
}

// resourceAttr is the entry of a reference to a resource.
func (r relRef) resourceAttr() (resourceAttr, bool) {
	var inst addrs.AbsResourceInstance
	switch s := r.ref.Subject.(type) {
	case addrs.Resource:
		inst = s.Instance(addrs.NoKey).Absolute(r.mod)
	case addrs.ResourceInstance:
		inst = s.Absolute(r.mod)
	default:
		return resourceAttr{}, false
	}
	path := []any{}
	for _, step := range r.ref.Remaining {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			path = append(path, s.Name)
		case hcl.TraverseIndex:
			path = append(path, ctyKey(s.Key))
		}
	}
	return resourceAttr{Resource: inst.String(), Attribute: path}, true
}

// follow returns the references the object r names makes.
func (x *relevanceIndex) follow(r relRef) []relRef {
	switch s := r.ref.Subject.(type) {
	case addrs.InputVariable:
		if r.mod.IsRoot() {
			return nil
		}
		parent, step := r.mod.Parent(), r.mod[len(r.mod)-1]
		pc := x.config.Descendant(parent.Module())
		if pc == nil || pc.Module.ModuleCalls[step.Name] == nil {
			return nil
		}
		content, _, _ := pc.Module.ModuleCalls[step.Name].Config.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: s.Name}}})
		if a := content.Attributes[s.Name]; a != nil {
			return exprRefs(parent, nil, a.Expr)
		}
	case addrs.LocalValue:
		if c := x.config.Descendant(r.mod.Module()); c != nil && c.Module.Locals[s.Name] != nil {
			return exprRefs(r.mod, nil, c.Module.Locals[s.Name].Expr)
		}
	case addrs.ModuleCallInstanceOutput:
		return x.outputRefs(r.mod.Child(s.Call.Call.Name, s.Call.Key), s.Name)
	case addrs.ModuleCallInstance:
		return x.moduleRefs(r.mod.Child(s.Call.Name, s.Key))
	case addrs.ModuleCall:
		return x.moduleRefs(r.mod.Child(s.Name, addrs.NoKey))
	case addrs.CountAttr, addrs.ForEachAttr:
		if r.res == nil {
			return nil
		}
		c := x.config.Descendant(r.res.Module.Module())
		if c == nil {
			return nil
		}
		if rc := c.Module.ResourceByAddr(r.res.Resource.Resource); rc != nil {
			if rc.ForEach != nil {
				return exprRefs(r.res.Module, nil, rc.ForEach)
			}
			return exprRefs(r.res.Module, nil, rc.Count)
		}
	case addrs.Resource:
		return x.resourceRefs(r.mod, s.Instance(addrs.NoKey), r.ref.Remaining)
	case addrs.ResourceInstance:
		return x.resourceRefs(r.mod, s, r.ref.Remaining)
	}
	return nil
}

// outputRefs are the references of output name's expression in module
// instance mi.
func (x *relevanceIndex) outputRefs(mi addrs.ModuleInstance, name string) []relRef {
	c := x.config.Descendant(mi.Module())
	if c == nil || c.Module.Outputs[name] == nil {
		return nil
	}
	return exprRefs(mi, nil, c.Module.Outputs[name].Expr)
}

// moduleRefs are the references of every output of module instance mi.
func (x *relevanceIndex) moduleRefs(mi addrs.ModuleInstance) []relRef {
	c := x.config.Descendant(mi.Module())
	if c == nil {
		return nil
	}
	var out []relRef
	for _, name := range sortedKeys(c.Module.Outputs) {
		out = append(out, exprRefs(mi, nil, c.Module.Outputs[name].Expr)...)
	}
	return out
}

// resourceRefs are the references the arguments of resource instance ri
// of module instance mi make, narrowed by rest, the steps a reference
// wrote after the resource: an argument's name takes that argument's
// references only (an attribute the schema has but the configuration
// does not set: none), a nested block type's name its blocks', a single
// nested block narrowed again by the next step (a list, set or map of
// blocks is not: all its blocks' references, where OpenTofu would narrow
// by the index or key too). A resource whose provider's schema is not
// known gives none, as in OpenTofu.
func (x *relevanceIndex) resourceRefs(mi addrs.ModuleInstance, ri addrs.ResourceInstance, rest hcl.Traversal) []relRef {
	key := mi.Module().String() + "|" + ri.Resource.String() + traversalString(rest)
	refs, ok := x.bodyRefs[key]
	if !ok {
		refs = x.resourceBodyRefs(mi.Module(), ri.Resource, rest)
		x.bodyRefs[key] = refs
	}
	at := ri.Absolute(mi)
	return absolute(mi, &at, refs)
}

// resourceBodyRefs are resourceRefs' references, made in the module at
// path mod.
func (x *relevanceIndex) resourceBodyRefs(mod addrs.Module, res addrs.Resource, rest hcl.Traversal) []*addrs.Reference {
	c := x.config.Descendant(mod)
	if c == nil {
		return nil
	}
	rc := c.Module.ResourceByAddr(res)
	if rc == nil {
		return nil
	}
	schema := providers.ResourceSchema(x.schemas, rc.Provider, res)
	if schema == nil {
		return nil
	}
	body := rc.Config
	for _, step := range rest {
		var name string
		switch s := step.(type) {
		case hcl.TraverseAttr:
			name = s.Name
		case hcl.TraverseIndex:
			if s.Key.Type() != cty.String || !s.Key.IsKnown() || s.Key.IsNull() {
				return nil
			}
			name = s.Key.AsString()
		default:
			return nil
		}
		if schema.Attributes[name] != nil {
			content, _, _ := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: name}}})
			if a := content.Attributes[name]; a != nil {
				refs, _ := lang.ReferencesInExpr(a.Expr)
				return refs
			}
			return nil
		}
		bt := schema.BlockTypes[name]
		if bt == nil {
			return nil
		}
		if bt.Nesting != configschema.NestingSingle && bt.Nesting != configschema.NestingGroup {
			return blockRefs(body, name, bt)
		}
		blocks := blocksOf(body, name)
		if len(blocks) != 1 || blocks[0].Type == "dynamic" {
			return blockRefs(body, name, bt)
		}
		body, schema = blocks[0].Body, &bt.Block
	}
	if refs, ok := flatBodyRefs(body, schema); ok {
		return refs
	}
	refs, _ := lang.ReferencesInBlock(body, schema.DecoderSpec())
	return refs
}

// flatBodyRefs are the references of a native-syntax body with no nested
// blocks, read from its arguments without building the schema's decoder
// spec: what lang.ReferencesInBlock gives for it, at a fraction of the
// cost (every changed resource of a large plan is read). ok is false for
// any other body.
func flatBodyRefs(body hcl.Body, schema *configschema.Block) ([]*addrs.Reference, bool) {
	sb, isSyntax := body.(*hclsyntax.Body)
	if !isSyntax || len(sb.Blocks) > 0 {
		return nil, false
	}
	var refs []*addrs.Reference
	for name, a := range sb.Attributes {
		if schema.Attributes[name] == nil || lang.Static(a.Expr) {
			continue
		}
		r, _ := lang.ReferencesInExpr(a.Expr)
		refs = append(refs, r...)
	}
	return refs, true
}

// blockRefs are the references of the nested blocks of type bt in body
// (dynamic ones included: their for_each and labels, and their content
// without the iterator).
func blockRefs(body hcl.Body, typ string, bt *configschema.NestedBlock) []*addrs.Reference {
	only := &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{typ: bt}}
	refs, _ := lang.ReferencesInBlock(body, only.DecoderSpec())
	return refs
}

// blocksOf returns the blocks of type typ in body and the dynamic blocks
// that make them.
func blocksOf(body hcl.Body, typ string) []*hcl.Block {
	content, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: typ}, {Type: "dynamic", LabelNames: []string{"type"}},
	}})
	var out []*hcl.Block
	for _, b := range content.Blocks {
		if b.Type == typ || (len(b.Labels) == 1 && b.Labels[0] == typ) {
			out = append(out, b)
		}
	}
	return out
}

// exprRefs are the references expr makes in module instance mi (count.*
// and each.* in resource instance at, when it is set).
func exprRefs(mi addrs.ModuleInstance, at *addrs.AbsResourceInstance, expr hcl.Expression) []relRef {
	refs, _ := lang.ReferencesInExpr(expr)
	return absolute(mi, at, refs)
}

// absolute places refs made in module instance mi: count.* and each.*
// in resource instance at (nowhere, in a module call's or output's
// expression), every other reference in mi.
func absolute(mi addrs.ModuleInstance, at *addrs.AbsResourceInstance, refs []*addrs.Reference) []relRef {
	out := make([]relRef, 0, len(refs))
	for _, r := range refs {
		rr := relRef{mod: mi, ref: r}
		switch r.Subject.(type) {
		case addrs.CountAttr, addrs.ForEachAttr:
			rr.res = at
		}
		out = append(out, rr)
	}
	return out
}

// moduleInstances are the module instances (the root left out) that p
// shows the configuration has: those holding, or holding a module
// instance holding, a change other than a deletion, or, in a
// refresh-only plan, which plans no changes, an object of the refreshed
// state; in order.
func moduleInstances(p *plans.Plan) []addrs.ModuleInstance {
	set := map[string]addrs.ModuleInstance{}
	add := func(mi addrs.ModuleInstance) {
		for ; !mi.IsRoot(); mi = mi.Parent() {
			set[mi.String()] = mi
		}
	}
	if p.UIMode == plans.RefreshOnlyMode && p.PriorState != nil {
		for _, mi := range p.PriorState.ModuleInstances() {
			if len(p.PriorState.Module(mi).Resources) > 0 {
				add(mi)
			}
		}
	} else if p.Changes != nil {
		for _, rc := range p.Changes.Resources {
			if rc.Action != plans.Delete && rc.Action != plans.Forget {
				add(rc.Addr.Module)
			}
		}
	}
	out := make([]addrs.ModuleInstance, 0, len(set))
	for _, k := range sortedKeys(set) {
		out = append(out, set[k])
	}
	return out
}

// isNullLiteral reports whether e is the literal null, whose output a
// plan records as unchanged.
func isNullLiteral(e hcl.Expression) bool {
	if l, ok := e.(*hclsyntax.LiteralValueExpr); ok {
		return l.Val.IsNull()
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func compareRelevantResource(a, b plans.RelevantAttribute) int {
	return strings.Compare(a.Resource, b.Resource)
}
