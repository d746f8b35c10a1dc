package terraform

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// rangeForPath finds where in a resource's configuration body the value
// at path (a provider diagnostic's attribute path) was written: the
// argument's expression, descending into object and tuple constructors
// and nested blocks as far as the source goes. Nil when the body is not
// native syntax or the first step is not written at all (the value came
// from a default or the provider). O(len(path) × size of the body level).
func rangeForPath(body hcl.Body, path cty.Path) *hcl.Range {
	b, ok := body.(*hclsyntax.Body)
	if !ok || len(path) == 0 {
		return nil
	}
	var best *hcl.Range
	for i := 0; i < len(path); i++ {
		step, ok := path[i].(cty.GetAttrStep)
		if !ok {
			return best
		}
		if attr, ok := b.Attributes[step.Name]; ok {
			return exprRangeForPath(attr.Expr, path[i+1:])
		}
		var blocks []*hclsyntax.Block
		for _, blk := range b.Blocks {
			if blk.Type == step.Name {
				blocks = append(blocks, blk)
			}
		}
		if len(blocks) == 0 {
			return best
		}
		blk := blocks[0]
		if i+1 < len(path) {
			if idx, ok := path[i+1].(cty.IndexStep); ok {
				i++
				blk = nil
				switch {
				case idx.Key.Type() == cty.Number && idx.Key.IsKnown():
					if n, acc := idx.Key.AsBigFloat().Int64(); acc == 0 && n >= 0 && int(n) < len(blocks) {
						blk = blocks[n]
					}
				case idx.Key.Type() == cty.String && idx.Key.IsKnown():
					for _, cand := range blocks {
						if len(cand.Labels) > 0 && cand.Labels[0] == idx.Key.AsString() {
							blk = cand
						}
					}
				}
				if blk == nil {
					r := blocks[0].TypeRange
					return &r
				}
			}
		}
		r := blk.DefRange()
		best = &r
		b = blk.Body
	}
	return best
}

// exprRangeForPath descends into object and tuple constructor
// expressions along path; it stops at the deepest expression written.
func exprRangeForPath(expr hclsyntax.Expression, path cty.Path) *hcl.Range {
	for _, step := range path {
		switch e := expr.(type) {
		case *hclsyntax.ObjectConsExpr:
			var key string
			switch s := step.(type) {
			case cty.GetAttrStep:
				key = s.Name
			case cty.IndexStep:
				if s.Key.Type() != cty.String || !s.Key.IsKnown() {
					break
				}
				key = s.Key.AsString()
			}
			var next hclsyntax.Expression
			for _, item := range e.Items {
				if k, diags := item.KeyExpr.Value(nil); !diags.HasErrors() && k.Type() == cty.String && k.IsKnown() && k.AsString() == key {
					next = item.ValueExpr
				}
			}
			if next == nil {
				r := expr.Range()
				return &r
			}
			expr = next
		case *hclsyntax.TupleConsExpr:
			s, ok := step.(cty.IndexStep)
			if !ok || s.Key.Type() != cty.Number || !s.Key.IsKnown() {
				r := expr.Range()
				return &r
			}
			n, acc := s.Key.AsBigFloat().Int64()
			if acc != 0 || n < 0 || int(n) >= len(e.Exprs) {
				r := expr.Range()
				return &r
			}
			expr = e.Exprs[n]
		default:
			r := expr.Range()
			return &r
		}
	}
	r := expr.Range()
	return &r
}
