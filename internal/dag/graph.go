package dag

import (
	"fmt"
	"slices"
	"strings"
)

// Graph is a directed graph of comparable vertices. Connect(a, b) records
// that a depends on b: b happens before a. The down edges of a vertex are
// its dependencies, the up edges its dependents.
//
// Vertices are stored under dense int32 ids in insertion order, with
// adjacency kept as slices, so every whole-graph algorithm in this package
// runs in O(V+E) with small constants. Removing a vertex leaves a tombstone
// that is compacted away once tombstones outnumber live vertices.
//
// The zero value is an empty graph ready to use. A Graph is not safe for
// concurrent mutation; Walk takes a snapshot, so the graph may be reused
// (or mutated) once Walk returns.
type Graph[K comparable] struct {
	// Name gives the display name of a vertex, used by String, Dot and
	// error messages. Nil means fmt.Sprint.
	Name func(K) string

	ids   map[K]int32
	keys  []K       // id -> key; zero value once removed
	alive []bool    // id -> still in the graph
	down  [][]int32 // id -> dependencies, in the order the edges were added
	up    [][]int32 // id -> dependents, in the order the edges were added
	dead  int       // tombstones in keys
	edges int
	arena []int32 // backing store for the first two entries of new lists
}

// Edge is one dependency: From depends on To (To happens before From).
type Edge[K comparable] struct {
	From, To K
}

// New returns an empty graph whose vertices are named by name (nil means
// fmt.Sprint).
func New[K comparable](name func(K) string) *Graph[K] {
	return &Graph[K]{Name: name}
}

// name returns the display name of v.
func (g *Graph[K]) name(v K) string {
	if g.Name != nil {
		return g.Name(v)
	}
	return fmt.Sprint(v)
}

// Grow reserves room for n more vertices, sparing the rehashing and
// copying of a graph built one vertex at a time.
func (g *Graph[K]) Grow(n int) {
	if len(g.ids) == 0 {
		g.ids = make(map[K]int32, n)
	}
	g.keys = slices.Grow(g.keys, n)
	g.alive = slices.Grow(g.alive, n)
	g.down = slices.Grow(g.down, n)
	g.up = slices.Grow(g.up, n)
}

// Add inserts v and reports whether it was new. O(1) amortized.
func (g *Graph[K]) Add(v K) bool {
	if _, ok := g.ids[v]; ok {
		return false
	}
	g.add(v)
	return true
}

// add inserts v, known to be absent, and returns its id.
func (g *Graph[K]) add(v K) int32 {
	if g.ids == nil {
		g.ids = make(map[K]int32)
	}
	id := int32(len(g.keys))
	g.ids[v] = id
	g.keys = append(g.keys, v)
	g.alive = append(g.alive, true)
	g.down = append(g.down, nil)
	g.up = append(g.up, nil)
	return id
}

// id returns the id of v, adding v when it is absent.
func (g *Graph[K]) id(v K) int32 {
	if id, ok := g.ids[v]; ok {
		return id
	}
	return g.add(v)
}

// Has reports whether v is in the graph.
func (g *Graph[K]) Has(v K) bool {
	_, ok := g.ids[v]
	return ok
}

// Len returns the number of vertices.
func (g *Graph[K]) Len() int { return len(g.keys) - g.dead }

// EdgeCount returns the number of edges.
func (g *Graph[K]) EdgeCount() int { return g.edges }

// Remove deletes v and every edge touching it, and reports whether v was
// present. O(sum of the degrees of v's neighbours).
func (g *Graph[K]) Remove(v K) bool {
	id, ok := g.ids[v]
	if !ok {
		return false
	}
	for _, d := range g.down[id] {
		if d != id {
			g.up[d] = deleteID(g.up[d], id)
		}
	}
	for _, u := range g.up[id] {
		if u != id {
			g.down[u] = deleteID(g.down[u], id)
		}
	}
	g.edges -= len(g.down[id]) + len(g.up[id])
	if slices.Contains(g.down[id], id) {
		g.edges++ // a self edge sits in both lists
	}
	delete(g.ids, v)
	var zero K
	g.keys[id] = zero
	g.alive[id] = false
	g.down[id], g.up[id] = nil, nil
	g.dead++
	if g.dead > 64 && g.dead > len(g.keys)/2 {
		g.compact()
	}
	return true
}

// compact drops tombstones, renumbering the live vertices in their order.
// O(V+E).
func (g *Graph[K]) compact() {
	remap := make([]int32, len(g.keys))
	n := int32(0)
	for id := range g.keys {
		if g.alive[id] {
			remap[id] = n
			n++
		}
	}
	keys := make([]K, 0, n)
	down := make([][]int32, 0, n)
	up := make([][]int32, 0, n)
	for id, k := range g.keys {
		if !g.alive[id] {
			continue
		}
		for i, d := range g.down[id] {
			g.down[id][i] = remap[d]
		}
		for i, u := range g.up[id] {
			g.up[id][i] = remap[u]
		}
		g.ids[k] = remap[id]
		keys = append(keys, k)
		down = append(down, g.down[id])
		up = append(up, g.up[id])
	}
	g.keys, g.down, g.up = keys, down, up
	g.alive = make([]bool, n)
	for i := range g.alive {
		g.alive[i] = true
	}
	g.dead = 0
}

// deleteID removes the first x from s, keeping order.
func deleteID(s []int32, x int32) []int32 {
	if i := slices.Index(s, x); i >= 0 {
		return slices.Delete(s, i, i+1)
	}
	return s
}

// Connect records that a depends on b (b happens before a), adding either
// vertex if absent, and reports whether the edge was new. A self edge
// (a == b) is stored so that Validate can report it. The duplicate check
// scans the shorter of a's dependencies and b's dependents.
func (g *Graph[K]) Connect(a, b K) bool {
	ia, ib := g.id(a), g.id(b)
	if g.hasEdge(ia, ib) {
		return false
	}
	g.down[ia] = g.appendID(g.down[ia], ib)
	g.up[ib] = g.appendID(g.up[ib], ia)
	g.edges++
	return true
}

// appendID appends x to list. A list's first entry is carved, with room
// for a second, out of a shared arena, so that building a graph of mostly
// low-degree vertices costs a few large allocations instead of two per
// vertex; longer lists grow by append as usual.
func (g *Graph[K]) appendID(list []int32, x int32) []int32 {
	if cap(list) > 0 {
		return append(list, x)
	}
	if cap(g.arena)-len(g.arena) < 2 {
		g.arena = make([]int32, 0, 4096)
	}
	n := len(g.arena)
	g.arena = g.arena[:n+2]
	list = g.arena[n : n+1 : n+2]
	list[0] = x
	return list
}

func (g *Graph[K]) hasEdge(ia, ib int32) bool {
	if len(g.down[ia]) <= len(g.up[ib]) {
		return slices.Contains(g.down[ia], ib)
	}
	return slices.Contains(g.up[ib], ia)
}

// Disconnect removes the edge "a depends on b" and reports whether it
// existed.
func (g *Graph[K]) Disconnect(a, b K) bool {
	ia, oka := g.ids[a]
	ib, okb := g.ids[b]
	if !oka || !okb || !g.hasEdge(ia, ib) {
		return false
	}
	g.down[ia] = deleteID(g.down[ia], ib)
	g.up[ib] = deleteID(g.up[ib], ia)
	g.edges--
	return true
}

// HasEdge reports whether a depends directly on b.
func (g *Graph[K]) HasEdge(a, b K) bool {
	ia, oka := g.ids[a]
	ib, okb := g.ids[b]
	return oka && okb && g.hasEdge(ia, ib)
}

// Vertices returns the vertices in insertion order. O(V).
func (g *Graph[K]) Vertices() []K {
	out := make([]K, 0, g.Len())
	for id, k := range g.keys {
		if g.alive[id] {
			out = append(out, k)
		}
	}
	return out
}

// DownEdges returns the direct dependencies of v, in the order the edges
// were added.
func (g *Graph[K]) DownEdges(v K) []K {
	id, ok := g.ids[v]
	if !ok {
		return nil
	}
	return g.keysOf(g.down[id])
}

// UpEdges returns the direct dependents of v, in the order the edges were
// added.
func (g *Graph[K]) UpEdges(v K) []K {
	id, ok := g.ids[v]
	if !ok {
		return nil
	}
	return g.keysOf(g.up[id])
}

func (g *Graph[K]) keysOf(ids []int32) []K {
	out := make([]K, len(ids))
	for i, id := range ids {
		out[i] = g.keys[id]
	}
	return out
}

// Edges returns every edge, grouped by dependent in insertion order and
// then in the order the edges were added. O(V+E).
func (g *Graph[K]) Edges() []Edge[K] {
	out := make([]Edge[K], 0, g.edges)
	for id, k := range g.keys {
		for _, d := range g.down[id] {
			out = append(out, Edge[K]{From: k, To: g.keys[d]})
		}
	}
	return out
}

// Roots returns the vertices nothing depends on, in insertion order.
// Terraform's graphs hang from exactly one such root. O(V).
func (g *Graph[K]) Roots() []K {
	var out []K
	for id, k := range g.keys {
		if g.alive[id] && len(g.up[id]) == 0 {
			out = append(out, k)
		}
	}
	return out
}

// Copy returns an independent copy of g with the same vertex order, edge
// order and naming function. O(V+E).
func (g *Graph[K]) Copy() *Graph[K] {
	c := &Graph[K]{Name: g.Name, edges: g.edges}
	remap := make([]int32, len(g.keys))
	for id, k := range g.keys {
		if g.alive[id] {
			remap[id] = c.add(k)
		}
	}
	mapped := func(ids []int32) []int32 {
		out := make([]int32, len(ids))
		for i, x := range ids {
			out[i] = remap[x]
		}
		return out
	}
	for id := range g.keys {
		if g.alive[id] {
			c.down[remap[id]] = mapped(g.down[id])
			c.up[remap[id]] = mapped(g.up[id])
		}
	}
	return c
}

// sortedByName returns the live ids ordered by display name, ties broken
// by insertion order, together with the names indexed by id.
func (g *Graph[K]) sortedByName() ([]int32, []string) {
	names := make([]string, len(g.keys))
	ids := make([]int32, 0, g.Len())
	for id, k := range g.keys {
		if g.alive[id] {
			names[id] = g.name(k)
			ids = append(ids, int32(id))
		}
	}
	slices.SortStableFunc(ids, func(a, b int32) int { return strings.Compare(names[a], names[b]) })
	return ids, names
}

// String renders the graph for tests and debugging: each vertex on its own
// line, sorted by name, followed by its dependencies indented by two
// spaces, also sorted by name. The output does not depend on insertion
// order except among vertices with equal names. O((V+E) log V).
func (g *Graph[K]) String() string {
	ids, names := g.sortedByName()
	var b strings.Builder
	var deps []string
	for _, id := range ids {
		b.WriteString(names[id])
		b.WriteByte('\n')
		deps = deps[:0]
		for _, d := range g.down[id] {
			deps = append(deps, names[d])
		}
		slices.Sort(deps)
		for _, d := range deps {
			b.WriteString("  ")
			b.WriteString(d)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
