package terraform

import (
	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
)

// applyBuilder is the graph of an apply: the configuration's nodes (the
// resource nodes apply the creates, updates and reads of their
// instances), one destroy node per deletion (orphans, destroy mode, the
// destroy half of replacements, deposed objects), providers, references,
// the plan's targets, then destroy ordering.
func applyBuilder(in *buildInput, plan *plans.Plan) graphBuilder {
	return graphBuilder{name: "apply", steps: []Transformer{
		rootVariableTransformer{in},
		localTransformer{in},
		resourceTransformer{in, addrs.ManagedResourceMode},
		resourceTransformer{in, addrs.DataResourceMode},
		outputTransformer{in},
		moduleCallTransformer{in},
		destroyTransformer{in, plan},
		providerTransformer{in},
		referenceTransformer{},
		targetsTransformer{in, targetApply},
		destroyEdgeTransformer{in},
		rootTransformer{},
	}}
}

// destroyTransformer adds a destroy node per planned deletion. When the
// resource block is still in the configuration (the one the plan was made
// from), the node carries it, for its destroy-time provisioners; one
// shared nodeResource per resource block. O(changes).
type destroyTransformer struct {
	in   *buildInput
	plan *plans.Plan
}

func (t destroyTransformer) Transform(g *Graph) error {
	shared := map[string]*nodeResource{}
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
			res = &nodeResource{typ: ca.Resource.Type, addr: ca, provider: rc.ProviderAddr}
			if c := t.in.config.Descendant(ca.Module); c != nil {
				if b := c.Module.ResourceByAddr(ca.Resource); b != nil && b.Managed != nil {
					res.cfg, res.rc = c, b
				}
			}
			t.in.attachSchema(res, rc.ProviderAddr.Provider, ca.Resource.Mode)
			shared[key] = res
		}
		g.Add(&nodeDestroy{change: rc, res: res})
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
// configuration's references and from the dependencies the state records.
// It also records on each resource node the resources it depends on, which
// the state stores with each object. O(V+E) for graphs whose non-resource
// nodes have bounded fan-out.
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
	dependents := map[string]map[string]bool{}
	addDep := func(on, by string) {
		if on == by {
			return
		}
		if dependents[on] == nil {
			dependents[on] = map[string]bool{}
		}
		dependents[on][by] = true
	}
	for _, n := range resNodes {
		n.stateDeps = resourceDeps(g, n)
		for _, d := range n.stateDeps {
			addDep(d.String(), n.addr.String())
		}
	}
	if st := t.in.state; st != nil {
		for _, rs := range st.AllResources() {
			for _, ri := range rs.Instances {
				if ri.Current != nil {
					for _, d := range ri.Current.Dependencies {
						addDep(d.String(), rs.Addr.Config().String())
					}
				}
			}
		}
	}
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

// resourceDeps returns the resources n depends on: the resource nodes
// reached through its dependencies, stopping at resource and provider
// nodes.
func resourceDeps(g *Graph, n *nodeResource) []addrs.ConfigResource {
	var out []addrs.ConfigResource
	seen := map[Node]bool{n: true}
	stack := g.DownEdges(n)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		switch x := x.(type) {
		case *nodeResource:
			out = append(out, x.addr)
			continue
		case *nodeProvider, *nodeProviderClose:
			continue
		}
		stack = append(stack, g.DownEdges(x)...)
	}
	return out
}
