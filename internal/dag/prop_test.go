package dag

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// randomGraph builds a graph of n int vertices, inserted in a shuffled
// order, with each ordered pair an edge with probability p. acyclic keeps
// only edges from a higher to a lower rank of a hidden random ranking;
// otherwise self edges are allowed.
func randomGraph(r *rand.Rand, n int, p float64, acyclic bool) *Graph[int] {
	g := New[int](nil)
	for _, v := range r.Perm(n) {
		g.Add(v)
	}
	rank := r.Perm(n)
	for a := range n {
		for b := range n {
			if r.Float64() >= p {
				continue
			}
			if acyclic && rank[a] <= rank[b] {
				continue
			}
			g.Connect(a, b)
		}
	}
	return g
}

// reachability is brute-force reachability over paths of length ≥ 1, for
// graphs whose vertices are 0..n-1.
type reachability [][]bool

func (r reachability) has(k [2]int) bool { return r[k[0]][k[1]] }

func closure(g *Graph[int]) reachability {
	n := g.Len()
	reach := make(reachability, n)
	for i := range reach {
		reach[i] = make([]bool, n)
	}
	for _, e := range g.Edges() {
		reach[e.From][e.To] = true
	}
	for k := range n {
		for i := range n {
			if !reach[i][k] {
				continue
			}
			for j := range n {
				if reach[k][j] {
					reach[i][j] = true
				}
			}
		}
	}
	return reach
}

// checkAgainstBruteForce compares the fast algorithms with brute force on g.
func checkAgainstBruteForce(t *testing.T, g *Graph[int]) {
	t.Helper()
	checkAgainstBruteForceBudget(t, g, reduceBudgetWords)
}

// checkAgainstBruteForceBudget is checkAgainstBruteForce with the bitset
// budget of TransitiveReduction given, to force several blocks.
func checkAgainstBruteForceBudget(t *testing.T, g *Graph[int], budget int) {
	t.Helper()
	reach := closure(g)
	vs := g.Vertices()
	pos := map[int]int{}
	for i, v := range vs {
		pos[v] = i
	}

	// SCCs: u and v share a component iff each reaches the other.
	comps := g.StronglyConnected()
	compOf := map[int]int{}
	for i, c := range comps {
		if !slices.IsSortedFunc(c, func(a, b int) int { return pos[a] - pos[b] }) {
			t.Errorf("component %v not in insertion order", c)
		}
		for _, v := range c {
			if _, dup := compOf[v]; dup {
				t.Fatalf("vertex %d in two components", v)
			}
			compOf[v] = i
		}
	}
	if len(compOf) != len(vs) {
		t.Fatalf("components cover %d of %d vertices", len(compOf), len(vs))
	}
	hasCycle := false
	for _, u := range vs {
		if reach.has([2]int{u, u}) {
			hasCycle = true
		}
		for _, v := range vs {
			mutual := u == v || reach.has([2]int{u, v}) && reach.has([2]int{v, u})
			if mutual != (compOf[u] == compOf[v]) {
				t.Fatalf("%d,%d: mutual reachability %v but same component %v\n%s", u, v, mutual, compOf[u] == compOf[v], g)
			}
		}
	}
	// Components come dependencies first: no edge to a later component.
	for _, e := range g.Edges() {
		if compOf[e.From] < compOf[e.To] {
			t.Fatalf("edge %d->%d goes to a later component", e.From, e.To)
		}
	}

	// Cycles: real closed paths covering exactly the cyclic components.
	cycles := g.Cycles()
	covered := map[int]bool{}
	for _, c := range cycles {
		if len(c) < 3 || c[0] != c[len(c)-1] {
			t.Fatalf("cycle %v is not a closed path of two or more vertices", c)
		}
		for i := 0; i+1 < len(c); i++ {
			if !g.HasEdge(c[i], c[i+1]) {
				t.Fatalf("cycle %v: no edge %d->%d", c, c[i], c[i+1])
			}
			covered[c[i]] = true
		}
	}
	for _, v := range vs {
		inBig := len(comps[compOf[v]]) > 1
		if inBig != covered[v] {
			t.Fatalf("vertex %d: in cyclic component %v, on a reported cycle %v", v, inBig, covered[v])
		}
	}

	err := g.Validate(ValidateOptions{})
	order, topoErr := g.TopologicalOrder()
	if (err != nil) != hasCycle || (topoErr != nil) != hasCycle {
		t.Fatalf("hasCycle=%v, Validate=%v, TopologicalOrder=%v", hasCycle, err, topoErr)
	}
	if hasCycle {
		c := g.Copy()
		if c.TransitiveReduction() == nil {
			t.Fatal("TransitiveReduction accepted a cyclic graph")
		}
		if diff := cmp.Diff(g.String(), c.String()); diff != "" {
			t.Fatalf("failed TransitiveReduction changed the graph:\n%s", diff)
		}
		return
	}
	checkTopo(t, g, order, false)
	rorder, _ := g.ReverseTopologicalOrder()
	checkTopo(t, g, rorder, true)

	// Ancestors and Descendants against the closure.
	for _, v := range vs {
		var anc, desc []int
		for _, u := range vs {
			if reach.has([2]int{v, u}) {
				anc = append(anc, u)
			}
			if reach.has([2]int{u, v}) {
				desc = append(desc, u)
			}
		}
		if diff := cmp.Diff(anc, g.Ancestors(v), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Ancestors(%d):\n%s", v, diff)
		}
		if diff := cmp.Diff(desc, g.Descendants(v), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Descendants(%d):\n%s", v, diff)
		}
	}

	// Transitive reduction: exactly the edges with no other path remain.
	var want []Edge[int]
	for _, e := range g.Edges() {
		redundant := false
		for _, w := range g.DownEdges(e.From) {
			if w != e.To && reach.has([2]int{w, e.To}) {
				redundant = true
			}
		}
		if !redundant {
			want = append(want, e)
		}
	}
	red := g.Copy()
	if err := red.transitiveReduction(budget); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, red.Edges(), cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("TransitiveReduction of\n%s(-want +got):\n%s", g, diff)
	}
	if red.EdgeCount() != len(want) {
		t.Fatalf("EdgeCount %d after reduction, want %d", red.EdgeCount(), len(want))
	}
	checkUpMirrorsDown(t, red)
}

// checkTopo checks order is a topological order of g (dependencies first,
// or dependents first when reverse) and the smallest by insertion index.
func checkTopo(t *testing.T, g *Graph[int], order []int, reverse bool) {
	t.Helper()
	vs := g.Vertices()
	// Brute force: repeatedly take the first vertex in insertion order
	// whose prerequisites are all placed.
	placed := map[int]bool{}
	var want []int
	for len(want) < len(vs) {
		for _, v := range vs {
			if placed[v] {
				continue
			}
			before := g.DownEdges(v)
			if reverse {
				before = g.UpEdges(v)
			}
			ok := true
			for _, b := range before {
				ok = ok && placed[b]
			}
			if ok {
				placed[v] = true
				want = append(want, v)
				break
			}
		}
	}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Fatalf("topological order (reverse=%v) of\n%s(-want +got):\n%s", reverse, g, diff)
	}
}

// checkUpMirrorsDown checks that up edges are exactly the reversed down
// edges.
func checkUpMirrorsDown(t *testing.T, g *Graph[int]) {
	t.Helper()
	n := 0
	for _, v := range g.Vertices() {
		for _, u := range g.UpEdges(v) {
			if !slices.Contains(g.DownEdges(u), v) {
				t.Fatalf("up edge %d<-%d without down edge", v, u)
			}
			n++
		}
	}
	if n != g.EdgeCount() {
		t.Fatalf("%d up edges, EdgeCount %d", n, g.EdgeCount())
	}
}

func TestAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 600 {
		n := 1 + r.IntN(9)
		p := []float64{0.1, 0.25, 0.5}[i%3]
		acyclic := i%2 == 0
		g := randomGraph(r, n, p, acyclic)
		t.Run(fmt.Sprintf("%d", i), func(t *testing.T) { checkAgainstBruteForce(t, g) })
	}
}

// TestReductionLargerBlocks drives TransitiveReduction through several
// bitset blocks with a denser random DAG than brute force enjoys.
func TestReductionLargerBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	g := randomGraph(r, 300, 0.05, true)
	order, _ := g.topo(false)
	targets, _, _ := g.reductionCandidates(order)
	if len(targets) < 3*64 {
		t.Fatalf("only %d candidate targets: the test would not span several blocks", len(targets))
	}
	// A budget of one word per vertex gives blocks of 64 targets.
	checkAgainstBruteForceBudget(t, g, g.Len())
	red := g.Copy()
	if err := red.TransitiveReduction(); err != nil || red.EdgeCount() == g.EdgeCount() {
		t.Fatalf("reduction removed nothing (err %v)", err)
	}
}

// FuzzGraph reads a graph from bytes (vertex count, then edge pairs) and
// checks every algorithm against brute force.
func FuzzGraph(f *testing.F) {
	f.Add([]byte{3, 0, 1, 1, 2, 0, 2})
	f.Add([]byte{3, 0, 1, 1, 2, 2, 0})
	f.Add([]byte{2, 0, 0})
	f.Add([]byte{6, 5, 4, 4, 3, 5, 3, 3, 0, 5, 0, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		n := 1 + int(data[0])%12
		g := New[int](nil)
		for v := range n {
			g.Add((v + int(data[0])/12) % n) // insertion order differs from value order
		}
		for i := 1; i+1 < len(data); i += 2 {
			g.Connect(int(data[i])%n, int(data[i+1])%n)
		}
		checkAgainstBruteForce(t, g)
	})
}
