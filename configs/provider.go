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
	DeclRange  hcl.Range
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
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Provider for_each is not supported",
			Detail:   "for_each in a provider block is an OpenTofu 1.9+ feature plankit does not support yet. Write one aliased provider block per key instead (provider \"NAME\" { alias = \"KEY\" ... }) and refer to them as NAME.KEY, or plan this configuration with OpenTofu.",
			Subject:  attr.NameRange.Ptr(),
		})
	}
	diags = append(diags, reservedAttrs(content, "provider", "count", "depends_on", "source")...)
	diags = append(diags, reservedBlocks(content, "provider", "_")...)
	return p, diags
}

// decodeProviderRef reads a static NAME or NAME.ALIAS reference (the
// provider meta-argument, providers map entries, configuration_aliases).
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
	if ix, ok := expr.(*hclsyntax.IndexExpr); ok && diags.HasErrors() {
		if _, ds := hcl.AbsTraversalForExpr(ix.Collection); !ds.HasErrors() {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Provider instance references are not supported",
				Detail:   "A reference to one instance of a provider configuration (NAME.ALIAS[KEY]) needs OpenTofu's provider for_each, which plankit does not support yet. Refer to one aliased provider block per key instead, like NAME.KEY.",
				Subject:  expr.Range().Ptr(),
			}}
		}
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
