package dag

import (
	"errors"
	"testing"
)

// chain returns 0 → 1 → … → n-1 (each vertex depends on the next).
func chain(n int) *Graph[int] {
	g := New[int](nil)
	g.Grow(n)
	for i := range n {
		g.Add(i)
	}
	for i := 0; i+1 < n; i++ {
		g.Connect(i, i+1)
	}
	return g
}

// TestMillionChain runs the algorithms that are recursive in Terraform's
// design on a chain of a million vertices: they must not overflow the
// stack. (TransitiveReduction and the walker settle chains iteratively
// too; BenchmarkTransitiveReduction and TestWalkChainFailure cover them.)
func TestMillionChain(t *testing.T) {
	if testing.Short() {
		t.Skip("large graph")
	}
	const n = 1_000_000
	g := chain(n)
	if err := g.Validate(ValidateOptions{RequireSingleRoot: true}); err != nil {
		t.Fatal(err)
	}
	if comps := g.StronglyConnected(); len(comps) != n || comps[0][0] != n-1 {
		t.Fatalf("%d components, first %v", len(comps), comps[0])
	}
	order, err := g.TopologicalOrder()
	if err != nil || order[0] != n-1 || order[n-1] != 0 {
		t.Fatalf("order starts %d ends %d, err %v", order[0], order[n-1], err)
	}
	// Closing the chain into one big cycle: Tarjan and the cycle search.
	g.Connect(n-1, 0)
	var ce *CycleError[int]
	if err := g.Validate(ValidateOptions{}); !errors.As(err, &ce) || len(ce.Cycles) != 1 || len(ce.Cycles[0]) != n+1 {
		t.Fatalf("cycle not found whole: %T", err)
	}
}
