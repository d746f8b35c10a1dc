package configs

import (
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
)

// Import is an import block: adopt the existing remote object with ID
// into the state at To, as Terraform 1.5+ does. With ForEach, To's
// instance keys and ID may refer to each.key and each.value.
type Import struct {
	// ID is the expression of the remote object's ID (evaluated at plan
	// time; it must be a known string).
	ID hcl.Expression
	// To is the target address as written.
	To hcl.Expression
	// ToResource is To without instance keys: the resource the target
	// belongs to, with its module path.
	ToResource addrs.ConfigResource
	// ForEach is the for_each expression, nil when absent.
	ForEach hcl.Expression
	// ProviderConfigRef is the provider argument, nil when absent: the
	// target then uses its resource block's provider (or the one its type
	// implies).
	ProviderConfigRef *ProviderConfigRef
	DeclRange         hcl.Range

	// to is To as steps: names, literal keys and key expressions
	// (module.m[each.key].aws_instance.x[local.k]).
	to []toStep
	// keyed: the target has an instance key of its own (aws_instance.x[...]).
	keyed bool
}

// toStep is one step of a to address: a name (root or attribute), or an
// instance key, literal (key) or an expression (expr).
type toStep struct {
	name string
	key  cty.Value
	expr hcl.Expression
	rng  hcl.Range
}

var importBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "to", Required: true},
		{Name: "id", Required: true},
		{Name: "for_each"},
		{Name: "provider"},
	},
}

// decodeImportBlock decodes one import block. The target must be a
// managed resource or resource instance address; its instance keys (the
// resource's and its modules') may be expressions.
func decodeImportBlock(block *hcl.Block) (*Import, hcl.Diagnostics) {
	content, diags := block.Body.Content(importBlockSchema)
	imp := &Import{DeclRange: block.DefRange}
	if a, ok := content.Attributes["id"]; ok {
		imp.ID = a.Expr
	}
	if a, ok := content.Attributes["for_each"]; ok {
		imp.ForEach = a.Expr
	}
	if a, ok := content.Attributes["provider"]; ok {
		ref, ds := decodeProviderRef(a.Expr, "provider argument")
		diags = append(diags, ds...)
		imp.ProviderConfigRef = ref
	}
	if a, ok := content.Attributes["to"]; ok {
		imp.To = a.Expr
		diags = append(diags, imp.decodeTo(a.Expr)...)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return imp, diags
}

func importAddrError(expr hcl.Expression, why string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid import address",
		Detail:   "The to argument of an import block must be a managed resource address such as aws_instance.example or aws_instance.example[\"key\"]: " + why + ".",
		Subject:  expr.Range().Ptr(),
	}}
}

// toSteps flattens a to expression into steps. Native syntax may index
// with any expression; anything else must be a static traversal (a JSON
// string, say).
func toSteps(expr hcl.Expression) ([]toStep, bool) {
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		return traversalSteps(e.Traversal)
	case *hclsyntax.RelativeTraversalExpr:
		src, ok := toSteps(e.Source)
		rest, ok2 := traversalSteps(e.Traversal)
		return append(src, rest...), ok && ok2
	case *hclsyntax.IndexExpr:
		src, ok := toSteps(e.Collection)
		if v, d := e.Key.Value(nil); !d.HasErrors() && v.IsWhollyKnown() {
			return append(src, toStep{key: v, rng: e.Key.Range()}), ok // a literal key
		}
		return append(src, toStep{expr: e.Key, rng: e.Key.Range()}), ok
	}
	trav, diags := hcl.AbsTraversalForExpr(expr)
	if diags.HasErrors() {
		return nil, false
	}
	return traversalSteps(trav)
}

func traversalSteps(trav hcl.Traversal) ([]toStep, bool) {
	var out []toStep
	for _, t := range trav {
		switch t := t.(type) {
		case hcl.TraverseRoot:
			out = append(out, toStep{name: t.Name, rng: t.SrcRange})
		case hcl.TraverseAttr:
			out = append(out, toStep{name: t.Name, rng: t.SrcRange})
		case hcl.TraverseIndex:
			out = append(out, toStep{key: t.Key, rng: t.SrcRange})
		default:
			return nil, false
		}
	}
	return out, true
}

// traversal builds the address traversal from the steps, with keys from
// keyOf (called for each key expression, in order).
func (imp *Import) traversal(keyOf func(hcl.Expression) (cty.Value, hcl.Diagnostics)) (hcl.Traversal, hcl.Diagnostics) {
	var trav hcl.Traversal
	var diags hcl.Diagnostics
	for i, s := range imp.to {
		switch {
		case s.name != "" && i == 0:
			trav = append(trav, hcl.TraverseRoot{Name: s.name, SrcRange: s.rng})
		case s.name != "":
			trav = append(trav, hcl.TraverseAttr{Name: s.name, SrcRange: s.rng})
		case s.expr != nil:
			v, d := keyOf(s.expr)
			diags = append(diags, d...)
			trav = append(trav, hcl.TraverseIndex{Key: v, SrcRange: s.rng})
		default:
			trav = append(trav, hcl.TraverseIndex{Key: s.key, SrcRange: s.rng})
		}
	}
	return trav, diags
}

// decodeTo checks the to expression and fills ToResource and the steps.
func (imp *Import) decodeTo(expr hcl.Expression) hcl.Diagnostics {
	steps, ok := toSteps(expr)
	if !ok || len(steps) == 0 || steps[0].name == "" {
		return importAddrError(expr, "only instance keys may be expressions")
	}
	imp.to = steps
	// Parse with a placeholder for each key expression: the module path
	// and resource are static, whatever the keys evaluate to.
	trav, _ := imp.traversal(func(hcl.Expression) (cty.Value, hcl.Diagnostics) { return cty.StringVal("key"), nil })
	t, pdiags := addrs.ParseTarget(trav)
	if pdiags.HasErrors() {
		return importAddrError(expr, strings.TrimSuffix(pdiags[0].Detail, "."))
	}
	var res addrs.AbsResource
	switch sub := t.Subject.(type) {
	case addrs.AbsResource:
		res = sub
	case addrs.AbsResourceInstance:
		res, imp.keyed = sub.ContainingResource(), true
	default:
		return importAddrError(expr, "a module cannot be imported, only its resources")
	}
	if res.Resource.Mode != addrs.ManagedResourceMode {
		kind := "data resource"
		if res.Resource.Mode == addrs.EphemeralResourceMode {
			kind = "ephemeral resource"
		}
		return importAddrError(expr, fmt.Sprintf("%s is a %s, which cannot be imported", res.Config(), kind))
	}
	imp.ToResource = res.Config()
	return nil
}

// Keyed reports whether the target has an instance key of its own.
func (imp *Import) Keyed() bool { return imp.keyed }

// KeyExprs are the instance key expressions of To (nil for a static
// address): what To refers to.
func (imp *Import) KeyExprs() []hcl.Expression {
	var out []hcl.Expression
	for _, s := range imp.to {
		if s.expr != nil {
			out = append(out, s.expr)
		}
	}
	return out
}

// Target evaluates To: keyOf evaluates each key expression (in the root
// module's scope, with each.key/each.value under for_each). An invalid
// key is an error naming its range.
func (imp *Import) Target(keyOf func(hcl.Expression) (cty.Value, hcl.Diagnostics)) (addrs.AbsResourceInstance, hcl.Diagnostics) {
	trav, diags := imp.traversal(func(e hcl.Expression) (cty.Value, hcl.Diagnostics) {
		v, d := keyOf(e)
		if d.HasErrors() {
			return cty.StringVal(""), d
		}
		v, _ = v.UnmarkDeep()
		if _, err := addrs.ParseInstanceKey(v); err != nil {
			return cty.StringVal(""), hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid import address",
				Detail: "An instance key of the import target is invalid: " + err.Error() + ".", Subject: e.Range().Ptr()}}
		}
		return v, nil
	})
	if diags.HasErrors() {
		return addrs.AbsResourceInstance{}, diags
	}
	t, pdiags := addrs.ParseTarget(trav)
	if pdiags.HasErrors() {
		return addrs.AbsResourceInstance{}, importAddrError(imp.To, strings.TrimSuffix(pdiags[0].Detail, "."))
	}
	switch sub := t.Subject.(type) {
	case addrs.AbsResource:
		return sub.Instance(addrs.NoKey), nil
	case addrs.AbsResourceInstance:
		return sub, nil
	}
	return addrs.AbsResourceInstance{}, importAddrError(imp.To, "a module cannot be imported, only its resources")
}

// ProviderConfigAddr returns the provider configuration the import uses
// when it has a provider argument.
func (imp *Import) ProviderConfigAddr() addrs.LocalProviderConfig {
	return imp.ProviderConfigRef.Addr()
}

// importOverrideDiags refuses import blocks in override files, as
// Terraform does: an import has no name an override could match.
func importOverrideDiags(imports []*Import) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, imp := range imports {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Cannot override 'import' blocks",
			Detail:   "Import blocks can appear only in primary files, not in override files. Move this block to a file whose name does not end in _override.tf.",
			Subject:  imp.DeclRange.Ptr(),
		})
	}
	return diags
}

// importProvider is the provider an import block in m needs: its provider
// argument's, else the one its target type implies. (A target with a
// resource block uses that block's, which must be the same.)
func (m *Module) importProvider(imp *Import) addrs.Provider {
	if imp.ProviderConfigRef != nil {
		return m.ProviderForLocalConfig(imp.ProviderConfigAddr())
	}
	return m.ProviderForLocalConfig(addrs.LocalProviderConfig{LocalName: imp.ToResource.Resource.ImpliedProvider()})
}

// importIndex is Module.Import by target resource, built once.
type importIndex struct {
	once sync.Once
	m    map[string][]*Import
}

// ImportsFor returns the import blocks of m whose target is in resource
// addr (nil when none). O(1) after an O(len(m.Import)) first call; safe
// for concurrent use. m.Import must not change after the first call. (A
// Module not made by the loader scans m.Import each time.)
func (m *Module) ImportsFor(addr addrs.ConfigResource) []*Import {
	if len(m.Import) == 0 {
		return nil
	}
	if m.importIdx == nil {
		var out []*Import
		for _, imp := range m.Import {
			if imp.ToResource.Equal(addr) {
				out = append(out, imp)
			}
		}
		return out
	}
	m.importIdx.once.Do(func() {
		m.importIdx.m = map[string][]*Import{}
		for _, imp := range m.Import {
			k := imp.ToResource.String()
			m.importIdx.m[k] = append(m.importIdx.m[k], imp)
		}
	})
	return m.importIdx.m[addr.String()]
}
