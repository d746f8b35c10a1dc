package configs

import (
	"fmt"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
)

// OpenTofu 1.12 added a top-level "language" block: compatible_with
// declares the OpenTofu versions a module works with (other tools may add
// their own arguments there, which are ignored), edition and experiments
// are reserved. plankit reads it as OpenTofu does and keeps nothing of it:
// the opentofu constraint names OpenTofu releases, not the Terraform
// language version plankit checks required_version against.
var languageBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "edition"}, {Name: "experiments"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "compatible_with"}},
}

var compatibleWithSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "opentofu"}},
}

// languageEdition is the only edition OpenTofu defines.
const languageEdition = "tofu2024"

// firstOpenTofuWithLanguage is the release before the one that added
// compatible_with: a constraint admitting it cannot mean what it says.
var firstOpenTofuWithLanguage = version.Must(version.NewVersion("1.11.0"))

func decodeLanguageBlock(block *hcl.Block, override bool) hcl.Diagnostics {
	if override {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Language block in an override file",
			Detail:   "A language block applies to the whole module, so it cannot be overridden; move it to a normal (non-override) configuration file.",
			Subject:  block.DefRange.Ptr(),
		}}
	}
	content, diags := block.Body.Content(languageBlockSchema)
	if attr, ok := content.Attributes["edition"]; ok {
		if kw := hcl.ExprAsKeyword(attr.Expr); kw != languageEdition {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported language edition",
				Detail:   fmt.Sprintf("The only language edition is %s, written as a bare keyword (edition = %s); remove the argument or set it so.", languageEdition, languageEdition),
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["experiments"]; ok {
		exprs, ds := hcl.ExprList(attr.Expr)
		diags = append(diags, ds...)
		for _, e := range exprs {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unknown experiment keyword",
				Detail:   "There are no language experiments; remove this entry from experiments.",
				Subject:  e.Range().Ptr(),
			})
		}
	}
	var seen *VersionConstraint
	for _, b := range content.Blocks {
		// Anything besides opentofu belongs to other software.
		inner, _, ds := b.Body.PartialContent(compatibleWithSchema)
		diags = append(diags, ds...)
		attr, ok := inner.Attributes["opentofu"]
		if !ok {
			continue
		}
		if seen != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate compatible_with block",
				Detail:   fmt.Sprintf("The OpenTofu version constraint is already declared at %s; keep one compatible_with block that sets opentofu.", seen.DeclRange),
				Subject:  b.DefRange.Ptr(),
			})
			continue
		}
		vc, ds := decodeVersionConstraint(attr.Expr, "opentofu")
		diags = append(diags, ds...)
		if ds.HasErrors() {
			continue
		}
		seen = &vc
		if vc.Required.Check(firstOpenTofuWithLanguage) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Ineffective version constraint",
				Detail: fmt.Sprintf("OpenTofu reads compatible_with from v1.12.0 on, so a constraint that admits earlier releases (%s admits %s) does not hold for them; "+
					"exclude them (for example \">= 1.12.0\"), or for older OpenTofu releases set required_version in a terraform block of a .tofu file.", vc.Required, firstOpenTofuWithLanguage),
				Subject: vc.DeclRange.Ptr(),
			})
		}
	}
	return diags
}
