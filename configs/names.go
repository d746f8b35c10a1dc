package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plankit/plankit/addrs"
)

// checkName reports an error unless name is a valid HCL identifier. what is
// e.g. "resource name"; rng is the label's range.
func checkName(name, what string, rng hcl.Range) hcl.Diagnostics {
	if asciiIdentifier(name) || hclsyntax.ValidIdentifier(name) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid " + what,
		Detail: fmt.Sprintf("%q is not a valid %s: a name must start with a letter or underscore "+
			"and may contain only letters, digits, underscores, and dashes.", name, what),
		Subject: rng.Ptr(),
	}}
}

// labelRange returns the range of a block's i-th label, or its DefRange.
func labelRange(block *hcl.Block, i int) hcl.Range {
	if i < len(block.LabelRanges) {
		return block.LabelRanges[i]
	}
	return block.DefRange
}

// constString evaluates expr with no variables or functions and converts
// the result to a known, non-null string.
func constString(expr hcl.Expression, what string) (string, hcl.Diagnostics) {
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return "", diags
	}
	v, err := convert.Convert(v, cty.String)
	if err != nil || v.IsNull() || !v.IsKnown() || v.IsMarked() {
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid " + what,
			Detail:   "The " + what + " must be a literal string.",
			Subject:  expr.Range().Ptr(),
		}}
	}
	return v.AsString(), nil
}

// constOfType evaluates expr with no variables or functions as a known
// value of type ty (a map or list of strings, a number, or any value).
func constOfType(expr hcl.Expression, ty cty.Type, what string) hcl.Diagnostics {
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return diags
	}
	v, err := convert.Convert(v, ty)
	if err != nil || v.IsNull() || !v.IsWhollyKnown() || v.ContainsMarked() {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid " + what,
			Detail:   "The " + what + " must be a literal " + ty.FriendlyName() + ".",
			Subject:  expr.Range().Ptr(),
		}}
	}
	return nil
}

// constBool evaluates expr with no variables or functions as a known,
// non-null bool: the lifecycle flags and variable flags must be literal.
func constBool(expr hcl.Expression, what string) (bool, hcl.Diagnostics) {
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return false, diags
	}
	v, err := convert.Convert(v, cty.Bool)
	if err != nil || v.IsNull() || !v.IsKnown() || v.IsMarked() {
		return false, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid " + what,
			Detail:   "The " + what + " must be a literal true or false.",
			Subject:  expr.Range().Ptr(),
		}}
	}
	return v.True(), nil
}

// decodeDependsOn reads a depends_on list: each element must be a static
// reference to a whole object (resource, data resource, module call,
// variable, local or output), checked with addrs.ParseRef.
func decodeDependsOn(attr *hcl.Attribute) ([]hcl.Traversal, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	var out []hcl.Traversal
	for _, expr := range exprs {
		expr, ds := unquoteTraversal(expr, false)
		diags = append(diags, ds...)
		trav, ds := hcl.AbsTraversalForExpr(expr)
		if ds.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid depends_on reference",
				Detail:   "Each depends_on element must be a static reference to a resource, data resource or module call, like aws_instance.web or module.net, not an arbitrary expression.",
				Subject:  expr.Range().Ptr(),
			})
			continue
		}
		ref, ds := addrs.ParseRef(trav)
		diags = append(diags, ds...)
		if ds.HasErrors() {
			continue
		}
		bad := ref.Subject == addrs.Referenceable(addrs.Self)
		switch ref.Subject.(type) {
		case addrs.CountAttr, addrs.ForEachAttr, addrs.PathAttr, addrs.TerraformAttr:
			bad = true
		}
		if bad {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid depends_on reference",
				Detail:   fmt.Sprintf("%s is not an object another object can depend on; depends_on takes resources, data resources and module calls.", ref.Subject.String()),
				Subject:  expr.Range().Ptr(),
			})
			continue
		}
		if len(ref.Remaining) > 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid depends_on reference",
				Detail:   fmt.Sprintf("depends_on must refer to a whole object (%s), not to one of its attributes.", ref.Subject.String()),
				Subject:  expr.Range().Ptr(),
			})
			continue
		}
		out = append(out, trav)
	}
	return out, diags
}

// countForEachConflict reports count and for_each set on the same block.
func countForEachConflict(count, forEach *hcl.Attribute, blockKind string) hcl.Diagnostics {
	if count == nil || forEach == nil {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  `Invalid combination of "count" and "for_each"`,
		Detail:   fmt.Sprintf(`The "count" and "for_each" meta-arguments are mutually exclusive: a %s block may use only one of them (count is at %s).`, blockKind, count.NameRange),
		Subject:  forEach.NameRange.Ptr(),
	}}
}

// reservedBlocks reports blocks of body whose type is reserved in a block
// of kind (e.g. "resource"); content must come from a schema that lists them.
func reservedBlocks(content *hcl.BodyContent, kind string, reserved ...string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, b := range content.Blocks {
		for _, r := range reserved {
			if b.Type != r {
				continue
			}
			detail := fmt.Sprintf("The block type name %q is reserved for use by Terraform in a future version.", r)
			if r == "_" {
				detail = "plankit does not support meta-argument escaping blocks (_ { ... }); write the arguments directly in the block."
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reserved block type name in " + kind + " block",
				Detail:   detail,
				Subject:  b.TypeRange.Ptr(),
			})
		}
	}
	return diags
}

// reservedAttrs reports attributes of content whose names are reserved in
// a block of kind.
func reservedAttrs(content *hcl.BodyContent, kind string, reserved ...string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, r := range reserved {
		if a, ok := content.Attributes[r]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reserved argument name in " + kind + " block",
				Detail:   fmt.Sprintf("The name %q is reserved for use in a future version of Terraform.", r),
				Subject:  a.NameRange.Ptr(),
			})
		}
	}
	return diags
}
