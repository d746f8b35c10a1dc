package terraform

import (
	"github.com/plankit/plankit/addrs"
)

// targetMode says what a targeted graph is for.
type targetMode uint8

const (
	targetPlan        targetMode = iota // normal or refresh-only plan
	targetPlanDestroy                   // destroy plan: dependents go too
	targetApply                         // apply: the plan is already targeted
)

// targetsTransformer keeps, when -target is given, only:
//   - the targeted resources (in a destroy plan, with every resource that
//     depends on them, since they cannot outlive it; in an apply, with
//     every destroy node, as the plan holds only targeted changes);
//   - everything those depend on, transitively;
//   - each root output all of whose resource dependencies (however
//     indirect: through locals, variables, module outputs) are kept and
//     planned in full, with what it depends on, as Terraform keeps such
//     outputs up to date in a targeted run;
//   - the close nodes of the providers kept.
//
// Directly targeted resources plan only the instances the targets name,
// unless another kept node needs all of them. The root outputs kept are
// those whose nodes remain (keptRootOutputs). O(V+E).
type targetsTransformer struct {
	in   *buildInput
	mode targetMode
}

func (t targetsTransformer) Transform(g *Graph) error {
	targets := t.in.targets
	if len(targets) == 0 {
		return nil
	}
	var direct []Node
	for _, n := range g.Vertices() {
		switch n := n.(type) {
		case *nodeResource:
			if matchesTargets(targets, n.addr) {
				direct = append(direct, n)
			}
		case *nodeDestroy, *nodeForget:
			if t.mode == targetApply {
				direct = append(direct, n)
			}
		}
	}
	filtered := map[Node]bool{}
	for _, n := range direct {
		filtered[n] = true
	}
	if t.mode == targetPlanDestroy {
		for _, n := range g.Descendants(direct...) {
			if r, ok := n.(*nodeResource); ok && !filtered[r] {
				direct = append(direct, r)
			}
		}
	}
	keep := map[Node]bool{}
	for _, n := range direct {
		keep[n] = true
	}
	for _, n := range g.Ancestors(direct...) {
		keep[n] = true
	}
	t.setFilters(g, filtered, keep)
	t.keepOutputs(g, keep)
	for _, n := range g.Vertices() {
		if c, ok := n.(*nodeProviderClose); ok {
			for _, d := range g.DownEdges(c) {
				if p, ok := d.(*nodeProvider); ok && keep[p] {
					keep[c] = true
				}
			}
		}
	}
	for _, n := range g.Vertices() {
		if !keep[n] {
			g.Remove(n)
		}
	}
	return nil
}

// keepOutputs adds to keep the root outputs whose resource dependencies
// are all kept and unfiltered, and their dependencies. One topological
// pass computes, per node, whether every resource upstream qualifies.
// O(V+E).
func (t targetsTransformer) keepOutputs(g *Graph, keep map[Node]bool) {
	order, err := g.TopologicalOrder()
	if err != nil {
		return // cycles are reported by validation
	}
	ok := make(map[Node]bool, len(order))
	var outs []Node
	for _, n := range order { // dependencies first
		good := true
		switch n := n.(type) {
		case *nodeResource:
			good = keep[n] && n.filter == nil
		case *nodeDestroy:
			good = keep[n]
		}
		for _, d := range g.DownEdges(n) {
			if !good {
				break
			}
			good = ok[d]
		}
		ok[n] = good
		if o, isOut := n.(*nodeOutput); isOut && good && o.cfg.Path.IsRoot() {
			outs = append(outs, n)
		}
	}
	for _, n := range outs {
		keep[n] = true
	}
	for _, n := range g.Ancestors(outs...) {
		keep[n] = true
	}
}

// setFilters limits each directly targeted resource to the instances the
// targets contain, unless a target names it whole or a kept node needs
// all of its instances (neededByKept). Dependents are decided before
// their dependencies (reverse topological order), since whether a
// dependent is itself limited decides what it needs. O(V+E).
func (t targetsTransformer) setFilters(g *Graph, filtered, keep map[Node]bool) {
	order, err := g.ReverseTopologicalOrder()
	if err != nil {
		return // cycles are reported by validation
	}
	targets := t.in.targets
	for _, n := range order {
		if r, ok := n.(*nodeResource); ok && filtered[n] && !wholeTargeted(targets, r.addr) && !neededByKept(g, r, keep, targets) {
			r.filter = targets
		}
	}
}

// neededByKept reports whether a kept node other than a provider close
// node depends on r, so all of r's instances must be planned. A resource
// of the same module limited to module instances only (targets such as
// module.m[1]) does not: each of its instances refers to r's instance in
// the same module instance, which the same targets contain. O(degree).
func neededByKept(g *Graph, r *nodeResource, keep map[Node]bool, targets []addrs.Targetable) bool {
	for _, u := range g.UpEdges(r) {
		if !keep[u] {
			continue
		}
		switch u := u.(type) {
		case *nodeProviderClose:
			continue
		case *nodeResource:
			if u.filter != nil && u.addr.Module.Equal(r.addr.Module) && onlyModuleTargets(targets, u.addr) {
				continue
			}
		}
		return true
	}
	return false
}

// onlyModuleTargets reports whether every target matching the resource
// block at addr is a module instance (no resource or instance target
// names it).
func onlyModuleTargets(targets []addrs.Targetable, addr addrs.ConfigResource) bool {
	for _, tg := range targets {
		if _, ok := tg.(addrs.ModuleInstance); !ok && matchesTargets([]addrs.Targetable{tg}, addr) {
			return false
		}
	}
	return true
}

// wholeTargeted reports whether a target names the resource block at addr
// as a whole (not some of its instances): the resource, or a module
// containing it, with no instance keys.
func wholeTargeted(targets []addrs.Targetable, addr addrs.ConfigResource) bool {
	for _, tg := range targets {
		switch a := tg.(type) {
		case addrs.ModuleInstance:
			m := a.Module()
			if noKeys(a) && m.IsAncestorOf(addr.Module) {
				return true
			}
		case addrs.AbsResource:
			if noKeys(a.Module) && a.Resource == addr.Resource && a.Module.Module().Equal(addr.Module) {
				return true
			}
		}
	}
	return false
}

func noKeys(m addrs.ModuleInstance) bool {
	for _, step := range m {
		if step.InstanceKey != addrs.NoKey {
			return false
		}
	}
	return true
}

// matchesTargets reports whether a target names (part of) the resource
// block at addr: the block, one of its instances, or a module instance
// containing it.
func matchesTargets(targets []addrs.Targetable, addr addrs.ConfigResource) bool {
	for _, tg := range targets {
		switch a := tg.(type) {
		case addrs.ModuleInstance:
			m := a.Module()
			if m.IsAncestorOf(addr.Module) {
				return true
			}
		case addrs.AbsResource:
			if a.Resource == addr.Resource && a.Module.Module().Equal(addr.Module) {
				return true
			}
		case addrs.AbsResourceInstance:
			if a.Resource.Resource == addr.Resource && a.Module.Module().Equal(addr.Module) {
				return true
			}
		}
	}
	return false
}

// keptRootOutputs returns the root outputs a graph built for targets
// kept: the root output nodes that remain (nothing depends on a root
// output, so only keepOutputs keeps one). Nil without targets: all.
// O(V).
func keptRootOutputs(g *Graph, targets []addrs.Targetable) map[string]bool {
	if len(targets) == 0 {
		return nil
	}
	kept := map[string]bool{}
	for _, n := range g.Vertices() {
		if o, ok := n.(*nodeOutput); ok && o.cfg.Path.IsRoot() {
			kept[o.o.Name] = true
		}
	}
	return kept
}
