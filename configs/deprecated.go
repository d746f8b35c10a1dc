package configs

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/plankit/plankit/addrs"
)

// decodeDeprecated reads OpenTofu's deprecated argument of a variable or
// output: a constant string telling users what to do instead; an empty
// one is an error, as in OpenTofu.
func decodeDeprecated(attr *hcl.Attribute, what string) (string, hcl.Diagnostics) {
	s, diags := constString(attr.Expr, "deprecated message")
	if !diags.HasErrors() && strings.TrimSpace(s) == "" {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid deprecated message",
			Detail:   fmt.Sprintf("The deprecated argument must not be empty: it tells the users of this %s what to use instead.", what),
			Subject:  attr.Expr.Range().Ptr(),
		})
	}
	return s, diags
}

// deprecationWarnings finds, statically, every use of a deprecated child
// module output (module.NAME.OUTPUT, or the whole module.NAME) and every
// module call argument setting a deprecated variable, in every module of
// the tree, and warns at the use as OpenTofu does. Expressions in
// resource, provider and module bodies are found in native syntax; in
// JSON bodies only count, for_each and module arguments are (JSON needs
// the provider schema to tell expressions apart). O(size of the
// configuration).
func deprecationWarnings(root *Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	root.DeepEach(func(c *Config) {
		deprecated := map[string]map[string]string{} // call → output → message
		for name, child := range c.Children {
			for _, o := range child.Module.Outputs {
				if o.Deprecated != "" {
					if deprecated[name] == nil {
						deprecated[name] = map[string]string{}
					}
					deprecated[name][o.Name] = o.Deprecated
				}
			}
			diags = append(diags, deprecatedArguments(c.Module.ModuleCalls[name], child.Module)...)
		}
		if len(deprecated) == 0 {
			return
		}
		for _, trav := range moduleTraversals(c.Module) {
			diags = append(diags, deprecatedUse(trav, deprecated)...)
		}
	})
	return diags
}

// deprecatedArguments warns at each argument of call that sets a
// deprecated variable of child.
func deprecatedArguments(call *ModuleCall, child *Module) hcl.Diagnostics {
	if call == nil || call.Config == nil {
		return nil
	}
	attrs, _ := call.Config.JustAttributes() // errors are reported by the core
	var diags hcl.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		if v := child.Variables[name]; v != nil && v.Deprecated != "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Variable marked as deprecated by the module author",
				Detail:   fmt.Sprintf("Variable %q of module %q is marked as deprecated with the following message:\n%s", name, call.Name, v.Deprecated),
				Subject:  attrs[name].Expr.Range().Ptr(),
			})
		}
	}
	return diags
}

// deprecatedUse returns the warnings for one traversal made in a module
// whose calls have the deprecated outputs given.
func deprecatedUse(trav hcl.Traversal, deprecated map[string]map[string]string) hcl.Diagnostics {
	ref, diags := addrs.ParseRef(trav)
	if diags.HasErrors() {
		return nil // reported where the expression is evaluated
	}
	var call, output string
	switch s := ref.Subject.(type) {
	case addrs.ModuleCallInstanceOutput:
		call, output = s.Call.Call.Name, s.Name
	case addrs.ModuleCallInstance:
		call = s.Call.Name
	case addrs.ModuleCall:
		call = s.Name
	default:
		return nil
	}
	outs := deprecated[call]
	if output != "" {
		if msg, ok := outs[output]; ok {
			outs = map[string]string{output: msg}
		} else {
			outs = nil
		}
	}
	var out hcl.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(outs)) {
		out = append(out, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Value derived from a deprecated source",
			Detail:   fmt.Sprintf("This value is derived from module.%s.%s, which is deprecated with the following message:\n\n%s", call, name, outs[name]),
			Subject:  trav.SourceRange().Ptr(),
		})
	}
	return out
}

// moduleTraversals lists the absolute traversals the expressions of m
// make, sorted by position. See deprecationWarnings for what is covered.
func moduleTraversals(m *Module) []hcl.Traversal {
	var out []hcl.Traversal
	expr := func(e hcl.Expression) {
		if e != nil {
			out = append(out, e.Variables()...)
		}
	}
	body := func(b hcl.Body) {
		sb, ok := b.(*hclsyntax.Body)
		if !ok {
			return
		}
		_ = hclsyntax.VisitAll(sb, func(n hclsyntax.Node) hcl.Diagnostics {
			if e, ok := n.(*hclsyntax.ScopeTraversalExpr); ok {
				out = append(out, e.Traversal)
			}
			return nil
		})
	}
	for _, l := range m.Locals {
		expr(l.Expr)
	}
	for _, o := range m.Outputs {
		expr(o.Expr)
	}
	for _, rs := range []map[string]*Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for _, r := range rs {
			if _, native := r.Config.(*hclsyntax.Body); native {
				body(r.Config) // the whole block, meta-arguments included
				continue
			}
			expr(r.Count)
			expr(r.ForEach)
		}
	}
	for _, pc := range m.ProviderConfigs {
		body(pc.Config)
	}
	for _, mc := range m.ModuleCalls {
		if _, native := mc.Config.(*hclsyntax.Body); native {
			body(mc.Config)
			continue
		}
		expr(mc.Count)
		expr(mc.ForEach)
		if attrs, diags := mc.Config.JustAttributes(); !diags.HasErrors() {
			for _, a := range attrs {
				expr(a.Expr)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].SourceRange(), out[j].SourceRange()
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
	return out
}
