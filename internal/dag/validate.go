package dag

import (
	"errors"
	"fmt"
	"strings"
)

// ValidateOptions selects the checks Validate runs beyond the ones it
// always runs (no self references, no cycles).
type ValidateOptions struct {
	// RequireSingleRoot demands exactly one vertex that nothing depends
	// on, as Terraform's plan and apply graphs have.
	RequireSingleRoot bool
}

// Validate checks that g is a DAG Terraform can walk: no vertex depends on
// itself, there are no cycles, and, when asked, exactly one root. Every
// problem found is reported: the result is one of *RootError,
// *SelfReferenceError, *CycleError, or their errors.Join in that order.
// O(V+E) for an acyclic graph.
func (g *Graph[K]) Validate(opts ValidateOptions) error {
	var errs []error
	if opts.RequireSingleRoot {
		if roots := g.Roots(); len(roots) != 1 {
			errs = append(errs, &RootError[K]{Roots: roots, name: g.name})
		}
	}
	return joinErrs(append(errs, g.acyclicErrs()...))
}

// acyclicErr returns nil when g has no self references and no cycles.
func (g *Graph[K]) acyclicErr() error { return joinErrs(g.acyclicErrs()) }

// acyclicErrs returns the *SelfReferenceError and *CycleError describing
// g's cycles, or none when g is acyclic. O(V+E) for an acyclic graph.
func (g *Graph[K]) acyclicErrs() []error {
	if g.acyclic() {
		return nil
	}
	var errs []error
	if self := g.SelfReferences(); len(self) > 0 {
		errs = append(errs, &SelfReferenceError[K]{Vertices: self, name: g.name})
	}
	if cycles, omitted := g.cycles(); len(cycles) > 0 {
		errs = append(errs, &CycleError[K]{Cycles: cycles, Omitted: omitted, name: g.name})
	}
	return errs
}

// joinErrs returns nil, the only error (keeping its concrete type), or the
// errors.Join of several.
func joinErrs(errs []error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return errors.Join(errs...)
}

// SelfReferences returns the vertices that depend on themselves, in
// insertion order. O(V+E).
func (g *Graph[K]) SelfReferences() []K {
	var out []K
	for id, deps := range g.down {
		for _, d := range deps {
			if d == int32(id) {
				out = append(out, g.keys[id])
				break
			}
		}
	}
	return out
}

// RootError reports a graph that does not have exactly one root.
type RootError[K comparable] struct {
	Roots []K // the vertices nothing depends on; none or several
	name  func(K) string
}

func (e *RootError[K]) Error() string {
	if len(e.Roots) == 0 {
		return "no roots found"
	}
	return "multiple roots: " + joinNames(e.Roots, e.name)
}

// SelfReferenceError reports vertices that depend on themselves.
type SelfReferenceError[K comparable] struct {
	Vertices []K
	name     func(K) string
}

// Error gives one "Self reference: v" line per vertex.
func (e *SelfReferenceError[K]) Error() string {
	lines := make([]string, len(e.Vertices))
	for i, v := range e.Vertices {
		lines[i] = "Self reference: " + e.name(v)
	}
	return strings.Join(lines, "\n")
}

// CycleError reports dependency cycles, each as the path a user can
// follow to break it: "Cycle: a, b, c, a" means a depends on b, b on c and
// c on a.
type CycleError[K comparable] struct {
	// Cycles are closed paths (the first vertex is repeated at the end).
	// Together they cover every vertex of every cyclic strongly connected
	// component, unless a component needed more than a hundred cycles.
	Cycles [][]K
	// Omitted counts cyclic vertices left out of Cycles by that cap.
	Omitted int
	name    func(K) string
}

// Error gives one "Cycle: a, b, a" line per cycle.
func (e *CycleError[K]) Error() string {
	lines := make([]string, 0, len(e.Cycles)+1)
	for _, c := range e.Cycles {
		lines = append(lines, "Cycle: "+joinNames(c, e.name))
	}
	if e.Omitted > 0 {
		lines = append(lines, fmt.Sprintf("... and %d more vertices in the same cycles", e.Omitted))
	}
	return strings.Join(lines, "\n")
}

func joinNames[K comparable](vs []K, name func(K) string) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = name(v)
	}
	return strings.Join(names, ", ")
}
