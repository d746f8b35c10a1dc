package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

// EvalContext builds the hcl evaluation context for refs: the variables
// var, local, module, data, count, each, path, terraform, self and one per
// referenced managed resource type, each holding only what refs name, plus
// the function table. Every subject is fetched from Data once however often
// it is referenced. Cost: O(len(refs)) Data calls and map entries; the size
// of the configuration does not matter.
func (s *Scope) EvalContext(refs []*addrs.Reference) (*hcl.EvalContext, hcl.Diagnostics) {
	// The builder's maps are made when first needed: most bodies refer
	// to one or two roots (count, var), and a resource instance's body is
	// evaluated once per instance.
	b := contextBuilder{scope: s}
	for _, ref := range refs {
		if ref != nil {
			b.add(ref.Subject, ref.SourceRange)
		}
	}
	return &hcl.EvalContext{Variables: b.finish(), Functions: s.Functions()}, b.diags
}

// contextBuilder collects the values of referenced subjects grouped by the
// hcl variable they live under.
type contextBuilder struct {
	scope *Scope
	// managed[type][name] and data[type][name] hold whole resources.
	managed, data map[string]map[string]cty.Value
	ephemeral     map[string]map[string]cty.Value
	// flat[root][name] holds var, local, module, count, each, path,
	// terraform.
	flat map[string]map[string]cty.Value
	// fetched records subjects already asked of Data. Every Referenceable
	// is a comparable value, so the address itself is the key and no
	// UniqueKey string is built per reference.
	fetched   map[addrs.Referenceable]bool
	variables map[string]cty.Value
	diags     hcl.Diagnostics
}

// add fetches the value subj stands for and files it under its root.
func (b *contextBuilder) add(subj addrs.Referenceable, rng hcl.Range) {
	// Instances and outputs are read through their container, which hcl
	// then indexes and traverses.
	switch a := subj.(type) {
	case addrs.ResourceInstance:
		b.add(a.Resource, rng)
		return
	case addrs.ModuleCallInstance:
		b.add(a.Call, rng)
		return
	case addrs.ModuleCallInstanceOutput:
		b.add(a.Call.Call, rng)
		return
	}
	if subj == addrs.Self {
		b.addSelf(rng)
		return
	}
	if b.fetched[subj] {
		return
	}
	d := b.scope.Data
	var val cty.Value
	var diags hcl.Diagnostics
	switch a := subj.(type) {
	case addrs.InputVariable:
		val, diags = d.GetInputVariable(a, rng)
		b.put("var", a.Name, val)
	case addrs.LocalValue:
		val, diags = d.GetLocalValue(a, rng)
		b.put("local", a.Name, val)
	case addrs.ModuleCall:
		val, diags = d.GetModule(a, rng)
		b.put("module", a.Name, val)
	case addrs.CountAttr:
		val, diags = d.GetCountAttr(a, rng)
		b.put("count", a.Name, val)
	case addrs.ForEachAttr:
		val, diags = d.GetForEachAttr(a, rng)
		b.put("each", a.Name, val)
	case addrs.PathAttr:
		val, diags = d.GetPathAttr(a, rng)
		b.put("path", a.Name, val)
	case addrs.TerraformAttr:
		val, diags = d.GetTerraformAttr(a, rng)
		b.put("terraform", a.Name, val)
	case addrs.Resource:
		val, diags = d.GetResource(a, rng)
		byType := b.managed
		switch {
		case a.Mode == addrs.DataResourceMode:
			if b.data == nil {
				b.data = map[string]map[string]cty.Value{}
			}
			byType = b.data
		case a.Mode == addrs.EphemeralResourceMode:
			if b.ephemeral == nil {
				b.ephemeral = map[string]map[string]cty.Value{}
			}
			byType = b.ephemeral
		case byType == nil:
			b.managed = map[string]map[string]cty.Value{}
			byType = b.managed
		}
		if byType[a.Type] == nil {
			byType[a.Type] = map[string]cty.Value{}
		}
		byType[a.Type][a.Name] = val
	default:
		b.diags = append(b.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported reference",
			Detail:   fmt.Sprintf("%s cannot be used in this expression.", subj),
			Subject:  rng.Ptr(),
		})
		return
	}
	if b.fetched == nil {
		b.fetched = map[addrs.Referenceable]bool{}
	}
	b.fetched[subj] = true
	b.diags = append(b.diags, diags...)
}

func (b *contextBuilder) put(root, name string, val cty.Value) {
	if b.flat == nil {
		b.flat = map[string]map[string]cty.Value{}
	}
	if b.flat[root] == nil {
		b.flat[root] = map[string]cty.Value{}
	}
	b.flat[root][name] = val
}

// addSelf sets "self" to the value of the scope's SelfAddr: the resource
// instance a provisioner or connection block belongs to.
func (b *contextBuilder) addSelf(rng hcl.Range) {
	if _, done := b.variables["self"]; done {
		return
	}
	if b.variables == nil {
		b.variables = map[string]cty.Value{}
	}
	var res addrs.Resource
	var key addrs.InstanceKey
	switch a := b.scope.SelfAddr.(type) {
	case addrs.ResourceInstance:
		res, key = a.Resource, a.Key
	case addrs.Resource:
		res = a
	default:
		b.diags = append(b.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  `Invalid "self" reference`,
			Detail:   `The "self" object is available only inside provisioner, connection and postcondition blocks, where it refers to the resource instance being configured or checked. Elsewhere, refer to the resource by its address.`,
			Subject:  rng.Ptr(),
		})
		b.variables["self"] = cty.DynamicVal
		return
	}
	val, diags := b.scope.Data.GetResource(res, rng)
	b.diags = append(b.diags, diags...)
	if key != addrs.NoKey && !diags.HasErrors() {
		inst, idxDiags := hcl.Index(val, key.Value(), rng.Ptr())
		b.diags = append(b.diags, idxDiags...)
		val = inst
		if idxDiags.HasErrors() {
			val = cty.DynamicVal
		}
	}
	b.variables["self"] = val
}

// finish turns the collected maps into the context's variables. Object
// construction sorts attribute names, so the result does not depend on
// reference order.
func (b *contextBuilder) finish() map[string]cty.Value {
	if b.variables == nil {
		b.variables = make(map[string]cty.Value, len(b.flat)+len(b.managed)+1)
	}
	for root, vals := range b.flat {
		b.variables[root] = cty.ObjectVal(vals)
	}
	for typ, byName := range b.managed {
		b.variables[typ] = cty.ObjectVal(byName)
	}
	if len(b.data) > 0 {
		types := make(map[string]cty.Value, len(b.data))
		for typ, byName := range b.data {
			types[typ] = cty.ObjectVal(byName)
		}
		b.variables["data"] = cty.ObjectVal(types)
	}
	if len(b.ephemeral) > 0 {
		types := make(map[string]cty.Value, len(b.ephemeral))
		for typ, byName := range b.ephemeral {
			types[typ] = cty.ObjectVal(byName)
		}
		b.variables["ephemeral"] = cty.ObjectVal(types)
	}
	return b.variables
}
