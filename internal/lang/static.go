package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Static reports whether expr is made only of literal values, templates
// of literal text (quoted strings and heredocs without interpolation),
// and tuple and object constructors of them whose keys are bare names or
// such strings: an expression that refers to nothing, so its Variables
// are empty. It answers from the syntax tree alone, without allocating;
// false means "not known to be static", not "refers to something".
//
// Most arguments of a large configuration are of these shapes (input =
// { idx = 0, name = "r0" }), and hclsyntax's Variables walks each with a
// closure per node: Variables below skips that walk for them.
func Static(expr hcl.Expression) bool {
	switch e := expr.(type) {
	case *hclsyntax.LiteralValueExpr:
		return true
	case *hclsyntax.TemplateExpr:
		for _, p := range e.Parts {
			if _, lit := p.(*hclsyntax.LiteralValueExpr); !lit {
				return false
			}
		}
		return true
	case *hclsyntax.TupleConsExpr:
		for _, x := range e.Exprs {
			if !Static(x) {
				return false
			}
		}
		return true
	case *hclsyntax.ObjectConsExpr:
		for _, item := range e.Items {
			if !staticKey(item.KeyExpr) || !Static(item.ValueExpr) {
				return false
			}
		}
		return true
	}
	return false
}

// staticKey is Static for an object constructor's key: a bare name (a
// one-step traversal not forced to be an expression by parentheses) is
// the literal key it spells, which hclsyntax does not walk as a
// reference.
func staticKey(key hclsyntax.Expression) bool {
	k, isKey := key.(*hclsyntax.ObjectConsKeyExpr)
	if !isKey {
		return Static(key)
	}
	if t, isTrav := k.Wrapped.(*hclsyntax.ScopeTraversalExpr); isTrav {
		return !k.ForceNonLiteral && len(t.Traversal) == 1
	}
	return Static(k.Wrapped)
}

// Variables is expr.Variables(), nil at once for a Static expression. A
// nil expression has none.
func Variables(expr hcl.Expression) []hcl.Traversal {
	if expr == nil || Static(expr) {
		return nil
	}
	return expr.Variables()
}
