package terraform

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// moveResult is a comparable rendering of one planned change of a moves
// test: its action, reason and previous address (empty when it did not
// move).
type moveResult struct {
	Action, Reason, Prev string
}

func moveResults(rcs []*plans.ResourceInstanceChange) map[string]moveResult {
	out := map[string]moveResult{}
	for _, rc := range rcs {
		r := moveResult{Action: rc.Action.String(), Reason: reasonString(rc.ActionReason)}
		if rc.Moved() {
			r.Prev = rc.PrevRunAddr.String()
		}
		out[rc.Addr.String()] = r
	}
	return out
}

const childMod = `
variable "n" {
  type    = string
  default = ""
}
resource "test_thing" "x" { name = "x" }
`

// TestPlanMoves covers each rule of moved blocks: what moves where, the
// action planned at the new address and the previous address recorded.
func TestPlanMoves(t *testing.T) {
	noop := func(prev string) moveResult { return moveResult{Action: "NoOp", Prev: prev} }
	tests := []struct {
		name  string
		files map[string]string
		state map[string]string
		want  map[string]moveResult
		warn  string
	}{
		{
			name:  "rename a resource",
			files: map[string]string{"main.tf": `resource "test_thing" "b" { name = "a" }` + "\nmoved {\n  from = test_thing.a\n  to   = test_thing.b\n}\n"},
			state: map[string]string{"test_thing.a": thing("A", "a")},
			want:  map[string]moveResult{"test_thing.b": noop("test_thing.a")},
		},
		{
			name:  "rename with a change",
			files: map[string]string{"main.tf": `resource "test_thing" "b" { name = "new" }` + "\nmoved {\n  from = test_thing.a\n  to   = test_thing.b\n}\n"},
			state: map[string]string{"test_thing.a": thing("A", "a")},
			want:  map[string]moveResult{"test_thing.b": {Action: "Update", Prev: "test_thing.a"}},
		},
		{
			name: "whole resource keeps its instance keys",
			files: map[string]string{"main.tf": `resource "test_thing" "b" {
  count = 2
  name  = "n${count.index}"
}
moved {
  from = test_thing.a
  to   = test_thing.b
}`},
			state: map[string]string{"test_thing.a[0]": thing("A0", "n0"), "test_thing.a[1]": thing("A1", "n1")},
			want:  map[string]moveResult{"test_thing.b[0]": noop("test_thing.a[0]"), "test_thing.b[1]": noop("test_thing.a[1]")},
		},
		{
			name: "count index to for_each key",
			files: map[string]string{"main.tf": `resource "test_thing" "a" {
  for_each = toset(["x"])
  name     = each.key
}
moved {
  from = test_thing.a[0]
  to   = test_thing.a["x"]
}`},
			state: map[string]string{"test_thing.a[0]": thing("A", "x")},
			want:  map[string]moveResult{`test_thing.a["x"]`: noop("test_thing.a[0]")},
		},
		{
			name: "no key to a key",
			files: map[string]string{"main.tf": `resource "test_thing" "a" {
  for_each = toset(["x"])
  name     = each.key
}
moved {
  from = test_thing.a
  to   = test_thing.a["x"]
}`},
			state: map[string]string{"test_thing.a": thing("A", "x")},
			want:  map[string]moveResult{`test_thing.a["x"]`: noop("test_thing.a")},
		},
		{
			name: "chain of moves",
			files: map[string]string{"main.tf": `resource "test_thing" "c" { name = "a" }
moved {
  from = test_thing.b
  to   = test_thing.c
}
moved {
  from = test_thing.a
  to   = test_thing.b
}`},
			state: map[string]string{"test_thing.a": thing("A", "a")},
			want:  map[string]moveResult{"test_thing.c": noop("test_thing.a")},
		},
		{
			name: "module call renamed",
			files: map[string]string{"main.tf": `module "new" { source = "./mod" }
moved {
  from = module.old
  to   = module.new
}`, "mod/main.tf": childMod},
			state: map[string]string{"module.old.test_thing.x": thing("X", "x")},
			want:  map[string]moveResult{"module.new.test_thing.x": noop("module.old.test_thing.x")},
		},
		{
			name: "module call with count renamed keeps keys",
			files: map[string]string{"main.tf": `module "new" {
  source = "./mod"
  count  = 2
}
moved {
  from = module.old
  to   = module.new
}`, "mod/main.tf": childMod},
			state: map[string]string{"module.old[0].test_thing.x": thing("X0", "x"), "module.old[1].test_thing.x": thing("X1", "x")},
			want: map[string]moveResult{"module.new[0].test_thing.x": noop("module.old[0].test_thing.x"),
				"module.new[1].test_thing.x": noop("module.old[1].test_thing.x")},
		},
		{
			name: "module instance to another key",
			files: map[string]string{"main.tf": `module "m" {
  source   = "./mod"
  for_each = toset(["a"])
}
moved {
  from = module.m[0]
  to   = module.m["a"]
}`, "mod/main.tf": childMod},
			state: map[string]string{"module.m[0].test_thing.x": thing("X", "x")},
			want:  map[string]moveResult{`module.m["a"].test_thing.x`: noop("module.m[0].test_thing.x")},
		},
		{
			name: "resource into a module",
			files: map[string]string{"main.tf": `module "m" { source = "./mod" }
moved {
  from = test_thing.x
  to   = module.m.test_thing.x
}`, "mod/main.tf": childMod},
			state: map[string]string{"test_thing.x": thing("X", "x")},
			want:  map[string]moveResult{"module.m.test_thing.x": noop("test_thing.x")},
		},
		{
			name: "resource out of a module",
			files: map[string]string{"main.tf": `resource "test_thing" "x" { name = "x" }
moved {
  from = module.m.test_thing.x
  to   = test_thing.x
}`},
			state: map[string]string{"module.m.test_thing.x": thing("X", "x")},
			want:  map[string]moveResult{"test_thing.x": noop("module.m.test_thing.x")},
		},
		{
			name: "moved block inside a module applies in each instance",
			files: map[string]string{"main.tf": `module "m" {
  source = "./mod"
  count  = 2
}`, "mod/main.tf": `resource "test_thing" "y" { name = "x" }
moved {
  from = test_thing.x
  to   = test_thing.y
}`},
			state: map[string]string{"module.m[0].test_thing.x": thing("X0", "x"), "module.m[1].test_thing.x": thing("X1", "x")},
			want: map[string]moveResult{"module.m[0].test_thing.y": noop("module.m[0].test_thing.x"),
				"module.m[1].test_thing.y": noop("module.m[1].test_thing.x")},
		},
		{
			name: "module move and a move inside the module",
			files: map[string]string{"main.tf": `module "new" { source = "./mod" }
moved {
  from = module.old
  to   = module.new
}`, "mod/main.tf": `resource "test_thing" "y" { name = "x" }
moved {
  from = test_thing.x
  to   = test_thing.y
}`},
			state: map[string]string{"module.old.test_thing.x": thing("X", "x")},
			want:  map[string]moveResult{"module.new.test_thing.y": noop("module.old.test_thing.x")},
		},
		{
			name: "implied move when count is added",
			files: map[string]string{"main.tf": `resource "test_thing" "a" {
  count = 1
  name  = "a"
}`},
			state: map[string]string{"test_thing.a": thing("A", "a")},
			want:  map[string]moveResult{"test_thing.a[0]": noop("test_thing.a")},
		},
		{
			name:  "implied move when count is removed",
			files: map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }`},
			state: map[string]string{"test_thing.a[0]": thing("A", "a")},
			want:  map[string]moveResult{"test_thing.a": noop("test_thing.a[0]")},
		},
		{
			name: "destination already in the state: skipped with a warning",
			files: map[string]string{"main.tf": `resource "test_thing" "b" { name = "b" }
moved {
  from = test_thing.a
  to   = test_thing.b
}`},
			state: map[string]string{"test_thing.a": thing("A", "a"), "test_thing.b": thing("B", "b")},
			want: map[string]moveResult{"test_thing.b": {Action: "NoOp"},
				"test_thing.a": {Action: "Delete", Reason: "DeleteBecauseNoResourceConfig"}},
			warn: "test_thing.a could not move to test_thing.b (moved block at main.tf:2)",
		},
		{
			name:  "moved to an address not in the configuration",
			files: map[string]string{"main.tf": "moved {\n  from = test_thing.a\n  to   = test_thing.b\n}\n"},
			state: map[string]string{"test_thing.a": thing("A", "a")},
			want:  map[string]moveResult{"test_thing.b": {Action: "Delete", Reason: "DeleteBecauseNoMoveTarget", Prev: "test_thing.a"}},
		},
		{
			name: "moved to a key of the wrong kind",
			files: map[string]string{"main.tf": `resource "test_thing" "c" {
  count = 1
  name  = "a"
}
moved {
  from = test_thing.a
  to   = test_thing.c["x"]
}`},
			state: map[string]string{"test_thing.a": thing("A", "a")},
			want: map[string]moveResult{`test_thing.c["x"]`: {Action: "Delete", Reason: "DeleteBecauseWrongRepetition", Prev: "test_thing.a"},
				"test_thing.c[0]": {Action: "Create"}},
		},
		{
			name:  "nothing in the state to move",
			files: map[string]string{"main.tf": `resource "test_thing" "b" { name = "a" }` + "\nmoved {\n  from = test_thing.a\n  to   = test_thing.b\n}\n"},
			want:  map[string]moveResult{"test_thing.b": {Action: "Create"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, tc.files)
			c := testContext(t, newTestProvider(), 4)
			st := thingState(t, tc.state)
			before := st.DeepCopy()
			plan, diags := c.Plan(context.Background(), cfg, st, nil)
			if diags.HasErrors() {
				t.Fatalf("plan: %s", diagsString(diags))
			}
			if d := cmp.Diff(tc.want, moveResults(plan.Changes.Resources)); d != "" {
				t.Errorf("changes (-want +got):\n%s", d)
			}
			warns := ""
			for _, d := range diags {
				if d.Severity == hcl.DiagWarning {
					warns += d.Summary + ": " + d.Detail + "\n"
				}
			}
			if (tc.warn == "") != (warns == "") || !strings.Contains(warns, tc.warn) {
				t.Errorf("warnings %q, want one containing %q", warns, tc.warn)
			}
			if d := cmp.Diff(before.AllResourceInstances(), plan.PrevRunState.AllResourceInstances()); d != "" {
				t.Errorf("PrevRunState is not the state as given (-want +got):\n%s", d)
			}
			if d := cmp.Diff(before.AllResourceInstances(), st.AllResourceInstances()); d != "" {
				t.Errorf("the caller's state was changed (-want +got):\n%s", d)
			}
			for _, rc := range plan.Changes.Resources {
				if rc.Action == plans.Delete || rc.Action == plans.Create {
					continue
				}
				if plan.PriorState.ResourceInstance(rc.Addr) == nil {
					t.Errorf("prior state has no object at the new address %s", rc.Addr)
				}
				if rc.Moved() && plan.PriorState.ResourceInstance(rc.PrevRunAddr) != nil {
					t.Errorf("prior state still has an object at the old address %s", rc.PrevRunAddr)
				}
			}
			if !plan.Applyable {
				t.Errorf("plan with moves is not applyable")
			}
		})
	}
}

// TestPlanMovesErrors covers every validation error: each names the
// moved block (its range) and, where two blocks conflict, the other one's
// file and line.
func TestPlanMovesErrors(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		state   map[string]string
		opts    *PlanOpts
		want    []string // substrings of the diagnostics
		subject string   // "file:line" of the first error's subject
	}{
		{
			name:    "redundant move",
			files:   map[string]string{"main.tf": `resource "test_thing" "a" {}` + "\nmoved {\n  from = test_thing.a\n  to   = test_thing.a\n}\n"},
			want:    []string{"Redundant move statement: This moved block moves test_thing.a to the address it already has"},
			subject: "main.tf:2",
		},
		{
			name:    "source still declared",
			files:   map[string]string{"main.tf": `resource "test_thing" "a" {}` + "\n" + `resource "test_thing" "b" {}` + "\nmoved {\n  from = test_thing.a\n  to   = test_thing.b\n}\n"},
			state:   map[string]string{"test_thing.a": thing("A", "")},
			want:    []string{"Moved object still exists: This moved block moves test_thing.a away, but that resource is still declared at main.tf:1."},
			subject: "main.tf:3",
		},
		{
			name: "source instance still declared (blames count)",
			files: map[string]string{"main.tf": `resource "test_thing" "a" {
  count = 2
}
moved {
  from = test_thing.a[1]
  to   = test_thing.a[5]
}`},
			want:    []string{"Moved object still exists: This moved block moves test_thing.a[1] away, but that resource instance is still declared at main.tf:2."},
			subject: "main.tf:4",
		},
		{
			name: "module call still declared",
			files: map[string]string{"main.tf": `module "a" { source = "./mod" }
module "b" { source = "./mod" }
moved {
  from = module.a
  to   = module.b
}`, "mod/main.tf": childMod},
			want:    []string{"Moved object still exists: This moved block moves module.a away, but that module call is still declared at main.tf:1."},
			subject: "main.tf:3",
		},
		{
			name: "one source, two destinations",
			files: map[string]string{"main.tf": `resource "test_thing" "b" {}
resource "test_thing" "c" {}
moved {
  from = test_thing.a
  to   = test_thing.b
}
moved {
  from = test_thing.a
  to   = test_thing.c
}`},
			want:    []string{"Ambiguous move statements: The moved block at main.tf:3 moves test_thing.a to test_thing.b, and this one moves it to test_thing.c."},
			subject: "main.tf:7",
		},
		{
			name: "two sources, one destination",
			files: map[string]string{"main.tf": `resource "test_thing" "c" {}
moved {
  from = test_thing.a
  to   = test_thing.c
}
moved {
  from = test_thing.b
  to   = test_thing.c
}`},
			want:    []string{"Ambiguous move statements: The moved block at main.tf:2 moves test_thing.a to test_thing.c, and this one moves test_thing.b there too."},
			subject: "main.tf:6",
		},
		{
			name: "cycle",
			files: map[string]string{"main.tf": `moved {
  from = test_thing.a
  to   = test_thing.b
}
moved {
  from = test_thing.b
  to   = test_thing.a
}`},
			state:   map[string]string{"test_thing.a": thing("A", "")},
			want:    []string{"Cyclic dependency in move statements", "\n  - main.tf:1: test_thing.a → test_thing.b\n  - main.tf:5: test_thing.b → test_thing.a"},
			subject: "main.tf:1",
		},
		{
			name: "targeting leaves out a moved instance",
			files: map[string]string{"main.tf": `resource "test_thing" "b" {}
moved {
  from = test_thing.a
  to   = test_thing.b
}`},
			state: map[string]string{"test_thing.a": thing("A", "")},
			opts:  &PlanOpts{Targets: []addrs.Targetable{mustInst(t, "test_thing.b").ContainingResource()}},
			want:  []string{"Moved resource instances excluded by targeting", `-target="test_thing.a"`, "moved blocks (or implied moves) at main.tf:2."},
		},
		{
			name: "cross-type move the provider refuses",
			files: map[string]string{"main.tf": `resource "test_other" "b" {}
moved {
  from = test_thing.a
  to   = test_other.b
}`},
			state:   map[string]string{"test_thing.a": thing("A", "")},
			want:    []string{"Unsupported move across resource types: The moved block at main.tf:2 moves test_thing.a to test_other.b"},
			subject: "main.tf:2",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, tc.files)
			p := newTestProvider()
			p.Schema.ResourceTypes["test_other"] = p.Schema.ResourceTypes["test_thing"]
			c := testContext(t, p, 4)
			plan, diags := c.Plan(context.Background(), cfg, thingState(t, tc.state), tc.opts)
			if !diags.HasErrors() {
				t.Fatalf("no error; plan changes %v", moveResults(plan.Changes.Resources))
			}
			got := diagsString(diags)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("diagnostics\n%s\ndo not contain\n%s", got, w)
				}
			}
			if tc.subject != "" {
				var first *hcl.Diagnostic
				for _, d := range diags {
					if d.Severity == hcl.DiagError {
						first = d
						break
					}
				}
				if first.Subject == nil {
					t.Fatalf("error %q has no subject", first.Summary)
				}
				if at := first.Subject.Filename[strings.LastIndex(first.Subject.Filename, "/")+1:] + ":" + strconv.Itoa(first.Subject.Start.Line); at != tc.subject {
					t.Errorf("error subject %s, want %s", at, tc.subject)
				}
			}
		})
	}
}

// orderedWriter records the state writer's events in order.
type orderedWriter struct {
	mu     sync.Mutex
	events []string
	live   *states.SyncState
}

func (w *orderedWriter) add(e string)                 { w.mu.Lock(); w.events = append(w.events, e); w.mu.Unlock() }
func (w *orderedWriter) Start(live *states.SyncState) { w.live = live }
func (w *orderedWriter) Begin(addr addrs.AbsResourceInstance, _ addrs.DeposedKey, a plans.Action) error {
	w.add("begin " + addr.String())
	return nil
}
func (w *orderedWriter) Changed(addr addrs.AbsResourceInstance) {
	if w.live.ResourceInstance(addr) == nil {
		w.add("changed " + addr.String() + " (gone)")
		return
	}
	w.add("changed " + addr.String())
}
func (w *orderedWriter) End(addrs.AbsResourceInstance) {}
func (w *orderedWriter) Close() error                  { return nil }

// TestApplyMovesPureMove applies a plan whose only change is a move: the
// state has the object at its new address, nothing at the old one, and
// the provider was not asked to change anything.
func TestApplyMovesPureMove(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `resource "test_thing" "b" { name = "a" }` + "\nmoved {\n  from = test_thing.a\n  to   = test_thing.b\n}\n"})
	p := newTestProvider()
	c := testContext(t, p, 2)
	plan := mustPlan(t, c, cfg, thingState(t, map[string]string{"test_thing.a": thing("A", "a")}), nil)
	w := &orderedWriter{}
	st, diags := c.Apply(context.Background(), plan, cfg, &ApplyOpts{State: w})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if st.ResourceInstance(mustInst(t, "test_thing.a")) != nil || st.ResourceInstance(mustInst(t, "test_thing.b")) == nil {
		t.Fatalf("state after apply has %v, want only test_thing.b", st.AllResourceInstances())
	}
	if got := string(st.ResourceInstanceObject(mustInst(t, "test_thing.b"), addrs.NotDeposed).AttrsJSON); !strings.Contains(got, `"id":"A"`) {
		t.Errorf("moved object = %s, want the old object", got)
	}
	for _, call := range p.Calls() {
		if call.Method == "ApplyResourceChange" {
			t.Errorf("provider applied a change for a pure move: %+v", call)
		}
	}
	if d := cmp.Diff([]string{"changed test_thing.a (gone)", "changed test_thing.b"}, w.events); d != "" {
		t.Errorf("state writer events (-want +got):\n%s", d)
	}
	// Planning again from the applied state: nothing moves, nothing changes.
	plan2 := mustPlan(t, c, cfg, st, nil)
	if d := cmp.Diff(map[string]moveResult{"test_thing.b": {Action: "NoOp"}}, moveResults(plan2.Changes.Resources)); d != "" {
		t.Errorf("second plan (-want +got):\n%s", d)
	}
}

// TestPlanMovesModuleProvider: a resource moved into a module is recorded
// under the provider configuration its new block uses.
func TestPlanMovesModuleProvider(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
provider "test" {
  alias = "two"
}
module "m" {
  source    = "./mod"
  providers = { test = test.two }
}
moved {
  from = test_thing.x
  to   = module.m.test_thing.x
}`, "mod/main.tf": childMod})
	plan := mustPlan(t, testContext(t, newTestProvider(), 2), cfg, thingState(t, map[string]string{"test_thing.x": thing("X", "x")}), nil)
	rs := plan.PriorState.Resource(mustInst(t, "module.m.test_thing.x").ContainingResource())
	if rs == nil || rs.ProviderConfig.Alias != "two" {
		t.Fatalf("moved resource provider = %+v, want the aliased root configuration", rs)
	}
}

// TestPlanMovesAcrossTypes moves a null_resource to terraform_data, as
// Terraform 1.8+ does: the built-in terraform_data converts the object
// (triggers become triggers_replace, the id is kept), so a configuration
// with the same triggers plans no replacement, and apply records the
// object under the new type and provider.
func TestPlanMovesAcrossTypes(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "terraform_data" "d" {
  triggers_replace = { v = "1" }
}
moved {
  from = null_resource.n
  to   = terraform_data.d
}`})
	st := states.NewState()
	st.SetResourceInstanceCurrent(mustInst(t, "null_resource.n"), &states.ResourceInstanceObjectSrc{
		AttrsJSON: []byte(`{"id":"5577006791947779410","triggers":{"v":"1"}}`), Status: states.ObjectReady, Private: []byte("priv"),
	}, addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
	c := builtinContext(t)
	plan := mustPlan(t, c, cfg, st, nil)
	if d := cmp.Diff(map[string]moveResult{"terraform_data.d": {Action: "NoOp", Prev: "null_resource.n"}}, moveResults(plan.Changes.Resources)); d != "" {
		t.Fatalf("changes (-want +got):\n%s", d)
	}
	rc := plan.Changes.Resources[0]
	if got := valJSON(rc.After); got != `{"id":"5577006791947779410","input":null,"output":null,"triggers_replace":{"v":"1"}}` {
		t.Errorf("planned object %s", got)
	}
	out, diags := c.Apply(context.Background(), plan, cfg, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	rs := out.Resource(mustInst(t, "terraform_data.d").ContainingResource())
	if rs == nil || rs.ProviderConfig.Provider != addrs.NewBuiltInProvider("terraform") || out.Resource(mustInst(t, "null_resource.n").ContainingResource()) != nil {
		t.Fatalf("state after apply: %v (terraform_data.d provider %+v)", out.AllResourceInstances(), rs)
	}
	obj := rs.Instances[addrs.NoKey].Current
	if !strings.Contains(string(obj.AttrsJSON), `"id":"5577006791947779410"`) || string(obj.Private) != "priv" {
		t.Errorf("stored object %s private %q", obj.AttrsJSON, obj.Private)
	}
	// A changed trigger after the move replaces, as for any terraform_data.
	cfg2 := loadConfig(t, map[string]string{"main.tf": `
resource "terraform_data" "d" {
  triggers_replace = { v = "2" }
}
moved {
  from = null_resource.n
  to   = terraform_data.d
}`})
	plan2 := mustPlan(t, c, cfg2, out, nil)
	if d := cmp.Diff(map[string]moveResult{"terraform_data.d": {Action: "DeleteThenCreate", Reason: "ReplaceBecauseCannotUpdate"}}, moveResults(plan2.Changes.Resources)); d != "" {
		t.Errorf("plan after the move (-want +got):\n%s", d)
	}
}

// TestPlanMovesRefreshOnly: a refresh-only plan applies the moves too; an
// object that moved without other change is a no-op drift entry with its
// previous address (so the plan is applyable and show -json lists it in
// resource_drift), and applying the plan records the move.
func TestPlanMovesRefreshOnly(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `resource "test_thing" "b" { name = "a" }` + "\nmoved {\n  from = test_thing.a\n  to   = test_thing.b\n}\n"})
	c := testContext(t, newTestProvider(), 2)
	st := thingState(t, map[string]string{"test_thing.a": thing("A", "a")})
	for _, mode := range []plans.Mode{plans.RefreshOnlyMode, plans.NormalMode} {
		plan := mustPlan(t, c, cfg, st, &PlanOpts{Mode: mode})
		if d := cmp.Diff(map[string]moveResult{"test_thing.b": {Action: "NoOp", Prev: "test_thing.a"}}, moveResults(plan.DriftedResources)); d != "" {
			t.Errorf("%s: drift (-want +got):\n%s", mode, d)
		}
		if !plan.Applyable {
			t.Errorf("%s: plan not applyable", mode)
		}
		if mode != plans.RefreshOnlyMode {
			continue
		}
		if len(plan.Changes.Resources) != 0 {
			t.Errorf("refresh-only plan has changes %v", moveResults(plan.Changes.Resources))
		}
		out, diags := c.Apply(context.Background(), plan, cfg, nil)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		if out.ResourceInstance(mustInst(t, "test_thing.b")) == nil || out.ResourceInstance(mustInst(t, "test_thing.a")) != nil {
			t.Errorf("state after the refresh-only apply: %v", out.AllResourceInstances())
		}
	}
}

// BenchmarkPlanMoves plans 1,000 terraform_data instances (count) whose
// resource was renamed with a moved block, against the same plan from a
// state already at the new address: the cost of the refactoring step
// (one state copy, 1,000 instance moves, previous addresses and no-op
// drift entries).
func BenchmarkPlanMoves(b *testing.B) {
	const n = 1000
	body := "resource \"terraform_data\" \"new\" {\n  count = 1000\n  input = count.index\n}\n"
	for _, tc := range []struct {
		name, src, stateName string
	}{
		{"moved-1000", body + "moved {\n  from = terraform_data.old\n  to   = terraform_data.new\n}\n", "old"},
		{"unmoved-1000", body, "new"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := loadConfig(b, map[string]string{"main.tf": tc.src})
			st := states.NewState()
			for i := range n {
				a := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: tc.stateName}.Instance(addrs.IntKey(i)).Absolute(nil)
				st.SetResourceInstanceCurrent(a, &states.ResourceInstanceObjectSrc{Status: states.ObjectReady,
					AttrsJSON: []byte(`{"id":"x` + strconv.Itoa(i) + `","input":{"value":` + strconv.Itoa(i) + `,"type":"number"},"output":{"value":` + strconv.Itoa(i) + `,"type":"number"},"triggers_replace":null}`)},
					addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")})
			}
			c := builtinContext(b)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				p, diags := c.Plan(context.Background(), cfg, st, nil)
				if diags.HasErrors() {
					b.Fatal(diags.Error())
				}
				if len(p.Changes.Resources) != n || p.Changes.Resources[0].Action != plans.NoOp {
					b.Fatalf("%d changes, first %s", len(p.Changes.Resources), p.Changes.Resources[0].Action)
				}
			}
		})
	}
}

// TestPlanMovesDestroy: a destroy plan applies the moves too, so the
// object is destroyed at its new address with its previous one recorded.
func TestPlanMovesDestroy(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `resource "test_thing" "b" { name = "a" }` + "\nmoved {\n  from = test_thing.a\n  to   = test_thing.b\n}\n"})
	c := testContext(t, newTestProvider(), 2)
	plan := mustPlan(t, c, cfg, thingState(t, map[string]string{"test_thing.a": thing("A", "a")}), &PlanOpts{Mode: plans.DestroyMode})
	if d := cmp.Diff(map[string]moveResult{"test_thing.b": {Action: "Delete", Prev: "test_thing.a"}}, moveResults(plan.Changes.Resources)); d != "" {
		t.Fatalf("destroy plan (-want +got):\n%s", d)
	}
	out, diags := c.Apply(context.Background(), plan, cfg, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if n := len(out.AllResourceInstances()); n != 0 {
		t.Errorf("%d objects left after destroy: %v", n, out.AllResourceInstances())
	}
}
