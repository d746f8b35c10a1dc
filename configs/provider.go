package configs

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/plankit/plankit/addrs"
)

// Provider is a provider block: a configuration of a provider under its
// local name, optionally aliased.
type Provider struct {
	Name       string
	NameRange  hcl.Range
	Alias      string
	AliasRange *hcl.Range
	Config     hcl.Body // the provider's own arguments (alias and version removed)
	// ForEach is OpenTofu's for_each: one provider instance per key, each
	// configured with each.key and each.value (nil when absent).
	ForEach   hcl.Expression
	DeclRange hcl.Range
}

// Addr returns the local address of the configuration: NAME or NAME.ALIAS.
func (p *Provider) Addr() addrs.LocalProviderConfig {
	return addrs.LocalProviderConfig{LocalName: p.Name, Alias: p.Alias}
}

// ProviderConfigRef is the value of a resource's provider meta-argument:
// a local name and optional alias.
type ProviderConfigRef struct {
	Name       string
	NameRange  hcl.Range
	Alias      string
	AliasRange *hcl.Range
	// KeyExpr selects one instance of a provider configuration with
	// for_each (NAME.ALIAS[KEY], OpenTofu); nil for a plain reference.
	KeyExpr hcl.Expression
}

// Addr returns the reference as a local provider configuration address.
func (r *ProviderConfigRef) Addr() addrs.LocalProviderConfig {
	return addrs.LocalProviderConfig{LocalName: r.Name, Alias: r.Alias}
}

var providerBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "alias"},
		{Name: "version"},
		// Reserved meta-argument names.
		{Name: "count"}, {Name: "depends_on"}, {Name: "for_each"}, {Name: "source"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "_"}},
}

func decodeProviderBlock(block *hcl.Block) (*Provider, hcl.Diagnostics) {
	p := &Provider{Name: block.Labels[0], NameRange: labelRange(block, 0), DeclRange: block.DefRange}
	diags := checkName(p.Name, "provider local name", p.NameRange)
	content, config, ds := block.Body.PartialContent(providerBlockSchema)
	diags = append(diags, ds...)
	p.Config = config
	if attr, ok := content.Attributes["alias"]; ok {
		alias, ds := constString(attr.Expr, "provider alias")
		diags = append(diags, ds...)
		p.Alias = alias
		p.AliasRange = attr.Expr.Range().Ptr()
		if !ds.HasErrors() {
			diags = append(diags, checkName(p.Alias, "provider alias", attr.Expr.Range())...)
		}
	}
	if attr, ok := content.Attributes["version"]; ok {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Version constraints inside provider configuration blocks are deprecated",
			Detail:   "Move this version constraint to the terraform block's required_providers entry for this provider; plankit ignores it here.",
			Subject:  attr.NameRange.Ptr(),
		})
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		p.ForEach = attr.Expr
		if p.Alias == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Provider for_each without an alias",
				Detail:   "A provider configuration with for_each must have an alias, so that resources can refer to its instances as NAME.ALIAS[KEY]; the default configuration cannot have instances.",
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	diags = append(diags, reservedAttrs(content, "provider", "count", "depends_on", "source")...)
	diags = append(diags, reservedBlocks(content, "provider", "_")...)
	return p, diags
}

// decodeProviderRef reads a static NAME or NAME.ALIAS reference (the
// provider meta-argument, providers map entries, configuration_aliases).
// A resource's provider argument may also select one instance of a
// configuration with for_each, NAME.ALIAS[KEY] (see decodeProviderInstanceRef).
func decodeProviderRef(expr hcl.Expression, what string) (*ProviderConfigRef, hcl.Diagnostics) {
	expr, warn := unquoteTraversal(expr, false)
	trav, diags := hcl.AbsTraversalForExpr(expr)
	bad := func() (*ProviderConfigRef, hcl.Diagnostics) {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid " + what,
			Detail:   "A provider configuration reference must be a provider local name, optionally followed by a dot and an alias, like aws or aws.west (unquoted).",
			Subject:  expr.Range().Ptr(),
		}}
	}
	if isProviderInstanceRef(expr, trav, diags) {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Provider instance references are not supported here",
			Detail:   "A reference to one instance of a provider configuration with for_each (NAME.ALIAS[KEY]) is allowed in a resource's provider argument and as a value of a module's providers map, not here.",
			Subject:  expr.Range().Ptr(),
		}}
	}
	if diags.HasErrors() || len(trav) == 0 || len(trav) > 2 {
		return bad()
	}
	ref := &ProviderConfigRef{Name: trav.RootName(), NameRange: trav[0].SourceRange()}
	if len(trav) == 2 {
		step, ok := trav[1].(hcl.TraverseAttr)
		if !ok {
			return bad()
		}
		ref.Alias = step.Name
		ref.AliasRange = step.SrcRange.Ptr()
	}
	return ref, warn
}

// isProviderInstanceRef reports whether expr is NAME.ALIAS[KEY]: an index
// expression on a two-part reference, or (a constant key) a three-part
// traversal ending in an index. trav and diags are AbsTraversalForExpr's.
func isProviderInstanceRef(expr hcl.Expression, trav hcl.Traversal, diags hcl.Diagnostics) bool {
	if ix, ok := expr.(*hclsyntax.IndexExpr); ok && diags.HasErrors() {
		t, ds := hcl.AbsTraversalForExpr(ix.Collection)
		return !ds.HasErrors() && len(t) == 2
	}
	if !diags.HasErrors() && len(trav) == 3 {
		_, ok := trav[2].(hcl.TraverseIndex)
		return ok
	}
	return false
}

// decodeProviderInstanceRef reads a resource's provider argument or a
// providers map value: what decodeProviderRef reads, or NAME.ALIAS[KEY],
// whose key expression is evaluated per resource (or module) instance (it
// may use each, count, variables and locals).
func decodeProviderInstanceRef(expr hcl.Expression, what string) (*ProviderConfigRef, hcl.Diagnostics) {
	unq, warn := unquoteTraversal(expr, false)
	trav, diags := hcl.AbsTraversalForExpr(unq)
	if !isProviderInstanceRef(unq, trav, diags) {
		return decodeProviderRef(expr, what)
	}
	var key hcl.Expression
	if ix, ok := unq.(*hclsyntax.IndexExpr); ok {
		trav, _ = hcl.AbsTraversalForExpr(ix.Collection)
		key = ix.Key
	} else {
		idx := trav[2].(hcl.TraverseIndex)
		key = hcl.StaticExpr(idx.Key, idx.SrcRange)
		trav = trav[:2]
	}
	alias, ok := trav[1].(hcl.TraverseAttr)
	if !ok {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider argument",
			Detail:   "A provider instance reference is written NAME.ALIAS[KEY], like aws.by_region[each.key].",
			Subject:  expr.Range().Ptr(),
		}}
	}
	return &ProviderConfigRef{Name: trav.RootName(), NameRange: trav[0].SourceRange(),
		Alias: alias.Name, AliasRange: alias.SrcRange.Ptr(), KeyExpr: key}, warn
}
