package refactoring

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/dag"
	"github.com/plankit/plankit/states"
)

// Move is the result of the moves for one resource instance: where it
// was in the previous run's state and where it is now. Stmt is the last
// statement that moved it (the one a cross-type move reports).
type Move struct {
	From, To addrs.AbsResourceInstance
	Stmt     *Statement
}

// Blocked is a move ApplyMoves skipped because an object already was at
// the destination (the existing object wins, as in Terraform).
type Blocked struct {
	Actual, Wanted string
	Stmt           *Statement
}

// Results is what ApplyMoves did.
type Results struct {
	// Moves by the instance's new address (String()).
	Moves   map[string]Move
	Blocked []Blocked
}

// OldAddr returns the previous run's address of the instance now at addr
// (addr itself when it did not move).
func (r Results) OldAddr(addr addrs.AbsResourceInstance) addrs.AbsResourceInstance {
	if m, ok := r.Moves[addr.String()]; ok {
		return m.From
	}
	return addr
}

// Sorted returns the moves ordered by new address.
func (r Results) Sorted() []Move {
	out := slices.Collect(maps.Values(r.Moves))
	slices.SortFunc(out, func(a, b Move) int { return a.To.Compare(b.To) })
	return out
}

// order returns the statements with every statement after those it
// depends on; nil and false when they form a cycle.
func order(stmts []Statement) ([]*Statement, bool) {
	g := graph(stmts)
	if len(g.Cycles()) > 0 || len(g.SelfReferences()) > 0 {
		return nil, false
	}
	o, err := g.TopologicalOrder()
	return o, err == nil
}

func graph(stmts []Statement) *dag.Graph[*Statement] {
	g := dag.New(func(s *Statement) string { return at(s) + " " + s.String() })
	ps := make([]patterns, len(stmts))
	for i := range stmts {
		g.Add(&stmts[i])
		ps[i] = makePatterns(&stmts[i])
	}
	// O(S²) comparisons of precomputed patterns, no allocation per pair.
	for i := range ps {
		for j := range ps {
			if i != j && dependsOn(ps[i], ps[j]) {
				g.Connect(&stmts[i], &stmts[j])
			}
		}
	}
	return g
}

// ApplyMoves moves the objects of st as stmts say, in dependency order,
// and returns what moved. Invalid statements (cycles) move nothing: the
// plan reports them through Validate. st is changed in place.
func ApplyMoves(stmts []Statement, st *states.State) Results {
	res := Results{Moves: map[string]Move{}}
	ordered, ok := order(stmts)
	if !ok {
		return res
	}
	record := func(from, to addrs.AbsResourceInstance, s *Statement) {
		if prev, ok := res.Moves[from.String()]; ok {
			delete(res.Moves, from.String())
			from = prev.From
		}
		res.Moves[to.String()] = Move{From: from, To: to, Stmt: s}
	}
	for _, s := range ordered {
		if s.From.Kind.IsModule() {
			applyModuleMove(s, st, &res, record)
		} else {
			applyResourceMove(s, st, &res, record)
		}
	}
	return res
}

// modulePrefix returns the instance of s.Module that mi is in (or is),
// and the rest of mi's steps.
func modulePrefix(s *Statement, mi addrs.ModuleInstance) (addrs.ModuleInstance, addrs.ModuleInstance, bool) {
	if len(mi) < len(s.Module) {
		return nil, nil, false
	}
	for i, n := range s.Module {
		if mi[i].Name != n {
			return nil, nil, false
		}
	}
	return mi[:len(s.Module)], mi[len(s.Module):], true
}

// moduleDestination returns where module instance mi goes under module
// statement s.
func moduleDestination(s *Statement, mi addrs.ModuleInstance) (addrs.ModuleInstance, bool) {
	prefix, rel, ok := modulePrefix(s, mi)
	from := s.From.Module
	if !ok || len(rel) < len(from) {
		return nil, false
	}
	for i, fs := range from {
		if rel[i].Name != fs.Name {
			return nil, false
		}
		if rel[i].InstanceKey != fs.InstanceKey && (s.From.Kind != addrs.MoveModuleCall || i < len(from)-1) {
			return nil, false
		}
	}
	out := append(addrs.ModuleInstance(nil), prefix...)
	to := append(addrs.ModuleInstance(nil), s.To.Module...)
	if s.From.Kind == addrs.MoveModuleCall {
		to[len(to)-1].InstanceKey = rel[len(from)-1].InstanceKey
	}
	out = append(out, to...)
	return append(out, rel[len(from):]...), true
}

func applyModuleMove(s *Statement, st *states.State, res *Results, record func(from, to addrs.AbsResourceInstance, s *Statement)) {
	for _, mi := range st.ModuleInstances() {
		dest, ok := moduleDestination(s, mi)
		if !ok || dest.Equal(mi) {
			continue
		}
		if st.Module(dest) != nil {
			res.Blocked = append(res.Blocked, Blocked{Actual: mi.String(), Wanted: dest.String(), Stmt: s})
			continue
		}
		ms := st.Module(mi)
		for _, rk := range slices.Sorted(maps.Keys(ms.Resources)) {
			rs := ms.Resources[rk]
			for _, k := range rs.SortedKeys() {
				from := rs.Addr.Instance(k)
				to := rs.Addr.Resource.Absolute(dest).Instance(k)
				moveInstance(st, from, to)
				record(from, to, s)
			}
		}
	}
}

// resourceModule returns the module instance a resource statement's
// endpoint e lives in, within the instance prefix of s.Module.
func resourceModule(prefix addrs.ModuleInstance, e addrs.MoveEndpoint) addrs.ModuleInstance {
	out := append(addrs.ModuleInstance(nil), prefix...)
	return append(out, e.Module...)
}

func applyResourceMove(s *Statement, st *states.State, res *Results, record func(from, to addrs.AbsResourceInstance, s *Statement)) {
	for _, mi := range st.ModuleInstances() {
		prefix, rel, ok := modulePrefix(s, mi)
		if !ok || !rel.Equal(s.From.Module) {
			continue
		}
		rs := st.Resource(s.From.Resource.Resource.Absolute(mi))
		if rs == nil {
			continue
		}
		destMod := resourceModule(prefix, s.To)
		if s.From.Kind == addrs.MoveResource {
			dest := s.To.Resource.Resource.Absolute(destMod)
			if dest.Equal(rs.Addr) {
				continue
			}
			if st.Resource(dest) != nil {
				res.Blocked = append(res.Blocked, Blocked{Actual: rs.Addr.String(), Wanted: dest.String(), Stmt: s})
				continue
			}
			for _, k := range rs.SortedKeys() {
				from, to := rs.Addr.Instance(k), dest.Instance(k)
				moveInstance(st, from, to)
				record(from, to, s)
			}
			continue
		}
		if rs.Instances[s.From.Resource.Key] == nil {
			continue
		}
		from := rs.Addr.Instance(s.From.Resource.Key)
		to := s.To.Resource.Absolute(destMod)
		if from.Equal(to) {
			continue
		}
		if st.ResourceInstance(to) != nil {
			res.Blocked = append(res.Blocked, Blocked{Actual: from.String(), Wanted: to.String(), Stmt: s})
			continue
		}
		moveInstance(st, from, to)
		record(from, to, s)
	}
}

// moveInstance moves every object of instance from (current, deposed,
// provider key) to instance to, which has none. The resource keeps its
// provider configuration; the plan re-records it from the configuration.
func moveInstance(st *states.State, from, to addrs.AbsResourceInstance) {
	rs := st.Resource(from.ContainingResource())
	ri := rs.Instances[from.Resource.Key]
	pc := rs.ProviderConfig
	if ri.Current != nil {
		st.SetResourceInstanceCurrent(to, ri.Current, pc)
	}
	for _, dk := range slices.Sorted(maps.Keys(ri.Deposed)) {
		st.SetResourceInstanceDeposed(to, dk, ri.Deposed[dk], pc)
	}
	if ri.ProviderKey != nil && ri.ProviderKey != addrs.NoKey {
		st.SetResourceInstanceProviderKey(to, ri.ProviderKey)
	}
	for _, dk := range slices.Sorted(maps.Keys(ri.Deposed)) {
		st.SetResourceInstanceDeposed(from, dk, nil, pc)
	}
	st.SetResourceInstanceCurrent(from, nil, pc)
}

// describe lists statements for messages, one per line.
func describe(stmts []*Statement) string {
	var lines []string
	for _, s := range stmts {
		lines = append(lines, "\n  - "+at(s)+": "+s.From.String()+" → "+s.To.String())
	}
	slices.Sort(lines)
	return strings.Join(lines, "")
}

// at is where s is declared, "file:line".
func at(s *Statement) string {
	return fmt.Sprintf("%s:%d", s.DeclRange.Filename, s.DeclRange.Start.Line)
}
