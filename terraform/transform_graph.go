package terraform

import (
	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
)

// providerUser is a node that needs a configured provider.
type providerUser interface {
	providerAddr() addrs.AbsProviderConfig
}

// providerTransformer adds one configuration node per provider
// configuration that a resource uses, makes each user depend on it, and
// adds a close node after its last user. O(V).
type providerTransformer struct{ in *buildInput }

func (t providerTransformer) Transform(g *Graph) error {
	provs := map[string]*nodeProvider{}
	closers := map[string]*nodeProviderClose{}
	for _, n := range g.Vertices() {
		u, ok := n.(providerUser)
		if !ok {
			continue
		}
		addr := u.providerAddr()
		key := addr.String()
		pn := provs[key]
		if pn == nil {
			pn = t.providerNode(addr)
			provs[key] = pn
			closers[key] = &nodeProviderClose{addr: addr}
			g.Add(pn)
			g.Add(closers[key])
			g.Connect(closers[key], pn)
		}
		g.Connect(n, pn)
		g.Connect(closers[key], n)
	}
	return nil
}

// providerNode builds the configuration node for addr, with the provider
// block of its module when there is one.
func (t providerTransformer) providerNode(addr addrs.AbsProviderConfig) *nodeProvider {
	n := &nodeProvider{addr: addr, cfg: t.in.config.Descendant(addr.Module)}
	if n.cfg == nil {
		n.cfg = t.in.config
		n.addr.Module = nil
	}
	local := addrs.LocalProviderConfig{LocalName: n.cfg.Module.LocalNameForProvider(addr.Provider), Alias: addr.Alias}
	n.block = n.cfg.Module.ProviderConfigs[local.String()]
	if ps := t.in.schemas[addr.Provider]; ps != nil && ps.Provider.Block != nil {
		s := ps.Provider
		n.schema = &s
		n.spec = s.Block.DecoderSpec()
	}
	return n
}

// createBeforeDestroyTransformer propagates create_before_destroy from a
// resource to every managed resource it depends on (through any nodes), as
// Terraform does: a dependency of a create-before-destroy resource must
// itself be replaced create-before-destroy, or the replacement order would
// form a cycle. Unless a resource sets create_before_destroy = false
// explicitly. One reverse topological pass: O(V+E).
type createBeforeDestroyTransformer struct{}

func (createBeforeDestroyTransformer) Transform(g *Graph) error {
	order, err := g.ReverseTopologicalOrder()
	if err != nil {
		return nil // cycles are reported by validation
	}
	want := map[Node]bool{}
	for _, n := range order { // dependents before dependencies
		if r, ok := n.(*nodeResource); ok && r.rc != nil && r.rc.Managed != nil {
			m := r.rc.Managed
			if want[n] && !(m.CreateBeforeDestroySet && !m.CreateBeforeDestroy) {
				r.cbd = true
			}
			if r.cbd {
				want[n] = true
			}
		}
		if !want[n] {
			continue
		}
		for _, d := range g.DownEdges(n) {
			want[d] = true
		}
	}
	return nil
}

// dataDependencyTransformer records, for each data source, the managed
// resources it depends on directly (by reference or depends_on), whose
// pending changes defer its read to apply. O(V+E).
type dataDependencyTransformer struct{}

func (dataDependencyTransformer) Transform(g *Graph) error {
	for _, n := range g.Vertices() {
		r, ok := n.(*nodeResource)
		if !ok || r.addr.Resource.Mode != addrs.DataResourceMode {
			continue
		}
		for _, d := range g.DownEdges(n) {
			if dr, ok := d.(*nodeResource); ok && dr.addr.Resource.Mode == addrs.ManagedResourceMode {
				r.deps = append(r.deps, dr)
			}
		}
	}
	return nil
}

// targetsTransformer keeps, when -target is given, only the targeted
// resources, what they depend on (transitively), and the close nodes of the
// providers kept. Directly targeted resources plan only the instances the
// targets name. O(V+E).
type targetsTransformer struct{ targets []addrs.Targetable }

func (t targetsTransformer) Transform(g *Graph) error {
	if len(t.targets) == 0 {
		return nil
	}
	var direct []Node
	for _, n := range g.Vertices() {
		if r, ok := n.(*nodeResource); ok && t.matches(r.addr) {
			direct = append(direct, n)
		}
	}
	keep := map[Node]bool{}
	for _, n := range direct {
		keep[n] = true
	}
	for _, n := range g.Ancestors(direct...) {
		keep[n] = true
	}
	for _, n := range direct {
		if r := n.(*nodeResource); !t.isAncestorOnly(r, g, keep) {
			r.filter = t.targets
		}
	}
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

// isAncestorOnly reports whether r is needed by another targeted node, so
// all its instances must be planned. O(degree).
func (t targetsTransformer) isAncestorOnly(r *nodeResource, g *Graph, keep map[Node]bool) bool {
	for _, u := range g.UpEdges(r) {
		if keep[u] {
			if _, ok := u.(*nodeProviderClose); !ok {
				return true
			}
		}
	}
	return false
}

// matches reports whether a target names (part of) the resource block at
// addr: the block, one of its instances, or a module instance containing
// it.
func (t targetsTransformer) matches(addr addrs.ConfigResource) bool {
	for _, tg := range t.targets {
		switch a := tg.(type) {
		case addrs.ModuleInstance:
			m := a.Module()
			if len(m) <= len(addr.Module) && m.Equal(addr.Module[:len(m)]) {
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

var _ = (*configs.Config)(nil)
