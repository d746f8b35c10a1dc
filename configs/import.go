package configs

import (
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/plankit/plankit/addrs"
)

// Import is an import block: adopt the existing remote object with ID
// into the state at To, as Terraform 1.5+ does. With ForEach, To's
// instance key and ID may refer to each.key and each.value.
type Import struct {
	// ID is the expression of the remote object's ID (evaluated at plan
	// time; it must be a known string).
	ID hcl.Expression
	// To is the target address as written.
	To hcl.Expression
	// ToResource is To without its instance key: the resource the target
	// belongs to (module steps included, their keys in ToModule).
	ToResource addrs.ConfigResource
	// ToModule is the module instance of the target (static keys only).
	ToModule addrs.ModuleInstance
	// ToKey is the target's instance key when it is written literally
	// (addrs.NoKey when To has no key); nil when ToKeyExpr holds it.
	ToKey addrs.InstanceKey
	// ToKeyExpr is the target's instance key expression when it is not a
	// literal (aws_instance.x[each.key]); nil otherwise.
	ToKeyExpr hcl.Expression
	// ForEach is the for_each expression, nil when absent.
	ForEach hcl.Expression
	// ProviderConfigRef is the provider argument, nil when absent: the
	// target then uses its resource block's provider (or the one its type
	// implies).
	ProviderConfigRef *ProviderConfigRef
	DeclRange         hcl.Range
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
// managed resource or resource instance address; only its instance key
// may be an expression.
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

// decodeTo fills ToResource, ToModule and ToKey or ToKeyExpr from the
// to expression: a static address (module.m.aws_instance.x["a"]) or one
// whose last index is an expression (aws_instance.x[each.key]).
func (imp *Import) decodeTo(expr hcl.Expression) hcl.Diagnostics {
	bad := func(why string) hcl.Diagnostics {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid import address",
			Detail:   "The to argument of an import block must be a managed resource address such as aws_instance.example or aws_instance.example[\"key\"]: " + why + ".",
			Subject:  expr.Range().Ptr(),
		}}
	}
	var keyExpr hcl.Expression
	if ix, ok := expr.(*hclsyntax.IndexExpr); ok {
		if _, static := hcl.AbsTraversalForExpr(expr); static.HasErrors() {
			expr, keyExpr = ix.Collection, ix.Key
		}
	}
	trav, tdiags := hcl.AbsTraversalForExpr(expr)
	if tdiags.HasErrors() {
		return bad("only the instance key may be an expression")
	}
	t, pdiags := addrs.ParseTarget(trav)
	if pdiags.HasErrors() {
		return bad(pdiags[0].Detail[:len(pdiags[0].Detail)-1])
	}
	var res addrs.AbsResource
	switch sub := t.Subject.(type) {
	case addrs.AbsResource:
		res, imp.ToKey = sub, addrs.NoKey
	case addrs.AbsResourceInstance:
		if keyExpr != nil {
			return bad("the address has two instance keys")
		}
		res, imp.ToKey = sub.ContainingResource(), sub.Resource.Key
	default:
		return bad("a module cannot be imported, only its resources")
	}
	if res.Resource.Mode != addrs.ManagedResourceMode {
		return bad(fmt.Sprintf("%s is a data resource, which cannot be imported", res))
	}
	if keyExpr != nil {
		imp.ToKey, imp.ToKeyExpr = nil, keyExpr
	}
	imp.ToModule = res.Module
	imp.ToResource = addrs.ConfigResource{Module: res.Module.Module(), Resource: res.Resource}
	return nil
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
