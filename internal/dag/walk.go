package dag

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"
)

// DefaultParallelism is the number of callbacks Walk runs at once when
// WalkOptions.Parallelism is not positive, as in Terraform.
const DefaultParallelism = 10

// WalkOptions tunes Walk.
type WalkOptions struct {
	// Parallelism is the most callbacks running at once; ≤ 0 means
	// DefaultParallelism.
	Parallelism int
	// Reverse runs each vertex after all its dependents instead of after
	// all its dependencies: the order of a destroy.
	Reverse bool
}

// Walk calls fn once per vertex of g, at most opts.Parallelism at a time,
// starting a vertex only when every vertex it waits for (its dependencies,
// or its dependents when opts.Reverse) finished successfully. A vertex
// fails when its diagnostics HasErrors; the vertices waiting on it,
// transitively, are then not run and get StatusUpstreamFailed with a
// diagnostic naming the failed vertex, while independent branches go on.
//
// Cancelling ctx stops dispatching: Walk waits for the running callbacks
// (which receive ctx and should return promptly) and gives every vertex
// not started StatusCancelled. Vertices held back by a cycle get
// StatusFailed; call Validate first to report cycles properly.
//
// Walk works on a snapshot of g taken before any callback runs, so later
// changes to g (by the caller once Walk returns, or by a callback
// synchronised with any other user of g) do not affect it. It keeps no global state and may be called from inside a
// callback of another walk (a nested walk has its own workers and its own
// parallelism). The scheduler is a ready queue (a heap: among ready
// vertices the earliest inserted goes first, so a walk with parallelism 1
// follows TopologicalOrder) fed by pending-dependency counts, drained by
// a fixed pool of workers under one mutex: O(V+E) plus O(log V) per
// vertex, no goroutine per vertex. fn is not protected from panics.
func Walk[K comparable](ctx context.Context, g *Graph[K], opts WalkOptions, fn func(context.Context, K) hcl.Diagnostics) *WalkResult[K] {
	w := newWalker(ctx, g, opts, fn)
	if ctx.Err() != nil {
		w.cancelled = true
	}
	stop := context.AfterFunc(ctx, func() {
		w.mu.Lock()
		w.cancelled = true
		w.cond.Broadcast()
		w.mu.Unlock()
	})
	workers := opts.Parallelism
	if workers <= 0 {
		workers = DefaultParallelism
	}
	workers = min(workers, len(w.keys))
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(w.work)
	}
	if workers > 0 {
		w.work()
	}
	wg.Wait()
	stop()
	return w.result()
}

// walker is the shared state of one Walk. Everything below mu is guarded
// by it; res[v] is also written, without the lock, by the one worker
// running v.
type walker[K comparable] struct {
	ctx     context.Context
	fn      func(context.Context, K) hcl.Diagnostics
	name    func(K) string
	reverse bool
	keys    []K     // snapshot index -> vertex, in insertion order
	offs    []int32 // successors of i: succ[offs[i]:offs[i+1]]
	succ    []int32
	preds   []int32 // number of vertices each one waits for

	mu        sync.Mutex
	cond      sync.Cond
	pending   []int32 // preds not finished yet
	blame     []int32 // earliest failed vertex upstream, or -1
	ready     idHeap
	running   int
	idle      int
	cancelled bool
	res       []VertexResult[K]
	worklist  [][2]int32
}

// newWalker snapshots g into compact arrays. O(V+E).
func newWalker[K comparable](ctx context.Context, g *Graph[K], opts WalkOptions, fn func(context.Context, K) hcl.Diagnostics) *walker[K] {
	before, after := g.down, g.up
	if opts.Reverse {
		before, after = after, before
	}
	n := g.Len()
	w := &walker[K]{ctx: ctx, fn: fn, name: g.name, reverse: opts.Reverse}
	w.cond.L = &w.mu
	idx := make([]int32, len(g.keys))
	w.keys = make([]K, 0, n)
	for id, k := range g.keys {
		if g.alive[id] {
			idx[id] = int32(len(w.keys))
			w.keys = append(w.keys, k)
		}
	}
	w.offs = make([]int32, n+1)
	w.succ = make([]int32, 0, g.edges)
	w.preds = make([]int32, n)
	w.pending = make([]int32, n)
	w.blame = make([]int32, n)
	w.res = make([]VertexResult[K], n)
	for id := range g.keys {
		if !g.alive[id] {
			continue
		}
		i := idx[id]
		for _, s := range after[id] {
			w.succ = append(w.succ, idx[s])
		}
		w.offs[i+1] = int32(len(w.succ))
		w.preds[i] = int32(len(before[id]))
		w.pending[i] = w.preds[i]
		w.blame[i] = -1
		if w.preds[i] == 0 {
			w.ready = append(w.ready, i) // ascending: already a heap
		}
	}
	return w
}

// work is one worker: it takes the earliest ready vertex, runs it, and
// records the outcome, until nothing is left that could become ready.
func (w *walker[K]) work() {
	w.mu.Lock()
	for {
		for len(w.ready) == 0 && w.running > 0 && !w.cancelled {
			w.idle++
			w.cond.Wait()
			w.idle--
		}
		if !w.cancelled && w.ctx.Err() != nil {
			w.cancelled = true
		}
		if w.cancelled || len(w.ready) == 0 {
			w.cond.Broadcast() // let the idle workers see it too
			w.mu.Unlock()
			return
		}
		v := w.ready.pop()
		w.running++
		if len(w.ready) > 0 && w.idle > 0 {
			w.cond.Signal() // the woken worker wakes the next one
		}
		w.mu.Unlock()
		diags := w.fn(w.ctx, w.keys[v])
		w.mu.Lock()
		w.running--
		w.complete(v, diags)
	}
}

// complete records v's outcome and releases or fails the vertices waiting
// on it, iteratively through whole failed subtrees. Once the walk is
// cancelled, vertices not started are all left to be cancelled, even
// those downstream of a failure. Called with mu held.
func (w *walker[K]) complete(v int32, diags hcl.Diagnostics) {
	cause := int32(-1)
	w.res[v] = VertexResult[K]{Status: StatusSucceeded, Diagnostics: diags}
	if diags.HasErrors() {
		w.res[v].Status = StatusFailed
		cause = v
	}
	if w.cancelled || w.ctx.Err() != nil {
		w.cancelled = true
		return // nothing more starts; the rest is settled as cancelled
	}
	w.worklist = append(w.worklist[:0], [2]int32{v, cause})
	for len(w.worklist) > 0 {
		x, c := w.worklist[len(w.worklist)-1][0], w.worklist[len(w.worklist)-1][1]
		w.worklist = w.worklist[:len(w.worklist)-1]
		for _, s := range w.succ[w.offs[x]:w.offs[x+1]] {
			if c >= 0 && (w.blame[s] < 0 || c < w.blame[s]) {
				w.blame[s] = c
			}
			w.pending[s]--
			if w.pending[s] != 0 {
				continue
			}
			if b := w.blame[s]; b >= 0 {
				w.res[s] = w.upstreamFailed(s, b)
				w.worklist = append(w.worklist, [2]int32{s, b})
				continue
			}
			w.ready.push(s)
		}
	}
}

// upstreamFailed is the result of s, not run because failed did fail.
func (w *walker[K]) upstreamFailed(s, failed int32) VertexResult[K] {
	relation := "which it depends on"
	if w.reverse {
		relation = "which depends on it"
	}
	return VertexResult[K]{
		Status: StatusUpstreamFailed,
		Diagnostics: hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Upstream failed",
			Detail: fmt.Sprintf("%s was not run because %s, %s, failed.",
				w.name(w.keys[s]), w.name(w.keys[failed]), relation),
		}},
		FailedDependency: w.keys[failed],
	}
}

// result settles the vertices never reached and packs the result.
func (w *walker[K]) result() *WalkResult[K] {
	// The AfterFunc may still be running (stop cannot wait for it).
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := range w.res {
		if w.res[i].Status != 0 {
			continue
		}
		if w.cancelled {
			w.res[i].Status = StatusCancelled
			continue
		}
		w.res[i] = VertexResult[K]{
			Status: StatusFailed,
			Diagnostics: hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Dependency cycle",
				Detail: fmt.Sprintf("%s was not run because it is part of, or waits for, a dependency cycle; Validate names the cycle.",
					w.name(w.keys[i])),
			}},
		}
	}
	return &WalkResult[K]{
		keys: w.keys, results: w.res, cancelled: w.cancelled,
		offs: w.offs, succ: w.succ, preds: w.preds,
	}
}
