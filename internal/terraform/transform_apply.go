package terraform

import (
	"slices"
	"strings"
	"sync"

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

// destroyJoin is done when every destroy node of one resource (or of its
// objects in one module instance) is: destroy nodes of a dependency wait
// on it (destroyEdges.afterJoin).
type destroyJoin struct{ addr string }

func (n *destroyJoin) Name() string { return n.addr + " (destroys done)" }

// destroyEdgeTransformer orders destroys against each other and against
// the creates and updates of the apply, by the rules Terraform and
// OpenTofu follow (terraform/doc.go, "Apply ordering", states them with
// examples). A resource's dependencies are the configuration's (each
// resource node's stateDeps) joined with those its objects record in the
// state, which still steer the order after the configuration that
// explained it is gone. O(V+E) plus the recorded dependencies.
type destroyEdgeTransformer struct {
	in   *buildInput
	plan *plans.Plan
}

func (t destroyEdgeTransformer) Transform(g *Graph) error {
	e := destroyEdges{g: g, in: t.in, resNodes: map[string]*nodeResource{}, destroys: map[string][]*nodeDestroy{},
		joins: map[string]*destroyJoin{}, joined: map[string]bool{}}
	for _, n := range g.Vertices() {
		switch n := n.(type) {
		case *nodeResource:
			e.resNodes[n.addr.String()] = n
		case *nodeDestroy:
			k := n.res.addr.String()
			e.destroys[k] = append(e.destroys[k], n)
		}
	}
	if len(e.destroys) == 0 {
		return nil // the usual create/update apply: nothing to order
	}
	e.creates = creatingResources(t.plan)
	for k, ds := range e.destroys {
		for _, d := range ds {
			e.own(k, d)
			e.dependentFirst(k, d)
		}
	}
	for k, rn := range e.resNodes {
		if e.creates[k] {
			e.afterDependencies(k, rn)
		}
	}
	return nil
}

// creatingResources returns the resources (by address) the plan creates,
// updates, replaces or reads an instance of: the ones whose resource node
// does work destroys must be ordered against. Resources with only no-op
// changes take no part, as in Terraform.
func creatingResources(plan *plans.Plan) map[string]bool {
	out := map[string]bool{}
	if plan == nil || plan.Changes == nil {
		return out
	}
	for _, rc := range plan.Changes.Resources {
		switch rc.Action {
		case plans.Create, plans.Update, plans.DeleteThenCreate, plans.CreateThenDelete, plans.Read:
			out[rc.Addr.ConfigResource().String()] = true
		}
	}
	return out
}

// destroyEdges is the state of one destroyEdgeTransformer run.
type destroyEdges struct {
	g        *Graph
	in       *buildInput
	resNodes map[string]*nodeResource
	destroys map[string][]*nodeDestroy
	creates  map[string]bool
	joins    map[string]*destroyJoin
	joined   map[string]bool // join and resource pairs connected
	// stored are the dependencies the state records for the current
	// objects of each resource with creates or updates (recorded).
	stored map[string][][]addrs.ConfigResource
}

// own orders a destroy against its own resource's node: the old object
// of a delete-then-create replacement goes first; the create of a
// create-before-destroy replacement (and of an instance that has a
// deposed object left over) goes first.
func (e *destroyEdges) own(k string, d *nodeDestroy) {
	rn := e.resNodes[k]
	if rn == nil {
		return
	}
	switch {
	case d.change.Action == plans.DeleteThenCreate:
		e.g.Connect(rn, d)
	case d.change.Action == plans.CreateThenDelete,
		d.change.DeposedKey != addrs.NotDeposed && e.creates[k]:
		e.g.Connect(d, rn)
	}
}

// dependentFirst orders destroy d of resource k before what k's object
// depends on: the destroys of those resources wait for d, and so do their
// creates and updates, unless d is create-before-destroy, whose destroy
// instead waits for them (the new object is in place first, and the
// dependency's update is what lets the old one go).
func (e *destroyEdges) dependentFirst(k string, d *nodeDestroy) {
	cbd := e.isCBD(d)
	e.eachDependency(d.res.addr, e.destroyedDeps(k, d), func(on string) {
		e.afterJoin(on, d)
		if rn := e.resNodes[on]; rn != nil && e.creates[on] {
			if cbd {
				e.g.Connect(d, rn)
			} else {
				e.g.Connect(rn, d)
			}
		}
	})
}

// afterJoin makes the destroys of resource on wait for destroy d (of a
// resource depending on it), through a join of d's resource's destroys:
// ordering N destroys after M costs N+M edges, not N×M. Objects in
// different instances of one module are not ordered against each other
// (an instance's objects depend only on that instance's), so when on is
// in d's module, each module instance has its own join.
func (e *destroyEdges) afterJoin(on string, d *nodeDestroy) {
	ds := e.destroys[on]
	if len(ds) == 0 {
		return
	}
	mi := d.change.Addr.Module
	byInstance := len(mi) > 0 && ds[0].res.addr.Module.Equal(d.res.addr.Module)
	from := d.res.addr.String()
	jk := from
	if byInstance {
		jk += "\x00" + mi.String()
	}
	j := e.joins[jk]
	if j == nil {
		j = &destroyJoin{addr: from}
		e.joins[jk] = j
		e.g.Add(j)
		for _, x := range e.destroys[from] {
			if !byInstance || x.change.Addr.Module.Equal(mi) {
				e.g.Connect(j, x)
			}
		}
	}
	pair := jk + "\x01" + on
	if e.joined[pair] {
		return
	}
	e.joined[pair] = true
	for _, x := range ds {
		if !byInstance || x.change.Addr.Module.Equal(mi) {
			e.g.Connect(x, j)
		}
	}
}

// afterDependencies orders the creates and updates of resource k (node
// rn) after the destroys of what it depends on, or, for a
// create-before-destroy destroy, before it: the dependent moves to the
// new object before the old one goes.
func (e *destroyEdges) afterDependencies(k string, rn *nodeResource) {
	deps := e.recorded(k, rn)
	e.eachDependency(rn.addr, deps, func(on string) {
		for _, d := range e.destroys[on] { // none when on only changes
			if e.isCBD(d) {
				e.g.Connect(d, rn)
			} else {
				e.g.Connect(rn, d)
			}
		}
	})
}

// eachDependency calls f once for each resource in deps (its address)
// other than self that has destroy nodes or creates or updates.
func (e *destroyEdges) eachDependency(self addrs.ConfigResource, deps [][]addrs.ConfigResource, f func(on string)) {
	selfKey := self.String()
	seen := map[string]bool{selfKey: true}
	for _, list := range deps {
		for _, a := range list {
			k := a.String()
			if seen[k] {
				continue
			}
			seen[k] = true
			if len(e.destroys[k]) > 0 || e.creates[k] {
				f(k)
			}
		}
	}
}

// recorded returns the dependencies of resource k as its creates and
// updates see them: the configuration's, and those each of its current
// objects records in the state (indexed on first use, one pass over the
// state).
func (e *destroyEdges) recorded(k string, rn *nodeResource) [][]addrs.ConfigResource {
	if e.stored == nil {
		e.stored = map[string][][]addrs.ConfigResource{}
		if e.in.state != nil {
			for _, rs := range e.in.state.AllResources() {
				if rs.Addr.Resource.Mode != addrs.ManagedResourceMode {
					continue
				}
				rk := rs.Addr.Config().String()
				if !e.creates[rk] {
					continue
				}
				for _, ri := range rs.Instances {
					if ri.Current != nil && len(ri.Current.Dependencies) > 0 {
						e.stored[rk] = append(e.stored[rk], ri.Current.Dependencies)
					}
				}
			}
		}
	}
	return append([][]addrs.ConfigResource{rn.stateDeps}, e.stored[k]...)
}

// destroyedDeps returns the dependencies of the object destroy d removes:
// those the state records for it and, while its resource is still in the
// configuration, the configuration's.
func (e *destroyEdges) destroyedDeps(k string, d *nodeDestroy) [][]addrs.ConfigResource {
	var out [][]addrs.ConfigResource
	if rn := e.resNodes[k]; rn != nil {
		out = append(out, rn.stateDeps)
	}
	if obj := e.priorObject(d); obj != nil {
		out = append(out, obj.Dependencies)
	}
	return out
}

// priorObject is the object destroy d removes as the plan's prior state
// has it: the current object, or the deposed one it names.
func (e *destroyEdges) priorObject(d *nodeDestroy) *states.ResourceInstanceObjectSrc {
	if e.in.state == nil {
		return nil
	}
	ri := e.in.state.ResourceInstance(d.change.Addr)
	if ri == nil {
		return nil
	}
	if d.change.Action == plans.CreateThenDelete {
		return ri.Current
	}
	return ri.Object(d.change.DeposedKey)
}

// isCBD tells whether destroy d is create-before-destroy: the destroy
// half of such a replacement, a deposed object (only such replacements
// leave them), or a plain delete of an object whose resource has (or, once
// its configuration is gone, whose state records) create_before_destroy,
// its own or forced by a dependent.
func (e *destroyEdges) isCBD(d *nodeDestroy) bool {
	switch {
	case d.change.Action == plans.CreateThenDelete, d.change.DeposedKey != addrs.NotDeposed:
		return true
	case d.change.Action == plans.DeleteThenCreate:
		return false
	case d.res.block != nil:
		return d.change.CreateBeforeDestroy
	}
	obj := e.priorObject(d)
	return obj != nil && obj.CreateBeforeDestroy
}

// stateDepsTransformer records on each resource node the resources it
// depends on (stateDeps), which the apply stores with each object it
// writes and destroy ordering follows: every resource reached through
// its dependencies, directly or through other resources, locals,
// outputs, modules and provider configurations, as Terraform and
// OpenTofu record them. It runs before any destroy edge exists: the
// dependencies are the configuration's. O(V+E) plus the size of the
// answers (quadratic in a chain of resources, as the state it is
// written to is).
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

// planDepsTransformer gives each managed resource node of a plan graph
// its dependencies as a depSet (planDeps), with which the plan brings
// what the refreshed state records for its objects up to date
// (planInstance.keepDependencies). They are found only for nodes with
// objects in the state and listed only where the records differ, so a
// first plan finds none and a plan of a long chain whose state already
// agrees lists none.
type planDepsTransformer struct{}

func (planDepsTransformer) Transform(g *Graph) error {
	ix := &resourceDepsIndex{g: g}
	for _, n := range g.Vertices() {
		if n, ok := n.(*nodeResource); ok && n.addr.Resource.Mode == addrs.ManagedResourceMode {
			n.planDeps = &depSet{ix: ix, n: n}
		}
	}
	return nil
}

// resourceDepsIndex finds the resources each resource node depends on:
// the resource nodes reached through its dependencies. The set reached
// through each node is computed once and shared by every node above it,
// so many resources referring to one local that lists many resources
// cost O(V+E) plus the size of the answers, not a walk of the local's
// dependencies per resource. Sets are sorted slices of resource numbers
// (numbered in the state's order of their addresses), so merging them
// formats no address.
type resourceDepsIndex struct {
	g     *Graph
	memo  map[Node][]int32
	ids   map[*nodeResource]int32
	addrs []addrs.ConfigResource // by number
	// out caches each set's address list, so nodes sharing a set share
	// the list too; mu guards memo and out during a plan walk.
	out map[*int32][]addrs.ConfigResource
	mu  sync.Mutex
}

func newResourceDepsIndex(g *Graph) *resourceDepsIndex {
	ix := &resourceDepsIndex{g: g}
	ix.number()
	return ix
}

// number numbers the graph's resource nodes in the state's order of
// their addresses. O(V log V).
func (ix *resourceDepsIndex) number() {
	ix.memo, ix.ids, ix.out = map[Node][]int32{}, map[*nodeResource]int32{}, map[*int32][]addrs.ConfigResource{}
	var rs []*nodeResource
	for _, n := range ix.g.Vertices() {
		if r, ok := n.(*nodeResource); ok && r.addr.Resource.Mode != addrs.EphemeralResourceMode {
			rs = append(rs, r)
		}
	}
	keys := make(map[*nodeResource]string, len(rs))
	for _, r := range rs {
		keys[r] = r.addr.String()
	}
	slices.SortFunc(rs, func(a, b *nodeResource) int { return strings.Compare(keys[a], keys[b]) })
	for i, r := range rs {
		ix.ids[r] = int32(i)
		ix.addrs = append(ix.addrs, r.addr)
	}
}

// of returns the resources resource node n depends on, in the state's
// order (states.SortedDependencies). The slice may be shared with other
// nodes: callers must not modify it.
func (ix *resourceDepsIndex) of(n *nodeResource) []addrs.ConfigResource {
	return ix.list(ix.through(n))
}

// list returns the addresses of set, made once per set (sets are shared
// between nodes, and so are their lists). Safe for concurrent use with
// depSet's methods.
func (ix *resourceDepsIndex) list(set []int32) []addrs.ConfigResource {
	if len(set) == 0 {
		return nil
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if l, ok := ix.out[&set[0]]; ok && len(l) == len(set) {
		return l
	}
	l := make([]addrs.ConfigResource, len(set))
	for i, id := range set {
		l[i] = ix.addrs[id]
	}
	ix.out[&set[0]] = l
	return l
}

// depSet is the dependencies of one resource node, found and listed only
// when asked for: a plan compares them with what the state records for
// the node's objects, which costs nothing for a node with none and no
// list when they agree. Safe for concurrent use.
type depSet struct {
	ix *resourceDepsIndex
	n  *nodeResource
}

func (d depSet) ids() []int32 {
	d.ix.mu.Lock()
	defer d.ix.mu.Unlock()
	if d.ix.memo == nil {
		d.ix.number() // on first use: a first plan never needs it
	}
	return d.ix.through(d.n)
}

// list returns the dependencies' addresses (see resourceDepsIndex.list).
func (d depSet) list() []addrs.ConfigResource { return d.ix.list(d.ids()) }

// equal tells whether l, in the state's order, lists exactly the set.
func (d depSet) equal(l []addrs.ConfigResource) bool {
	set := d.ids()
	if len(l) != len(set) {
		return false
	}
	for i, id := range set {
		if !l[i].Equal(d.ix.addrs[id]) {
			return false
		}
	}
	return true
}

// through returns the resources reached through the dependencies of x.
func (ix *resourceDepsIndex) through(x Node) []int32 {
	if r, ok := ix.memo[x]; ok {
		return r
	}
	ix.memo[x] = nil // a cycle (reported by validation) ends here
	r := ix.union(ix.g.DownEdges(x), x)
	ix.memo[x] = r
	return r
}

// union merges what each of children contributes: a resource itself and
// what it depends on, any other node what it reaches (the closing node
// of a provider, which waits for the provider's resources, nothing). A
// resource never depends on itself. When one child contributes everything
// its set is returned as is, so a resource behind a single local shares
// the local's set instead of copying it.
func (ix *resourceDepsIndex) union(children []Node, self Node) []int32 {
	var parts [][]int32
	var own []int32
	for _, c := range children {
		if _, ok := c.(*nodeProviderClose); ok {
			continue
		}
		// An ephemeral resource has no object to record a dependency on;
		// what it depends on still counts.
		if r, ok := c.(*nodeResource); ok && Node(r) != self && r.addr.Resource.Mode != addrs.EphemeralResourceMode {
			own = append(own, ix.ids[r])
		}
		if r := ix.through(c); len(r) > 0 {
			parts = append(parts, r)
		}
	}
	if len(own) == 0 && len(parts) == 1 {
		return parts[0]
	}
	slices.Sort(own)
	parts = append(parts, own)
	var out []int32
	for _, p := range parts {
		out = mergeSorted(out, p)
	}
	if r, ok := self.(*nodeResource); ok {
		id, numbered := ix.ids[r] // ephemeral resources are not numbered
		if i, found := slices.BinarySearch(out, id); numbered && found {
			out = slices.Delete(slices.Clip(out), i, i+1) // through a cycle
		}
	}
	return out
}

// mergeSorted returns the union of sorted sets a and b as a new slice
// (neither is modified; either may be shared).
func mergeSorted(a, b []int32) []int32 {
	out := make([]int32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return slices.Compact(append(out, b[j:]...))
}

// forgetTransformer adds a forget node per planned Forget change. The
// nodes use no provider: forgetting an object only edits the state.
// O(changes).
type forgetTransformer struct {
	in   *buildInput
	plan *plans.Plan
}

func (t forgetTransformer) Transform(g *Graph) error {
	for _, rc := range t.plan.Changes.Resources {
		if rc.Action == plans.Forget {
			g.Add(&nodeForget{change: rc, apply: t.in.apply})
		}
	}
	return nil
}
