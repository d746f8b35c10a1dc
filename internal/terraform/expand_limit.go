package terraform

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// maxInstances is ContextOpts.MaxInstances with its default applied.
func maxInstances(n int) int {
	if n <= 0 {
		return DefaultMaxInstances
	}
	return n
}

// checkExpansion refuses an expansion of more instances than the Context
// allows, either alone or added to every expansion the walk has made so
// far, before any instance is allocated. count and forEach are the
// expressions evaluated (one of them set); what names the resource or
// module call. O(1).
func (ws *walkState) checkExpansion(x expansion, count, forEach hcl.Expression, what string) hcl.Diagnostics {
	if !x.known {
		return nil
	}
	limit := ws.c.maxInst
	n := x.len()
	arg, expr := "count", count
	if expr == nil {
		arg, expr = "for_each", forEach
	}
	var rng *hcl.Range
	if expr != nil {
		rng = expr.Range().Ptr()
	}
	if n > limit {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Too many instances",
			Detail: fmt.Sprintf("The %s argument of %s asks for %d instances; plankit plans at most %d instances (set PLANKIT_MAX_INSTANCES to change the limit).",
				arg, what, n, limit),
			Subject: rng,
		}}
	}
	if total := ws.instTotal.Add(int64(n)); total > int64(limit) {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Too many instances",
			Detail: fmt.Sprintf("With the %d instances the %s argument of %s asks for, this configuration expands to more than %d resource and module instances, the most plankit plans (set PLANKIT_MAX_INSTANCES to change the limit).",
				n, arg, what, limit),
			Subject: rng,
		}}
	}
	return nil
}
