package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"

	"github.com/plankit/plankit/addrs"
)

// References parses each traversal as a reference. Traversals that are not
// valid references produce diagnostics naming their range and are left
// out; the rest are returned in input order. O(len(traversals)).
func References(traversals []hcl.Traversal) ([]*addrs.Reference, hcl.Diagnostics) {
	if len(traversals) == 0 {
		return nil, nil
	}
	var diags hcl.Diagnostics
	refs := make([]*addrs.Reference, 0, len(traversals))
	for _, trav := range traversals {
		ref, d := addrs.ParseRef(trav)
		diags = append(diags, d...)
		if ref != nil {
			refs = append(refs, ref)
		}
	}
	return refs, diags
}

// ReferencesInExpr returns the references expr makes (iterator variables of
// for expressions excluded). A nil expression makes none.
func ReferencesInExpr(expr hcl.Expression) ([]*addrs.Reference, hcl.Diagnostics) {
	return References(Variables(expr))
}

// ReferencesInBlock returns the references the parts of body that spec
// decodes make, including those inside dynamic blocks (their for_each and
// content, without their iterator variables).
func ReferencesInBlock(body hcl.Body, spec hcldec.Spec) ([]*addrs.Reference, hcl.Diagnostics) {
	if body == nil || spec == nil {
		return nil, nil
	}
	return References(dynblock.VariablesHCLDec(body, spec))
}
