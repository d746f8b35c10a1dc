package dag

// TopologicalOrder returns the vertices with every dependency before its
// dependents. Among vertices that are ready at the same time the one
// inserted first comes first, so the order is the same for the same graph
// (it is the lexicographically smallest order by insertion index). It
// returns an error from Validate's family (*CycleError,
// *SelfReferenceError) when g has a cycle. O((V+E) log V) with Kahn's
// algorithm and a heap of ready vertices.
func (g *Graph[K]) TopologicalOrder() ([]K, error) {
	ids, ok := g.topo(false)
	if !ok {
		return nil, g.acyclicErr()
	}
	return g.keysOf(ids), nil
}

// ReverseTopologicalOrder returns the vertices with every dependent before
// its dependencies, the order a destroy runs in; ties are broken by
// insertion order as in TopologicalOrder. O((V+E) log V).
func (g *Graph[K]) ReverseTopologicalOrder() ([]K, error) {
	ids, ok := g.topo(true)
	if !ok {
		return nil, g.acyclicErr()
	}
	return g.keysOf(ids), nil
}

// topo runs Kahn's algorithm and reports false when a cycle kept some
// vertices out of the order. reverse orders dependents first.
func (g *Graph[K]) topo(reverse bool) ([]int32, bool) {
	before, after := g.down, g.up
	if reverse {
		before, after = after, before
	}
	pending := make([]int32, len(g.keys))
	var ready idHeap
	for id := range g.keys {
		if !g.alive[id] {
			continue
		}
		pending[id] = int32(len(before[id]))
		if pending[id] == 0 {
			ready = append(ready, int32(id)) // ascending ids form a valid heap
		}
	}
	order := make([]int32, 0, g.Len())
	for len(ready) > 0 {
		v := ready.pop()
		order = append(order, v)
		for _, w := range after[v] {
			pending[w]--
			if pending[w] == 0 {
				ready.push(w)
			}
		}
	}
	return order, len(order) == g.Len()
}
