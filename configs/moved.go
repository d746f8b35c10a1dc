package configs

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
)

// Moved is a moved block: the object at From in the previous run's state
// is now at To. Both addresses are relative to the module declaring the
// block and, once decoded, of the same kind (addrs.UnifyMoveEndpoints).
type Moved struct {
	From, To  addrs.MoveEndpoint
	DeclRange hcl.Range
}

var movedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}, {Name: "to", Required: true}},
}

// decodeMovedBlock decodes a moved block; nil when it is invalid.
func decodeMovedBlock(block *hcl.Block) (*Moved, hcl.Diagnostics) {
	content, diags := block.Body.Content(movedBlockSchema)
	if diags.HasErrors() {
		return nil, diags
	}
	endpoint := func(name string) *addrs.MoveEndpoint {
		trav, d := hcl.AbsTraversalForExpr(content.Attributes[name].Expr)
		if d.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid \"moved\" address",
				Detail:  "The " + name + " argument of a moved block must be a static address such as aws_instance.a, aws_instance.a[0], module.a or module.a[\"x\"]; expressions and quotes are not allowed.",
				Subject: content.Attributes[name].Expr.Range().Ptr()})
			return nil
		}
		e, d := addrs.ParseMoveEndpoint(trav)
		diags = append(diags, d...)
		return e
	}
	from, to := endpoint("from"), endpoint("to")
	if from == nil || to == nil {
		return nil, diags
	}
	f, t, ok := addrs.UnifyMoveEndpoints(*from, *to)
	if !ok {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid \"moved\" addresses",
			Detail:  "A moved block moves a resource to a resource, or a module to a module: from and to must both name resources or both name modules.",
			Subject: block.DefRange.Ptr()})
	}
	return &Moved{From: f, To: t, DeclRange: block.DefRange}, diags
}
