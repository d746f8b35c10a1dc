package dag

// StronglyConnected returns the strongly connected components of g with
// Tarjan's algorithm, run iteratively (an explicit call stack) so that a
// chain of millions of vertices cannot overflow the goroutine stack.
// Every vertex is in exactly one component; a component of more than one
// vertex is a cycle. Components come in the order Tarjan completes them,
// which puts dependencies before their dependents; the members of each
// component are in insertion order. O(V+E) time, O(V) space.
func (g *Graph[K]) StronglyConnected() [][]K {
	flat, ends := g.scc()
	out := make([][]K, len(ends))
	keys := g.keysOf(flat) // one allocation for all the components
	start := int32(0)
	for i, end := range ends {
		out[i] = keys[start:end:end]
		start = end
	}
	return out
}

// sccFrame is one level of the explicit depth-first call stack.
type sccFrame struct {
	v    int32 // vertex being explored
	next int32 // index of the next dependency of v to look at
}

// scc returns the components, each sorted by id, in completion order, laid
// end to end in flat: component i is flat[ends[i-1]:ends[i]].
func (g *Graph[K]) scc() (flat, ends []int32) {
	n := len(g.keys)
	index := make([]int32, n) // 0 means not yet visited
	low := make([]int32, n)
	onStack := make([]bool, n)
	var stack []int32
	var calls []sccFrame
	flat = make([]int32, 0, g.Len())
	counter := int32(0)
	visit := func(v int32) {
		counter++
		index[v], low[v] = counter, counter
		stack = append(stack, v)
		onStack[v] = true
		calls = append(calls, sccFrame{v: v})
	}
	for s := range n {
		if !g.alive[s] || index[s] != 0 {
			continue
		}
		visit(int32(s))
		for len(calls) > 0 {
			top := len(calls) - 1
			v := calls[top].v
			if deps := g.down[v]; int(calls[top].next) < len(deps) {
				w := deps[calls[top].next]
				calls[top].next++
				if index[w] == 0 {
					visit(w)
				} else if onStack[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			calls = calls[:top]
			if top > 0 {
				if p := calls[top-1].v; low[v] < low[p] {
					low[p] = low[v]
				}
			}
			if low[v] != index[v] {
				continue
			}
			i := len(stack) - 1
			for stack[i] != v {
				i--
			}
			start := len(flat)
			flat = append(flat, stack[i:]...)
			for _, w := range stack[i:] {
				onStack[w] = false
			}
			stack = stack[:i]
			sortIDs(flat[start:])
			ends = append(ends, int32(len(flat)))
		}
	}
	return flat, ends
}
