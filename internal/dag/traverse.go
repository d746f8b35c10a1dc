package dag

// Ancestors returns every vertex that one of vs depends on, directly or
// transitively: everything that must happen before them. A vertex of vs is
// included only if another one (or a cycle) leads back to it. Vertices not
// in g are ignored. The result is in insertion order. O(V+E).
func (g *Graph[K]) Ancestors(vs ...K) []K { return g.reach(g.down, vs) }

// Descendants returns every vertex that depends on one of vs, directly or
// transitively: everything that must happen after them. Same rules and
// cost as Ancestors.
func (g *Graph[K]) Descendants(vs ...K) []K { return g.reach(g.up, vs) }

func (g *Graph[K]) reach(adj [][]int32, vs []K) []K {
	seen := make([]bool, len(g.keys))
	var stack []int32
	for _, v := range vs {
		if id, ok := g.ids[v]; ok {
			stack = append(stack, adj[id]...)
		}
	}
	var found []int32
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		found = append(found, x)
		stack = append(stack, adj[x]...)
	}
	sortIDs(found)
	return g.keysOf(found)
}

// DepthFirstWalk visits start and everything they depend on, depth first
// in pre-order: a vertex, then each of its dependencies (in edge order)
// with all of theirs before the next. fn gets each vertex once, with the
// length of the path by which it was first reached (start vertices have
// depth 0). A non-nil error from fn stops the walk and is returned.
// Iterative, O(V+E).
func (g *Graph[K]) DepthFirstWalk(start []K, fn func(v K, depth int) error) error {
	return g.depthFirst(g.down, start, fn)
}

// ReverseDepthFirstWalk is DepthFirstWalk following dependents instead of
// dependencies.
func (g *Graph[K]) ReverseDepthFirstWalk(start []K, fn func(v K, depth int) error) error {
	return g.depthFirst(g.up, start, fn)
}

// BreadthFirstWalk visits start and everything they depend on in order of
// distance: fn gets each vertex once with the length of the shortest path
// to it from a start vertex. A non-nil error from fn stops the walk and
// is returned. O(V+E).
func (g *Graph[K]) BreadthFirstWalk(start []K, fn func(v K, depth int) error) error {
	return g.breadthFirst(g.down, start, fn)
}

// ReverseBreadthFirstWalk is BreadthFirstWalk following dependents
// instead of dependencies.
func (g *Graph[K]) ReverseBreadthFirstWalk(start []K, fn func(v K, depth int) error) error {
	return g.breadthFirst(g.up, start, fn)
}

type atDepth struct {
	v     int32
	depth int
}

func (g *Graph[K]) depthFirst(adj [][]int32, start []K, fn func(K, int) error) error {
	seen := make([]bool, len(g.keys))
	var stack []atDepth
	for i := len(start) - 1; i >= 0; i-- {
		if id, ok := g.ids[start[i]]; ok {
			stack = append(stack, atDepth{id, 0})
		}
	}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[cur.v] {
			continue
		}
		seen[cur.v] = true
		if err := fn(g.keys[cur.v], cur.depth); err != nil {
			return err
		}
		next := adj[cur.v]
		for i := len(next) - 1; i >= 0; i-- {
			if !seen[next[i]] {
				stack = append(stack, atDepth{next[i], cur.depth + 1})
			}
		}
	}
	return nil
}

func (g *Graph[K]) breadthFirst(adj [][]int32, start []K, fn func(K, int) error) error {
	seen := make([]bool, len(g.keys))
	var queue []atDepth
	for _, v := range start {
		if id, ok := g.ids[v]; ok && !seen[id] {
			seen[id] = true
			queue = append(queue, atDepth{id, 0})
		}
	}
	for head := 0; head < len(queue); head++ {
		cur := queue[head]
		if err := fn(g.keys[cur.v], cur.depth); err != nil {
			return err
		}
		for _, w := range adj[cur.v] {
			if !seen[w] {
				seen[w] = true
				queue = append(queue, atDepth{w, cur.depth + 1})
			}
		}
	}
	return nil
}
