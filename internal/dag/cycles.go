package dag

import "slices"

// maxCyclesPerComponent bounds the cycles reported for one strongly
// connected component, so a pathological component costs at most that
// many breadth-first searches over it.
const maxCyclesPerComponent = 100

// Cycles returns the dependency cycles of g as closed paths ("a, b, c, a":
// a depends on b, b on c, c on a), self references excepted. Each cyclic
// strongly connected component contributes shortest cycles through its
// earliest-inserted vertex not yet on a reported cycle, until every vertex
// of the component is on one (at most a hundred per component). Cycles are
// sorted by the insertion order of their first vertex, so the result is
// deterministic. O(V+E) per reported cycle, O(V+E) when there is none.
func (g *Graph[K]) Cycles() [][]K {
	cycles, _ := g.cycles()
	return cycles
}

// cycles also returns how many cyclic vertices the per-component cap left
// unreported.
func (g *Graph[K]) cycles() ([][]K, int) {
	if g.acyclic() {
		return nil, 0
	}
	var comps [][]int32
	flat, ends := g.scc()
	start := int32(0)
	for _, end := range ends {
		if end-start > 1 {
			comps = append(comps, flat[start:end])
		}
		start = end
	}
	if len(comps) == 0 {
		return nil, 0
	}
	n := len(g.keys)
	compOf := make([]int32, n) // component number + 1; 0 outside cycles
	for i, c := range comps {
		for _, v := range c {
			compOf[v] = int32(i + 1)
		}
	}
	parent := make([]int32, n)
	seen := make([]int32, n) // BFS stamp
	covered := make([]bool, n)
	stamp := int32(0)
	var paths [][]int32
	omitted := 0
	for ci, comp := range comps {
		found := 0
		for _, s := range comp { // comp is sorted by id
			if covered[s] {
				continue
			}
			if found == maxCyclesPerComponent {
				omitted++
				continue
			}
			stamp++
			p := g.shortestCycle(s, int32(ci+1), compOf, parent, seen, stamp)
			for _, v := range p {
				covered[v] = true
			}
			paths = append(paths, p)
			found++
		}
	}
	slices.SortStableFunc(paths, func(a, b []int32) int { return int(a[0]) - int(b[0]) })
	out := make([][]K, len(paths))
	for i, p := range paths {
		out[i] = g.keysOf(p)
	}
	return out, omitted
}

// shortestCycle finds, by breadth-first search inside component comp, the
// shortest path from s back to s, returned closed (s first and last).
func (g *Graph[K]) shortestCycle(s, comp int32, compOf, parent, seen []int32, stamp int32) []int32 {
	queue := []int32{s}
	seen[s] = stamp
	for head := 0; head < len(queue); head++ {
		x := queue[head]
		for _, w := range g.down[x] {
			if compOf[w] != comp || w == x {
				continue // self references are reported apart
			}
			if w == s {
				var path []int32
				for v := x; v != s; v = parent[v] {
					path = append(path, v)
				}
				path = append(path, s)
				slices.Reverse(path)
				return append(path, s)
			}
			if seen[w] != stamp {
				seen[w] = stamp
				parent[w] = x
				queue = append(queue, w)
			}
		}
	}
	return []int32{s, s} // unreachable for a component of two or more
}

// acyclic reports whether g has no cycle (self references included) with
// Kahn's algorithm: cheaper than Tarjan, which only runs once this says
// there is a cycle to describe. O(V+E).
func (g *Graph[K]) acyclic() bool {
	pending := make([]int32, len(g.keys))
	var stack []int32
	for id := range g.keys {
		if g.alive[id] {
			pending[id] = int32(len(g.down[id]))
			if pending[id] == 0 {
				stack = append(stack, int32(id))
			}
		}
	}
	done := 0
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		done++
		for _, u := range g.up[v] {
			pending[u]--
			if pending[u] == 0 {
				stack = append(stack, u)
			}
		}
	}
	return done == g.Len()
}
