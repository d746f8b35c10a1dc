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
	// Nodes in a row mostly share their provider configuration: its key
	// is built once for the run, not once per node.
	var last addrs.AbsProviderConfig
	lastKey := ""
	for _, n := range g.Vertices() {
		u, ok := n.(providerUser)
		if !ok {
			continue
		}
		addr := u.providerAddr()
		if lastKey == "" || addr.Provider != last.Provider || addr.Alias != last.Alias || !addr.Module.Equal(last.Module) {
			last, lastKey = addr, addr.String()
		}
		key := lastKey
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
		if r, ok := n.(*nodeResource); ok && r.block != nil && r.block.Managed != nil {
			m := r.block.Managed
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

var _ = (*configs.Config)(nil)

// rootTransformer connects a root node to every node nothing depends on,
// so the graph has exactly one root. O(V).
type rootTransformer struct{}

func (rootTransformer) Transform(g *Graph) error {
	r := &rootNode{}
	roots := g.Roots()
	g.Add(r)
	for _, n := range roots {
		g.Connect(r, n)
	}
	return nil
}
