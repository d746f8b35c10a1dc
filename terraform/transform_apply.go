package terraform

import (
	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// destroyTransformer adds a destroy node per planned deletion. When the
// resource block is still in the configuration (the one the plan was made
// from), the node carries it, for its destroy-time provisioners; one
// shared resourceBlock per resource. O(changes).
type destroyTransformer struct {
	in   *buildInput
	plan *plans.Plan
}

func (t destroyTransformer) Transform(g *Graph) error {
	shared := map[string]*resourceBlock{}
	for _, rc := range t.plan.Changes.Resources {
		switch rc.Action {
		case plans.Delete, plans.DeleteThenCreate, plans.CreateThenDelete:
		default:
			continue
		}
		key := rc.Addr.ContainingResource().String() + "\x00" + rc.ProviderAddr.String()
		res := shared[key]
		if res == nil {
			ca := rc.Addr.ConfigResource()
			var cfg *configs.Config
			var block *configs.Resource
			if c := t.in.config.Descendant(ca.Module); c != nil {
				if b := c.Module.ResourceByAddr(ca.Resource); b != nil && b.Managed != nil {
					cfg, block = c, b
				}
			}
			rb := t.in.resourceBlock(cfg, block, ca, rc.ProviderAddr)
			if block == nil {
				// A removed block's destroy-time provisioners run in the
				// resource's module when it still exists.
				if rb.removed = t.in.removedFor(ca); rb.removed != nil {
					rb.cfg = t.in.config.Descendant(ca.Module)
				}
			}
			res = &rb
			shared[key] = res
		}
		g.Add(&nodeDestroy{change: rc, res: res, apply: t.in.apply})
	}
	return nil
}

// destroyJoin is done when every destroy node of one resource is: destroy
// nodes of a dependency wait on it, so ordering N destroys after M costs
// N+M edges, not N×M.
type destroyJoin struct{ addr string }

func (n *destroyJoin) Name() string { return n.addr + " (destroys done)" }

// destroyEdgeTransformer orders destroys: an object is destroyed after
// everything that depends on it is destroyed (and, for a plain delete or a
// create-before-destroy's deposed object, after its dependents are
// updated); a delete-then-create replacement destroys before it creates, a
// create-before-destroy one creates first. Dependencies come from the
// configuration's references (each resource node's stateDeps, see
// stateDepsTransformer) and from the dependencies the state records.
// O(V+E).
type destroyEdgeTransformer struct{ in *buildInput }

func (t destroyEdgeTransformer) Transform(g *Graph) error {
	resNodes := map[string]*nodeResource{}
	destroys := map[string][]*nodeDestroy{}
	for _, n := range g.Vertices() {
		switch n := n.(type) {
		case *nodeResource:
			resNodes[n.addr.String()] = n
		case *nodeDestroy:
			k := n.res.addr.String()
			destroys[k] = append(destroys[k], n)
		}
	}
	if len(destroys) == 0 {
		return nil // the usual create/update apply: nothing to order
	}
	dependents := t.destroyDependents(resNodes, destroys)
	joins := map[string]*destroyJoin{}
	join := func(k string) *destroyJoin {
		if j := joins[k]; j != nil {
			return j
		}
		j := &destroyJoin{addr: k}
		joins[k] = j
		g.Add(j)
		for _, d := range destroys[k] {
			g.Connect(j, d)
		}
		return j
	}
	for k, ds := range destroys {
		for _, d := range ds {
			act := d.change.Action
			for by := range dependents[k] {
				if len(destroys[by]) > 0 {
					g.Connect(d, join(by))
				}
				if rn := resNodes[by]; rn != nil && (act == plans.Delete || act == plans.CreateThenDelete) {
					g.Connect(d, rn)
				}
			}
			if rn := resNodes[k]; rn != nil {
				switch act {
				case plans.DeleteThenCreate:
					g.Connect(rn, d)
				case plans.CreateThenDelete:
					g.Connect(d, rn)
				}
			}
		}
	}
	return nil
}

// destroyDependents returns, for each resource with destroy nodes (by
// address), the resources that depend on it: from the resource nodes'
// stateDeps and the dependencies the state records. Only resources with
// destroy nodes get an entry; each address is formatted once per
// resource, not per instance and dependency.
func (t destroyEdgeTransformer) destroyDependents(resNodes map[string]*nodeResource, destroys map[string][]*nodeDestroy) map[string]map[string]bool {
	dependents := map[string]map[string]bool{}
	add := func(on addrs.ConfigResource, by string) {
		k := on.String()
		if k == by || len(destroys[k]) == 0 {
			return
		}
		if dependents[k] == nil {
			dependents[k] = map[string]bool{}
		}
		dependents[k][by] = true
	}
	for by, n := range resNodes {
		for _, d := range n.stateDeps {
			add(d, by)
		}
	}
	if st := t.in.state; st != nil {
		for _, rs := range st.AllResources() {
			by := rs.Addr.Config().String()
			for _, ri := range rs.Instances {
				if ri.Current != nil {
					for _, d := range ri.Current.Dependencies {
						add(d, by)
					}
				}
			}
		}
	}
	return dependents
}

// stateDepsTransformer records on each resource node the resources it
// depends on (stateDeps), which the apply stores with each object it
// writes and destroy ordering follows. It runs before any destroy edge
// exists: the dependencies are the configuration's. O(V+E) for graphs
// whose non-resource nodes have bounded fan-out.
type stateDepsTransformer struct{}

func (stateDepsTransformer) Transform(g *Graph) error {
	deps := newResourceDepsIndex(g)
	for _, n := range g.Vertices() {
		if n, ok := n.(*nodeResource); ok {
			n.stateDeps = deps.of(n)
		}
	}
	return nil
}

// resourceDepsIndex finds the resources each resource node depends on:
// the resource nodes reached through its dependencies, stopping at
// resource and provider nodes. The set reached through each other node
// (a local, a variable, a module output) is computed once and shared by
// every node above it, so many resources referring to one local that
// lists many resources cost O(V+E) plus the size of the answers, not a
// walk of the local's dependencies per resource (which was quadratic).
type resourceDepsIndex struct {
	g    *Graph
	memo map[Node][]addrs.ConfigResource
}

func newResourceDepsIndex(g *Graph) *resourceDepsIndex {
	return &resourceDepsIndex{g: g, memo: map[Node][]addrs.ConfigResource{}}
}

// of returns the resources resource node n depends on. The slice may be
// shared with other nodes: callers must not modify it.
func (ix *resourceDepsIndex) of(n *nodeResource) []addrs.ConfigResource {
	return ix.union(ix.g.DownEdges(n), n)
}

// through returns the resources reached through non-resource node x.
func (ix *resourceDepsIndex) through(x Node) []addrs.ConfigResource {
	if r, ok := ix.memo[x]; ok {
		return r
	}
	ix.memo[x] = nil // a cycle (reported by validation) ends here
	r := ix.union(ix.g.DownEdges(x), x)
	ix.memo[x] = r
	return r
}

// union merges what each of children contributes; self is excluded (a
// resource never depends on itself). Every answer is in the state's order
// (states.SortedDependencies), so the state shares it with every object
// of the resource. When one child contributes everything its slice is
// returned as is, so a resource behind a single local shares the local's
// set instead of copying it.
func (ix *resourceDepsIndex) union(children []Node, self Node) []addrs.ConfigResource {
	var parts [][]addrs.ConfigResource
	var own []addrs.ConfigResource
	for _, c := range children {
		switch c := c.(type) {
		case *nodeResource:
			if Node(c) != self {
				own = append(own, c.addr)
			}
		case *nodeProvider, *nodeProviderClose:
		default:
			if r := ix.through(c); len(r) > 0 {
				parts = append(parts, r)
			}
		}
	}
	if len(own) == 0 && len(parts) == 1 {
		return parts[0]
	}
	if len(parts) == 0 {
		return states.SortedDependencies(own)
	}
	seen := map[string]bool{}
	var out []addrs.ConfigResource
	for _, p := range append(parts, own) {
		for _, a := range p {
			if k := a.String(); !seen[k] {
				seen[k] = true
				out = append(out, a)
			}
		}
	}
	return states.SortedDependencies(out)
}
