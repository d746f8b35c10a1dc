package refactoring

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/states"
)

// stmt builds an explicit statement in module mod declared at main.tf:line.
func stmt(t *testing.T, mod addrs.Module, from, to string, line int) Statement {
	t.Helper()
	ep := func(s string) addrs.MoveEndpoint {
		trav, diags := hclsyntax.ParseTraversalAbs([]byte(s), "main.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		e, diags := addrs.ParseMoveEndpoint(trav)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return *e
	}
	f, to2, ok := addrs.UnifyMoveEndpoints(ep(from), ep(to))
	if !ok {
		t.Fatalf("%s and %s do not unify", from, to)
	}
	return Statement{Module: mod, From: f, To: to2, DeclRange: hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: line}}}
}

func stateOf(t testing.TB, addrList ...string) *states.State {
	t.Helper()
	st := states.NewState()
	for _, a := range addrList {
		addr, diags := addrs.ParseAbsResourceInstanceStr(a)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		st.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"` + a + `"}`)},
			addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
	}
	return st
}

func TestApplyMoves(t *testing.T) {
	root := addrs.RootModule
	tests := []struct {
		name    string
		stmts   func(t *testing.T) []Statement
		state   []string
		moves   map[string]string // new -> old
		blocked []Blocked
	}{
		{
			name: "chain declared in reverse order",
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "null_resource.b", "null_resource.c", 1), stmt(t, root, "null_resource.a", "null_resource.b", 5)}
			},
			state: []string{"null_resource.a"},
			moves: map[string]string{"null_resource.c": "null_resource.a"},
		},
		{
			name: "nested module moves: inner move runs after the outer",
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, addrs.Module{"b"}, "null_resource.x", "null_resource.y", 1), stmt(t, root, "module.a", "module.b", 5)}
			},
			state: []string{"module.a.null_resource.x", "module.a.module.c.null_resource.z"},
			moves: map[string]string{"module.b.null_resource.y": "module.a.null_resource.x", "module.b.module.c.null_resource.z": "module.a.module.c.null_resource.z"},
		},
		{
			name: "module re-key with a move inside",
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "module.m[0]", `module.m["a"]`, 1), stmt(t, addrs.Module{"m"}, "null_resource.x", "null_resource.y", 5)}
			},
			state: []string{"module.m[0].null_resource.x"},
			moves: map[string]string{`module.m["a"].null_resource.y`: "module.m[0].null_resource.x"},
		},
		{
			name: "nested module call moved up, with its own children",
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "module.a.module.b", "module.c", 1)}
			},
			state: []string{"module.a.module.b.null_resource.x", "module.a.module.b.module.d.null_resource.y", "module.a.null_resource.z"},
			moves: map[string]string{"module.c.null_resource.x": "module.a.module.b.null_resource.x",
				"module.c.module.d.null_resource.y": "module.a.module.b.module.d.null_resource.y"},
		},
		{
			name: "module call with count moved into another module keeps keys",
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "module.a", "module.p.module.a", 1)}
			},
			state: []string{"module.a[0].null_resource.x", `module.a[1].null_resource.x`},
			moves: map[string]string{"module.p.module.a[0].null_resource.x": "module.a[0].null_resource.x",
				"module.p.module.a[1].null_resource.x": "module.a[1].null_resource.x"},
		},
		{
			name: "module instance destination taken",
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "module.a", "module.b", 1)}
			},
			state:   []string{"module.a.null_resource.x", "module.b.null_resource.x"},
			moves:   map[string]string{},
			blocked: []Blocked{{Actual: "module.a", Wanted: "module.b"}},
		},
		{
			name: "whole resource destination taken",
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "null_resource.a", "null_resource.b", 1)}
			},
			state:   []string{"null_resource.a[0]", "null_resource.b[3]"},
			moves:   map[string]string{},
			blocked: []Blocked{{Actual: "null_resource.a", Wanted: "null_resource.b"}},
		},
		{
			name: "cycle moves nothing",
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "null_resource.a", "null_resource.b", 1), stmt(t, root, "null_resource.b", "null_resource.a", 5)}
			},
			state: []string{"null_resource.a"},
			moves: map[string]string{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := stateOf(t, tc.state...)
			res := ApplyMoves(tc.stmts(t), st)
			got := map[string]string{}
			for to, m := range res.Moves {
				got[to] = m.From.String()
				obj := st.ResourceInstanceObject(m.To, addrs.NotDeposed)
				if obj == nil || !strings.Contains(string(obj.AttrsJSON), `"`+m.From.String()+`"`) {
					t.Errorf("object at %s = %v, want the one from %s", m.To, obj, m.From)
				}
				if st.ResourceInstance(m.From) != nil {
					t.Errorf("object left at %s", m.From)
				}
			}
			if d := cmp.Diff(tc.moves, got); d != "" {
				t.Errorf("moves (-want +got):\n%s", d)
			}
			for i := range res.Blocked {
				res.Blocked[i].Stmt = nil // compared by address
			}
			if d := cmp.Diff(tc.blocked, res.Blocked); d != "" {
				t.Errorf("blocked (-want +got):\n%s", d)
			}
		})
	}
}

// noneDeclared is a Declared with only the root module and nothing in it.
type noneDeclared struct{}

func (noneDeclared) ModuleInstances(p addrs.Module) []addrs.ModuleInstance {
	if p.IsRoot() {
		return []addrs.ModuleInstance{addrs.RootModuleInstance}
	}
	return nil
}
func (noneDeclared) HasModuleInstance(m addrs.ModuleInstance) bool      { return m.IsRoot() }
func (noneDeclared) HasModuleCall(addrs.ModuleInstance, string) bool    { return false }
func (noneDeclared) HasResource(addrs.AbsResource) bool                 { return false }
func (noneDeclared) HasResourceInstance(addrs.AbsResourceInstance) bool { return false }

// TestValidateCrossPackage: a moved block cannot reach into a module from
// another package (a registry or remote source), in either direction; a
// local child module is the same package.
func TestValidateCrossPackage(t *testing.T) {
	cfg := &configs.Config{Module: &configs.Module{}, Children: map[string]*configs.Config{
		"vpc":   {Path: addrs.Module{"vpc"}, SourceAddr: "terraform-aws-modules/vpc/aws", Module: &configs.Module{}},
		"local": {Path: addrs.Module{"local"}, SourceAddr: "./modules/local", Module: &configs.Module{}},
	}}
	tests := []struct {
		from, to string
		want     string
	}{
		{"null_resource.a", "module.vpc.null_resource.a", `This moved block moves an object into module module.vpc, which is installed from another module package ("terraform-aws-modules/vpc/aws").`},
		{"module.vpc.null_resource.a", "null_resource.a", `This moved block moves an object from module module.vpc, which is installed from another module package ("terraform-aws-modules/vpc/aws").`},
		{"null_resource.a", "module.local.null_resource.a", ""},
	}
	for _, tc := range tests {
		t.Run(tc.from+" to "+tc.to, func(t *testing.T) {
			diags := Validate([]Statement{stmt(t, addrs.RootModule, tc.from, tc.to, 7)}, cfg, noneDeclared{})
			if tc.want == "" {
				if diags.HasErrors() {
					t.Fatal(diags.Error())
				}
				return
			}
			if len(diags) != 1 || diags[0].Summary != "Cross-package move statement" || diags[0].Detail != tc.want+" A moved block can only move objects within its own module package." {
				t.Fatalf("diagnostics %v", diags)
			}
			if diags[0].Subject == nil || diags[0].Subject.Start.Line != 7 {
				t.Errorf("subject %v, want main.tf:7", diags[0].Subject)
			}
		})
	}
}

// BenchmarkApplyMoves applies 1,000 independent renames to a state of
// 1,000 resources: the pairwise ordering is O(S²) comparisons of
// precomputed patterns.
func BenchmarkApplyMoves(b *testing.B) {
	const n = 1000
	var stmts []Statement
	var names []string
	for i := range n {
		from := addrs.MoveEndpoint{Kind: addrs.MoveResource, Resource: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "a" + strconv.Itoa(i)}.Instance(addrs.NoKey)}
		to := from
		to.Resource.Resource.Name = "b" + strconv.Itoa(i)
		stmts = append(stmts, Statement{From: from, To: to, DeclRange: hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: i + 1}}})
		names = append(names, "null_resource.a"+strconv.Itoa(i))
	}
	st := stateOf(b, names...)
	b.ReportAllocs()
	for b.Loop() {
		s := st.DeepCopy()
		if res := ApplyMoves(stmts, s); len(res.Moves) != n {
			b.Fatalf("%d moves", len(res.Moves))
		}
	}
}

func TestAbsString(t *testing.T) {
	mi := addrs.RootModuleInstance.Child("p", addrs.IntKey(1))
	parse := func(s string) addrs.MoveEndpoint {
		trav, d := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
		if d.HasErrors() {
			t.Fatal(d)
		}
		e, d := addrs.ParseMoveEndpoint(trav)
		if d.HasErrors() {
			t.Fatal(d)
		}
		return *e
	}
	for in, want := range map[string]string{
		"module.a":                    "module.p[1].module.a",
		`module.a["k"]`:               `module.p[1].module.a["k"]`,
		"null_resource.x":             "module.p[1].null_resource.x",
		"module.a.null_resource.x[2]": "module.p[1].module.a.null_resource.x[2]",
	} {
		if got := absString(mi, parse(in)); got != want {
			t.Errorf("absString(%s, %s) = %s, want %s", mi, in, got, want)
		}
		if got := absString(addrs.RootModuleInstance, parse(in)); got != in {
			t.Errorf("absString(root, %s) = %s", in, got)
		}
	}
}
