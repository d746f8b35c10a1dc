package dag

import (
	"sync"

	"github.com/hashicorp/hcl/v2"
)

// Status is the outcome of one vertex of a Walk.
type Status uint8

const (
	// StatusSucceeded: the callback ran and returned no errors.
	StatusSucceeded Status = iota + 1
	// StatusFailed: the callback returned errors (or a cycle kept the
	// vertex from running).
	StatusFailed
	// StatusUpstreamFailed: not run because a vertex it waits for failed.
	StatusUpstreamFailed
	// StatusCancelled: not run because the walk's context was cancelled.
	StatusCancelled
)

func (s Status) String() string {
	switch s {
	case StatusSucceeded:
		return "succeeded"
	case StatusFailed:
		return "failed"
	case StatusUpstreamFailed:
		return "upstream failed"
	case StatusCancelled:
		return "cancelled"
	}
	return "not walked"
}

// VertexResult is what Walk recorded for one vertex.
type VertexResult[K comparable] struct {
	Status Status
	// Diagnostics are the callback's (warnings included), or the
	// "Upstream failed" error of a vertex that was not run.
	Diagnostics hcl.Diagnostics
	// FailedDependency, for StatusUpstreamFailed, is the failed vertex
	// that kept this one from running: of all the failures upstream, the
	// one inserted first into the graph, so it is deterministic.
	FailedDependency K
}

// WalkResult holds the outcome of every vertex of a Walk.
type WalkResult[K comparable] struct {
	keys      []K
	results   []VertexResult[K]
	cancelled bool
	offs      []int32
	succ      []int32
	preds     []int32

	indexOnce sync.Once
	index     map[K]int32
	orderOnce sync.Once
	order     []int32
}

// Len returns the number of vertices walked.
func (r *WalkResult[K]) Len() int { return len(r.keys) }

// Result returns the outcome of v, and false if v was not in the graph.
// The first call builds an index, O(V).
func (r *WalkResult[K]) Result(v K) (VertexResult[K], bool) {
	r.indexOnce.Do(func() {
		r.index = make(map[K]int32, len(r.keys))
		for i, k := range r.keys {
			r.index[k] = int32(i)
		}
	})
	i, ok := r.index[v]
	if !ok {
		return VertexResult[K]{}, false
	}
	return r.results[i], true
}

// Status returns the status of v, zero if v was not walked.
func (r *WalkResult[K]) Status(v K) Status {
	res, _ := r.Result(v)
	return res.Status
}

// Failed reports whether any vertex did not succeed: it failed, was not
// run after an upstream failure, or was cancelled.
func (r *WalkResult[K]) Failed() bool {
	for i := range r.results {
		if r.results[i].Status != StatusSucceeded {
			return true
		}
	}
	return false
}

// Cancelled reports whether the walk's context was cancelled before every
// vertex was dispatched.
func (r *WalkResult[K]) Cancelled() bool { return r.cancelled }

// Vertices returns the walked vertices in the deterministic order of the
// walk's direction: TopologicalOrder for a forward walk,
// ReverseTopologicalOrder for a reverse one (ties by insertion order);
// vertices held back by a cycle come last in insertion order.
// O((V+E) log V) once.
func (r *WalkResult[K]) Vertices() []K {
	order := r.topo()
	out := make([]K, len(order))
	for i, v := range order {
		out[i] = r.keys[v]
	}
	return out
}

// Diagnostics returns the diagnostics the callbacks reported (errors and
// warnings), vertex by vertex in the order of Vertices. The "Upstream
// failed" diagnostics of vertices that were not run are left out, as the
// failure that caused them is already there; read them with Result. A
// cancelled walk may have no error here: check Failed or Cancelled.
func (r *WalkResult[K]) Diagnostics() hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, v := range r.topo() {
		if res := &r.results[v]; res.Status != StatusUpstreamFailed {
			out = append(out, res.Diagnostics...)
		}
	}
	return out
}

// topo is Kahn's algorithm over the walk's snapshot, ties by index.
func (r *WalkResult[K]) topo() []int32 {
	r.orderOnce.Do(func() {
		n := len(r.keys)
		pending := append([]int32(nil), r.preds...)
		var ready idHeap
		for i, p := range pending {
			if p == 0 {
				ready = append(ready, int32(i))
			}
		}
		order := make([]int32, 0, n)
		for len(ready) > 0 {
			v := ready.pop()
			order = append(order, v)
			for _, s := range r.succ[r.offs[v]:r.offs[v+1]] {
				pending[s]--
				if pending[s] == 0 {
					ready.push(s)
				}
			}
		}
		if len(order) < n {
			placed := make([]bool, n)
			for _, v := range order {
				placed[v] = true
			}
			for i := range n {
				if !placed[i] {
					order = append(order, int32(i))
				}
			}
		}
		r.order = order
	})
	return r.order
}
