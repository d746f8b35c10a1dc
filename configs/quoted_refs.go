package configs

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// unquoteTraversal accepts the pre-0.12 quoted form of a static reference
// or keyword — depends_on = ["null_resource.a"], provider = "null.foo",
// ignore_changes = ["tags"], when = "destroy" — as Terraform and OpenTofu
// still do: a native-syntax string literal is parsed as a traversal and
// returned as a traversal expression, with a deprecation warning. Any
// other expression (JSON strings included, where quoting is the norm) is
// returned unchanged, and so is a string that is not a valid traversal,
// for the caller's own error. keyword selects the warning's wording.
func unquoteTraversal(expr hcl.Expression, keyword bool) (hcl.Expression, hcl.Diagnostics) {
	if k, ok := expr.(*hclsyntax.ObjectConsKeyExpr); ok {
		expr = k.Wrapped
	}
	tmpl, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok || !tmpl.IsStringLiteral() {
		return expr, nil
	}
	v, diags := tmpl.Value(nil)
	if diags.HasErrors() || v.IsNull() || !v.IsKnown() {
		return expr, nil
	}
	rng := expr.Range()
	start := rng.Start
	start.Column++ // past the opening quote
	start.Byte++
	trav, diags := hclsyntax.ParseTraversalAbs([]byte(v.AsString()), rng.Filename, start)
	if diags.HasErrors() {
		return expr, nil
	}
	w := &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Quoted references are deprecated",
		Detail:   "References here are written without quotes since Terraform 0.12; the quoted form is still accepted but will stop working in a future version. Remove the quotes around this reference.",
		Subject:  rng.Ptr(),
	}
	if keyword {
		w.Summary = "Quoted keywords are deprecated"
		w.Detail = "Keywords here are written without quotes since Terraform 0.12; the quoted form is still accepted but will stop working in a future version. Remove the quotes around this keyword."
	}
	return &hclsyntax.ScopeTraversalExpr{Traversal: trav, SrcRange: rng}, hcl.Diagnostics{w}
}
