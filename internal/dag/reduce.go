package dag

import (
	"cmp"
	"slices"
)

// reduceBudgetWords bounds the reachability bitsets of TransitiveReduction
// to 64 MiB (8 Mi words): a block holds as many target columns as fit.
const reduceBudgetWords = 8 << 20

// TransitiveReduction removes every edge a→c for which another path from
// a to c exists (through a→b→…→c), which keeps reachability and so the
// order of any walk, with the fewest edges. It returns the acyclicity
// error of Validate (and leaves g unchanged) when g has a cycle.
//
// The algorithm avoids the O(V·(V+E)) depth-first search per vertex of
// Terraform's design:
//
//   - Let h(v) be the longest path from v down to a vertex without
//     dependencies, and pos(v) its topological position. A path of length
//     two or more from b to c needs h(b) > h(c) and pos(b) > pos(c). An
//     edge a→c is a candidate only when a has at least two dependencies
//     and some dependency b of a passes both tests against c; vertices
//     with out-degree ≤ 1 are skipped outright. Chains and layered graphs
//     whose edges all span one layer have no candidate and cost O(V+E).
//   - The candidate targets, in topological order, are processed in
//     blocks of B ≥ 64 columns. For a block, one pass over the vertices
//     from the block's first target to its last candidate source builds
//     each vertex's reachability bitset over the block's columns as the
//     OR of its dependencies' bitsets, and an edge a→c is redundant iff
//     c's bit is already set by a dependency of a. Vertices whose bitset
//     is empty are never read or written.
//
// With C candidate targets the cost is O((V+E)·log V) for the order plus
// O(⌈C/B⌉·(V + E·B/64)) word operations for the blocks, that is about
// C·E/64 in the worst case; memory is O(V+E) plus at most 64 MiB of
// bitsets (B is chosen so that V·B/8 bytes fit; only the span of
// positions a block touches is allocated).
func (g *Graph[K]) TransitiveReduction() error {
	return g.transitiveReduction(reduceBudgetWords)
}

// transitiveReduction bounds the bitsets to budget words.
func (g *Graph[K]) transitiveReduction(budget int) error {
	order, ok := g.topo(false)
	if !ok {
		return g.acyclicErr()
	}
	targets, pos, maxSrc := g.reductionCandidates(order)
	if len(targets) == 0 {
		return nil
	}
	removed := g.redundantEdges(order, pos, targets, maxSrc, budget)
	g.removeEdges(removed)
	return nil
}

// reductionCandidates returns the candidate targets sorted by topological
// position, the position of every vertex, and for each candidate target
// the highest position of a vertex with a candidate edge to it (-1 for
// vertices that are not targets).
func (g *Graph[K]) reductionCandidates(order []int32) (targets, pos, maxSrc []int32) {
	n := len(g.keys)
	pos = make([]int32, n)
	height := make([]int32, n)
	maxSrc = make([]int32, n)
	for i, v := range order {
		pos[v] = int32(i)
		maxSrc[v] = -1
		for _, d := range g.down[v] {
			height[v] = max(height[v], height[d]+1)
		}
	}
	for _, u := range order {
		deps := g.down[u]
		if len(deps) < 2 {
			continue
		}
		maxH, maxP := int32(-1), int32(-1)
		for _, d := range deps {
			maxH, maxP = max(maxH, height[d]), max(maxP, pos[d])
		}
		for _, d := range deps {
			if height[d] < maxH && pos[d] < maxP {
				if maxSrc[d] < 0 {
					targets = append(targets, d)
				}
				maxSrc[d] = max(maxSrc[d], pos[u])
			}
		}
	}
	slices.SortFunc(targets, func(a, b int32) int { return cmp.Compare(pos[a], pos[b]) })
	return targets, pos, maxSrc
}

// redundantEdges finds the redundant edges into the candidate targets,
// block by block, as [dependent, dependency] pairs.
func (g *Graph[K]) redundantEdges(order, pos, targets, maxSrc []int32, budget int) [][2]int32 {
	n := len(g.keys)
	w := (len(targets) + 63) / 64 // words per bitset row
	w = max(1, min(w, budget/max(n, 1)))
	width := 64 * w
	// A block spans the positions from its first target to its last
	// candidate source; rows are needed for that span only.
	span := 0
	for start := 0; start < len(targets); start += width {
		block := targets[start:min(start+width, len(targets))]
		hi := int32(0)
		for _, t := range block {
			hi = max(hi, maxSrc[t])
		}
		span = max(span, int(hi-pos[block[0]])+1)
	}
	rows := make([]uint64, span*w) // row of position p: rows[(p-lo)*w:][:w]
	col := make([]int32, n)        // column of a target in the current block, or -1
	for i := range col {
		col[i] = -1
	}
	nonzero := make([]bool, n)
	var removed [][2]int32
	for start := 0; start < len(targets); start += width {
		block := targets[start:min(start+width, len(targets))]
		lo, hi := pos[block[0]], int32(0)
		for j, t := range block {
			col[t] = int32(j)
			hi = max(hi, maxSrc[t])
		}
		for p := lo; p <= hi; p++ {
			x := order[p]
			row := rows[int(p-lo)*w : int(p-lo+1)*w]
			deps := g.down[x]
			have := false
			for _, y := range deps {
				if !nonzero[y] {
					continue
				}
				ry := rows[int(pos[y]-lo)*w : int(pos[y]-lo+1)*w]
				if !have {
					copy(row, ry)
					have = true
					continue
				}
				for k := range row {
					row[k] |= ry[k]
				}
			}
			if have && len(deps) >= 2 {
				for _, y := range deps {
					if c := col[y]; c >= 0 && row[c>>6]&(1<<(c&63)) != 0 {
						removed = append(removed, [2]int32{x, y})
					}
				}
			}
			for _, y := range deps {
				if c := col[y]; c >= 0 {
					if !have {
						clear(row)
						have = true
					}
					row[c>>6] |= 1 << (c & 63)
				}
			}
			nonzero[x] = have
		}
		for p := lo; p <= hi; p++ {
			nonzero[order[p]] = false
		}
		for _, t := range block {
			col[t] = -1
		}
	}
	return removed
}

// removeEdges deletes the given [dependent, dependency] edges, keeping
// the order of the remaining edges. O(V+E+R log R).
func (g *Graph[K]) removeEdges(removed [][2]int32) {
	mark := make([]int32, len(g.keys)) // stamp: owner id + 1
	filter := func(lists [][]int32, owner, other int) {
		slices.SortFunc(removed, func(a, b [2]int32) int { return cmp.Compare(a[owner], b[owner]) })
		for i := 0; i < len(removed); {
			o := removed[i][owner]
			for ; i < len(removed) && removed[i][owner] == o; i++ {
				mark[removed[i][other]] = o + 1
			}
			lists[o] = slices.DeleteFunc(lists[o], func(x int32) bool { return mark[x] == o+1 })
		}
	}
	filter(g.down, 0, 1)
	clear(mark)
	filter(g.up, 1, 0)
	g.edges -= len(removed)
}
