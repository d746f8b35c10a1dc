package terraform

import (
	"sync"

	"github.com/plankit/plankit/addrs"
)

// pendingUpstreamTransformer prepares, for every data source, the answer
// to "does a resource I depend on have a pending change?", which defers
// its read to apply. As in Terraform, a dependency counts directly when it
// is a resource (its own change), and through everything upstream when it
// is anything else (a local, variable, output or module call: any
// resource behind it, however far). Each data source node holds its entry;
// the entries form the dependency graph of the data sources' ancestors.
// When a data source runs, everything upstream has run, and its entry
// settles, each entry once from its direct dependencies' (shared by every
// data source above it), so the whole costs O(V+E) once rather than a
// search per data source (which would be quadratic on a chain). Only the
// ancestors of data sources get an entry; provider configurations are not
// followed.
type pendingUpstreamTransformer struct{}

// upstreamEntry is one node's place in the propagation. Its flags are
// computed once (settle), by the first data source downstream that runs:
// by then the node and everything above it have run.
type upstreamEntry struct {
	once sync.Once
	res  *nodeResource    // the node itself, when it is a resource
	deps []*upstreamEntry // its direct dependencies (providers left out)
	// up: some resource among the node's ancestors has a pending change.
	up bool
	// direct: a direct resource dependency has a pending change, or some
	// other direct dependency has one upstream (what a data source asks).
	direct bool
}

func (pendingUpstreamTransformer) Transform(g *Graph) error {
	var data []Node
	for _, n := range g.Vertices() {
		if r, ok := n.(*nodeResource); ok && r.block != nil && r.addr.Resource.Mode == addrs.DataResourceMode {
			data = append(data, n)
		}
	}
	if len(data) == 0 {
		return nil
	}
	nodes := append(g.Ancestors(data...), data...)
	entries := make(map[Node]*upstreamEntry, len(nodes))
	for _, n := range nodes {
		if isProviderNode(n) {
			continue
		}
		e := &upstreamEntry{}
		if r, ok := n.(*nodeResource); ok {
			e.res = r
		}
		entries[n] = e
	}
	for n, e := range entries {
		for _, d := range g.DownEdges(n) {
			if de := entries[d]; de != nil {
				e.deps = append(e.deps, de)
			}
		}
	}
	for _, n := range data {
		n.(*nodeResource).upstream = entries[n]
	}
	return nil
}

func isProviderNode(n Node) bool {
	switch n.(type) {
	case *nodeProvider, *nodeProviderClose:
		return true
	}
	return false
}

// settle computes e's flags from its dependencies', settling them first,
// once per entry whoever asks (concurrent data sources share entries).
// Every node behind e must have run. O(len(e.deps)) per entry.
func (e *upstreamEntry) settle() {
	e.once.Do(func() {
		for _, d := range e.deps {
			d.settle()
			changed := d.res != nil && d.res.pending.Load()
			e.up = e.up || changed || d.up
			if d.res != nil {
				e.direct = e.direct || changed
			} else {
				e.direct = e.direct || d.up
			}
		}
	})
}
