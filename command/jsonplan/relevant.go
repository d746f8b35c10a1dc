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
	return newRelevanceIndex(config).attributes(changes)
}

// relevanceIndex is what relevantAttributes needs of a configuration,
// without the configuration: the references of every object that can
// be followed (resource blocks, outputs, local values, the arguments of
// module calls given to input variables) and of every condition, as
// steps. Made once, it answers for any changes; plan -out makes it
// while the plan is made, so that the configuration can be dropped
// right after. Objects without references take no room.
type relevanceIndex struct {
	// objects holds the steps of each object by its key (relevanceKey).
	objects map[string][]relevanceStep
	// conditions are the steps of every condition, always taken.
	conditions []relevanceStep
}

// relevanceStep is one reference: an attribute to record (attr set, with
// its sort key) and, when follow is set, an object whose references are
// followed in turn (each object once).
type relevanceStep struct {
	key    string
	attr   *resourceAttr
	follow string
}

// relevanceKey names an object of the index: its kind ("res", "out",
// "local", "var"), module and name.
func relevanceKey(kind string, mod addrs.Module, name string) string {
	return kind + "|" + mod.String() + "|" + name
}

// newRelevanceIndex indexes every module of config. O(size of the
// configuration).
func newRelevanceIndex(config *configs.Config) *relevanceIndex {
	x := &relevanceIndex{objects: map[string][]relevanceStep{}}
	add := func(key string, steps []relevanceStep) {
		if len(steps) > 0 {
			x.objects[key] = steps
		}
	}
	config.DeepEach(func(c *configs.Config) {
		m := c.Module
		for _, rs := range []map[string]*configs.Resource{m.ManagedResources, m.DataResources} {
			for _, rc := range rs {
				if steps := resourceSteps(c, rc); len(steps) > 0 { // most blocks refer to nothing
					x.objects[relevanceKey("res", c.Path, rc.Addr().String())] = steps
				}
			}
		}
		for name, o := range m.Outputs {
			if o.Expr != nil {
				add(relevanceKey("out", c.Path, name), traversalSteps(c, o.Expr.Variables()))
			}
		}
		for name, l := range m.Locals {
			add(relevanceKey("local", c.Path, name), traversalSteps(c, l.Expr.Variables()))
		}
		if c.Parent != nil {
			call := c.Parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
			if attrs, diags := call.Config.JustAttributes(); !diags.HasErrors() {
				for name, a := range attrs {
					add(relevanceKey("var", c.Path, name), traversalSteps(c.Parent, a.Expr.Variables()))
				}
			}
		}
		x.conditions = append(x.conditions, conditionSteps(c)...)
	})
	return x
}

// attributes takes the steps of every changed resource and changed root
// output, and of every condition, each object once, and returns the
// attributes recorded, sorted. O(steps taken + changes).
func (x *relevanceIndex) attributes(changes *plans.Changes) []resourceAttr {
	seen := map[string]bool{}
	attrs := map[string]resourceAttr{}
	var take func(steps []relevanceStep)
	follow := func(key string) {
		if steps, ok := x.objects[key]; ok && !seen[key] {
			seen[key] = true
			take(steps)
		}
	}
	take = func(steps []relevanceStep) {
		for _, st := range steps {
			if st.attr != nil {
				attrs[st.key] = *st.attr
			}
			if st.follow != "" {
				follow(st.follow)
			}
		}
	}
	for _, rc := range changes.Resources {
		if rc.Action != plans.NoOp {
			follow(relevanceKey("res", rc.Addr.Module.Module(), rc.Addr.Resource.Resource.String()))
		}
	}
	for _, oc := range changes.Outputs {
		if oc.Action != plans.NoOp && oc.Addr.Module.IsRoot() {
			follow(relevanceKey("out", nil, oc.Addr.OutputValue.Name))
		}
	}
	take(x.conditions)
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]resourceAttr, 0, len(keys))
	for _, k := range keys {
		out = append(out, attrs[k])
	}
	return out
}

// resourceSteps are the references of resource block rc of module c:
// its arguments and nested blocks (meta-arguments left out), count and
// for_each.
func resourceSteps(c *configs.Config, rc *configs.Resource) []relevanceStep {
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
	return traversalSteps(c, travs)
}

// traversalSteps are the steps of references made in module c: a
// resource's attribute is recorded and the resource followed; a local
// value, an input variable (to its module call's argument) and a module
// output are followed; a whole module call follows all its outputs.
func traversalSteps(c *configs.Config, travs []hcl.Traversal) []relevanceStep {
	var out []relevanceStep
	for _, trav := range travs {
		ref, diags := addrs.ParseRef(trav)
		if diags.HasErrors() {
			continue
		}
		switch s := ref.Subject.(type) {
		case addrs.Resource:
			out = append(out, attrStep(c.Path, s, ref.Remaining))
		case addrs.ResourceInstance:
			out = append(out, attrStep(c.Path, s.Resource, ref.Remaining))
		case addrs.LocalValue:
			out = append(out, relevanceStep{follow: relevanceKey("local", c.Path, s.Name)})
		case addrs.InputVariable:
			out = append(out, relevanceStep{follow: relevanceKey("var", c.Path, s.Name)})
		case addrs.ModuleCallInstanceOutput:
			out = append(out, relevanceStep{follow: relevanceKey("out", c.Path.Child(s.Call.Call.Name), s.Name)})
		case addrs.ModuleCall:
			out = append(out, moduleOutputSteps(c, s.Name)...)
		case addrs.ModuleCallInstance:
			out = append(out, moduleOutputSteps(c, s.Call.Name)...)
		}
	}
	return out
}

// moduleOutputSteps follow every output of module call name of c.
func moduleOutputSteps(c *configs.Config, name string) []relevanceStep {
	child := c.Children[name]
	if child == nil {
		return nil
	}
	var out []relevanceStep
	for oname := range child.Module.Outputs {
		out = append(out, relevanceStep{follow: relevanceKey("out", child.Path, oname)})
	}
	return out
}

// attrStep records resource r of module mod with the attribute path the
// remaining traversal gives (attributePath), and follows the resource's
// own configuration.
func attrStep(mod addrs.Module, r addrs.Resource, rest hcl.Traversal) relevanceStep {
	path := attributePath(rest)
	res := r.InModule(mod).String()
	key, _ := json.Marshal([]any{res, path})
	return relevanceStep{key: string(key), attr: &resourceAttr{Resource: res, Attribute: path}, follow: relevanceKey("res", mod, r.String())}
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
		if !resourceMeta[name] && !isLiteral(attr.Expr) {
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

// attributePath is the attribute path a traversal's steps after a
// resource give, up to its first step that is not a name or a literal
// key.
func attributePath(rest hcl.Traversal) []any {
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
	return path
}

// isLiteral reports whether e is a literal or a quoted string without
// interpolation, which refer to nothing: the commonest argument, whose
// walk for references is skipped.
func isLiteral(e hclsyntax.Expression) bool {
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		return true
	case *hclsyntax.TemplateExpr:
		for _, p := range e.Parts {
			if _, ok := p.(*hclsyntax.LiteralValueExpr); !ok {
				return false
			}
		}
		return true
	}
	return false
}

// conditionSteps are the references of every precondition,
// postcondition and check assertion of module c.
func conditionSteps(c *configs.Config) []relevanceStep {
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
	var out []relevanceStep
	for _, r := range rules {
		out = append(out, traversalSteps(c, r.Condition.Variables())...)
		out = append(out, traversalSteps(c, r.ErrorMessage.Variables())...)
	}
	return out
}
