package terraform

import (
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang"
)

// bodyRefs are the references of a resource body, found once per node: they
// are the same for every instance, and finding them walks the whole body
// (garbage for every instance when done per evaluation).
type bodyRefs struct {
	once sync.Once
	refs []*addrs.Reference
	ok   bool // found without diagnostics; otherwise evaluate the slow way
}

// bodyReferences returns the references of the resource body (n.block and
// n.spec set) and whether they came without diagnostics. The graph's
// reference edges and every instance's evaluation share them. O(body) once.
func (n *nodeResource) bodyReferences() ([]*addrs.Reference, bool) {
	n.refs.once.Do(func() {
		if refs, diags, ok := n.fast.references(n.block.Config, n.block, n.fastSpec); ok && bodyFast {
			n.refs.refs, n.refs.ok = refs, len(diags) == 0
			return
		}
		refs, diags := lang.ReferencesInBlock(n.block.Config, n.spec)
		n.refs.refs, n.refs.ok = refs, len(diags) == 0
	})
	return n.refs.refs, n.refs.ok
}

// evalBody evaluates the resource body in scope with the references found
// once per node; a body whose references come with diagnostics goes
// through EvalBlock, so the diagnostics are the same.
func (n *nodeResource) evalBody(scope *lang.Scope) (cty.Value, hcl.Diagnostics) {
	refs, ok := n.bodyReferences()
	if !ok {
		return scope.EvalBlock(n.block.Config, n.spec)
	}
	if tmpl, exprs := n.fast.bind(n.block.Config, n.block, n.fastSpec); tmpl != nil && bodyFast {
		if ctx, diags := scope.EvalContext(refs); len(diags) == 0 {
			if v, ok := decodeFast(tmpl, exprs, ctx); ok {
				return v, nil
			}
		}
	}
	return scope.EvalBlockWithRefs(n.block.Config, n.spec, refs)
}
