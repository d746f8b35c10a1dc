package refactoring

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/states"
)

// Statement is one move: a moved block (or an implied move) in the static
// module Module, applying to every instance of that module.
type Statement struct {
	Module    addrs.Module
	From, To  addrs.MoveEndpoint
	DeclRange hcl.Range
	// Implied marks a move the configuration implies (count added or
	// removed) rather than a moved block.
	Implied bool
}

// String returns e.g. "module.a: null_resource.x → null_resource.y".
func (s *Statement) String() string {
	prefix := ""
	if !s.Module.IsRoot() {
		prefix = s.Module.String() + ": "
	}
	return fmt.Sprintf("%s%s → %s", prefix, s.From.String(), s.To.String())
}

// FindStatements returns the explicit statements of every module of cfg
// (root first, then children by call name; each module's blocks in file
// order), followed by the implied ones the state calls for.
func FindStatements(cfg *configs.Config, st *states.State) []Statement {
	var out []Statement
	cfg.DeepEach(func(c *configs.Config) {
		for _, mv := range c.Module.Moved {
			out = append(out, Statement{Module: c.Path, From: mv.From, To: mv.To, DeclRange: mv.DeclRange})
		}
	})
	return append(out, impliedStatements(cfg, st, out)...)
}

// impliedStatements are Terraform's implied moves: a resource with count
// whose state has only the key-less instance moves it to [0]; a resource
// with neither count nor for_each whose state has [0] and no key-less
// instance moves [0] to it. A resource an explicit statement names is left
// to that statement.
func impliedStatements(cfg *configs.Config, st *states.State, explicit []Statement) []Statement {
	byPath := map[string][]addrs.ModuleInstance{}
	for _, mi := range st.ModuleInstances() {
		k := mi.Module().String()
		byPath[k] = append(byPath[k], mi)
	}
	var out []Statement
	cfg.DeepEach(func(c *configs.Config) {
		insts := byPath[c.Path.String()]
		if len(insts) == 0 {
			return // nothing of this module is in the state
		}
		// A module's statements come in the order of their resources'
		// keys; only the resources that have one are sorted.
		var keys []string
		found := map[string]Statement{}
		for key, r := range c.Module.ManagedResources {
			if r.ForEach != nil || explicitlyMoved(c.Path, r.Addr(), explicit) {
				continue
			}
			from, to := addrs.InstanceKey(addrs.NoKey), addrs.InstanceKey(addrs.IntKey(0))
			if r.Count == nil {
				from, to = to, from
			}
			for _, mi := range insts {
				rs := st.Resource(r.Addr().Absolute(mi))
				if rs == nil || rs.Instances[from] == nil || rs.Instances[to] != nil {
					continue
				}
				ep := addrs.MoveEndpoint{Kind: addrs.MoveResourceInstance, Resource: r.Addr().Instance(from), SourceRange: r.DeclRange}
				tp := ep
				tp.Resource.Key = to
				keys = append(keys, key)
				found[key] = Statement{Module: c.Path, From: ep, To: tp, DeclRange: r.DeclRange, Implied: true}
				break // one statement covers every instance of the module
			}
		}
		slices.Sort(keys)
		for _, key := range keys {
			out = append(out, found[key])
		}
	})
	return out
}

// explicitlyMoved reports whether a statement of module path names
// resource r as its from or to.
func explicitlyMoved(path addrs.Module, r addrs.Resource, stmts []Statement) bool {
	for _, s := range stmts {
		if !s.Module.Equal(path) {
			continue
		}
		for _, e := range []addrs.MoveEndpoint{s.From, s.To} {
			if !e.Kind.IsModule() && len(e.Module) == 0 && e.Resource.Resource == r {
				return true
			}
		}
	}
	return false
}

// step is one module step of an endpoint's absolute pattern; wild matches
// any instance key.
type step struct {
	name string
	key  addrs.InstanceKey
	wild bool
}

// pattern is an endpoint made absolute: the declaring module's steps
// (any key: the statement applies in each of its instances), then the
// endpoint's own steps.
type pattern struct {
	kind addrs.MoveEndpointKind
	mod  []step
	res  addrs.ResourceInstance
}

func makePattern(m addrs.Module, e addrs.MoveEndpoint) pattern {
	p := pattern{kind: e.Kind, res: e.Resource}
	for _, n := range m {
		p.mod = append(p.mod, step{name: n, wild: true})
	}
	for i, s := range e.Module {
		p.mod = append(p.mod, step{name: s.Name, key: s.InstanceKey, wild: e.Kind == addrs.MoveModuleCall && i == len(e.Module)-1})
	}
	return p
}

func (a step) matches(b step) bool {
	return a.name == b.name && (a.wild || b.wild || a.key == b.key)
}

// sameObject reports whether a and b can name the same object (chaining).
func (a pattern) sameObject(b pattern) bool {
	if a.kind != b.kind || len(a.mod) != len(b.mod) || (!a.kind.IsModule() && a.res.Resource != b.res.Resource) {
		return false
	}
	if a.kind == addrs.MoveResourceInstance && a.res.Key != b.res.Key {
		return false
	}
	for i := range a.mod {
		if !a.mod[i].matches(b.mod[i]) {
			return false
		}
	}
	return true
}

// nestedWithin reports whether a is strictly inside module pattern b.
func (a pattern) nestedWithin(b pattern) bool {
	if !b.kind.IsModule() {
		return false
	}
	if len(a.mod) < len(b.mod) || (a.kind.IsModule() && len(a.mod) == len(b.mod)) {
		return false
	}
	for i := range b.mod {
		if !b.mod[i].matches(a.mod[i]) {
			return false
		}
	}
	return true
}

// isModuleReIndex reports whether from and to are the same module call
// path with different keys.
func isModuleReIndex(from, to pattern) bool {
	if !from.kind.IsModule() || !to.kind.IsModule() || len(from.mod) != len(to.mod) {
		return false
	}
	for i := range from.mod {
		if from.mod[i].name != to.mod[i].name {
			return false
		}
	}
	return true
}

// patterns is a statement with its endpoints made absolute, computed once
// per statement for the pairwise dependsOn.
type patterns struct {
	s        *Statement
	from, to pattern
}

func makePatterns(s *Statement) patterns {
	return patterns{s: s, from: makePattern(s.Module, s.From), to: makePattern(s.Module, s.To)}
}

// dependsOn reports whether statement a must run after b: a continues b's
// chain, or one's addresses are nested in the other's module move.
func dependsOn(pa, pb patterns) bool {
	a, b := pa.s, pb.s
	af, at, bf, bt := pa.from, pa.to, pb.from, pb.to
	if af.sameObject(bt) {
		return true
	}
	if !af.nestedWithin(bt) && !at.nestedWithin(bt) && !bf.nestedWithin(af) && !bt.nestedWithin(af) {
		return false
	}
	// A move declared inside a module whose ancestor's move only changes
	// a key would match both ends of the ancestor's move: it depends on
	// the ancestor's move, not the other way round. (Depth of the
	// declaring modules, as in Terraform.)
	if len(a.Module) >= len(b.Module) {
		return true
	}
	return !isModuleReIndex(af, at)
}
