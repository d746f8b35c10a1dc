package jsonplan

import (
	"encoding/json"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
)

// resourceAttr is one entry of relevant_attributes: a resource (static
// module path, no instance keys) and an attribute path in it.
type resourceAttr struct {
	Resource  string `json:"resource"`
	Attribute []any  `json:"attribute"`
}

// relevantAttributes finds, as Terraform does for relevant_attributes,
// the resource attributes that contribute to the plan's changes: the
// attributes referred to by every changed resource's configuration and
// every changed root output's expression, followed transitively through
// local values, input variables (to the module call's argument), module
// outputs and the referred resources' own configurations, plus the
// attributes every custom condition and check assertion refers to (they
// are checked again whatever changes). Terraform
// uses it to tell drift that matters from drift that does not.
// O(size of the configuration).
func relevantAttributes(config *configs.Config, changes *plans.Changes) []resourceAttr {
	if config == nil || changes == nil {
		return nil
	}
	a := &relevance{config: config, seen: map[string]bool{}, attrs: map[string]resourceAttr{}}
	for _, rc := range changes.Resources {
		if rc.Action == plans.NoOp {
			continue
		}
		a.resource(rc.Addr.Module.Module(), rc.Addr.Resource.Resource)
	}
	for _, oc := range changes.Outputs {
		if oc.Action == plans.NoOp || !oc.Addr.Module.IsRoot() {
			continue
		}
		a.output(nil, oc.Addr.OutputValue.Name)
	}
	config.DeepEach(a.conditions)
	keys := make([]string, 0, len(a.attrs))
	for k := range a.attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]resourceAttr, 0, len(keys))
	for _, k := range keys {
		out = append(out, a.attrs[k])
	}
	return out
}

// relevance is the state of one relevantAttributes walk: seen holds the
// objects already followed (each once, so cycles end).
type relevance struct {
	config *configs.Config
	seen   map[string]bool
	attrs  map[string]resourceAttr
}

func (a *relevance) once(key string) bool {
	if a.seen[key] {
		return false
	}
	a.seen[key] = true
	return true
}

// resource follows the references of resource r's block in module mod.
func (a *relevance) resource(mod addrs.Module, r addrs.Resource) {
	c := a.config.Descendant(mod)
	if c == nil || !a.once("res|"+mod.String()+"|"+r.String()) {
		return
	}
	rc := c.Module.ResourceByAddr(r)
	if rc == nil {
		return
	}
	var travs []hcl.Traversal
	if sb, ok := rc.Config.(*hclsyntax.Body); ok {
		travs = bodyTraversals(sb)
	} else if attrs, diags := rc.Config.JustAttributes(); !diags.HasErrors() {
		for _, at := range attrs {
			travs = append(travs, at.Expr.Variables()...)
		}
	}
	for _, e := range []hcl.Expression{rc.Count, rc.ForEach} {
		if e != nil {
			travs = append(travs, e.Variables()...)
		}
	}
	a.traversals(c, travs)
}

// output follows the expression of output name of module mod.
func (a *relevance) output(mod addrs.Module, name string) {
	c := a.config.Descendant(mod)
	if c == nil || !a.once("out|"+mod.String()+"|"+name) {
		return
	}
	if o := c.Module.Outputs[name]; o != nil && o.Expr != nil {
		a.traversals(c, o.Expr.Variables())
	}
}

// traversals records and follows references made in module c.
func (a *relevance) traversals(c *configs.Config, travs []hcl.Traversal) {
	for _, trav := range travs {
		ref, diags := addrs.ParseRef(trav)
		if diags.HasErrors() {
			continue
		}
		switch s := ref.Subject.(type) {
		case addrs.Resource:
			a.attr(c.Path, s, ref.Remaining)
		case addrs.ResourceInstance:
			a.attr(c.Path, s.Resource, ref.Remaining)
		case addrs.LocalValue:
			if l := c.Module.Locals[s.Name]; l != nil && a.once("local|"+c.Path.String()+"|"+s.Name) {
				a.traversals(c, l.Expr.Variables())
			}
		case addrs.InputVariable:
			if c.Parent != nil && a.once("var|"+c.Path.String()+"|"+s.Name) {
				call := c.Parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
				if attrs, diags := call.Config.JustAttributes(); !diags.HasErrors() && attrs[s.Name] != nil {
					a.traversals(c.Parent, attrs[s.Name].Expr.Variables())
				}
			}
		case addrs.ModuleCallInstanceOutput:
			a.output(c.Path.Child(s.Call.Call.Name), s.Name)
		case addrs.ModuleCall:
			a.moduleOutputs(c.Path.Child(s.Name))
		case addrs.ModuleCallInstance:
			a.moduleOutputs(c.Path.Child(s.Call.Name))
		}
	}
}

func (a *relevance) moduleOutputs(mod addrs.Module) {
	if child := a.config.Descendant(mod); child != nil {
		for name := range child.Module.Outputs {
			a.output(mod, name)
		}
	}
}

// attr records resource r of module mod with the attribute path the
// remaining traversal gives (up to its first step that is not a name or
// a literal key), then follows the resource's own configuration.
func (a *relevance) attr(mod addrs.Module, r addrs.Resource, rest hcl.Traversal) {
	path := []any{}
steps:
	for _, step := range rest {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			path = append(path, s.Name)
		case hcl.TraverseIndex:
			switch {
			case s.Key.Type() == cty.String:
				path = append(path, s.Key.AsString())
			case s.Key.Type() == cty.Number:
				n, _ := s.Key.AsBigFloat().Int64()
				path = append(path, n)
			default:
				break steps
			}
		default:
			break steps
		}
	}
	res := r.InModule(mod).String()
	key, _ := json.Marshal([]any{res, path})
	a.attrs[string(key)] = resourceAttr{Resource: res, Attribute: path}
	a.resource(mod, r)
}

// resourceMeta are the parts of a resource block that are not its
// arguments (count and for_each are followed separately).
var resourceMeta = map[string]bool{
	"count": true, "for_each": true, "provider": true, "depends_on": true,
	"lifecycle": true, "provisioner": true, "connection": true,
}

// bodyTraversals lists every absolute traversal in a native-syntax
// resource body's arguments and nested blocks, meta-arguments left out.
func bodyTraversals(b *hclsyntax.Body) []hcl.Traversal {
	var out []hcl.Traversal
	visit := func(n hclsyntax.Node) hcl.Diagnostics {
		if e, ok := n.(*hclsyntax.ScopeTraversalExpr); ok {
			out = append(out, e.Traversal)
		}
		return nil
	}
	for name, attr := range b.Attributes {
		if !resourceMeta[name] {
			_ = hclsyntax.VisitAll(attr.Expr, visit)
		}
	}
	for _, blk := range b.Blocks {
		if !resourceMeta[blk.Type] {
			_ = hclsyntax.VisitAll(blk.Body, visit)
		}
	}
	return out
}

// conditions follows the references of every precondition, postcondition
// and check assertion of module c.
func (a *relevance) conditions(c *configs.Config) {
	var rules []*configs.CheckRule
	for _, rs := range []map[string]*configs.Resource{c.Module.ManagedResources, c.Module.DataResources} {
		for _, r := range rs {
			rules = append(rules, r.Preconditions...)
			rules = append(rules, r.Postconditions...)
		}
	}
	for _, o := range c.Module.Outputs {
		rules = append(rules, o.Preconditions...)
	}
	for _, ch := range c.Module.Checks {
		rules = append(rules, ch.Asserts...)
	}
	for _, r := range rules {
		a.traversals(c, r.Condition.Variables())
		a.traversals(c, r.ErrorMessage.Variables())
	}
}
