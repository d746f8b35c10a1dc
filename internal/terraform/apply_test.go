package terraform

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/providertest"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
)

// planApply plans cfg against st and applies the plan with p, returning
// the new state, the apply diagnostics' text, and the apply calls.
func planApply(t *testing.T, p *providertest.Provider, files map[string]string, st *states.State, opts *PlanOpts, par int) (*states.State, string, []string) {
	t.Helper()
	cfg := loadConfig(t, files)
	c := testContext(t, p, par)
	plan := mustPlan(t, c, cfg, st, opts)
	p.ResetCalls()
	var mu sync.Mutex
	persisted := 0
	newState, diags := c.Apply(context.Background(), plan, cfg, &ApplyOpts{Persist: func(*states.State) error {
		mu.Lock()
		persisted++
		mu.Unlock()
		return nil
	}})
	if newState == nil {
		t.Fatal("Apply returned a nil state")
	}
	if persisted == 0 {
		t.Errorf("state never persisted")
	}
	return newState, diagsString(diags), p.CallStrings(providertest.ApplyResourceChange)
}

func stateNames(st *states.State) []string {
	var out []string
	for _, a := range st.AllResourceInstances() {
		out = append(out, a.String())
	}
	return out
}

func TestApplyOrders(t *testing.T) {
	chain := map[string]string{"main.tf": `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b-${test_thing.a.id}" }
resource "test_thing" "c" { name = "c-${test_thing.b.id}" }`}
	tests := []struct {
		name  string
		files map[string]string
		state map[string]string
		opts  *PlanOpts
		want  []string
	}{
		{"create chain", chain, nil, nil, []string{"ApplyResourceChange create test_thing.a", "ApplyResourceChange create test_thing.b-test_thing-1", "ApplyResourceChange create test_thing.c-test_thing-2"}},
		{"destroy chain in reverse", chain, map[string]string{"test_thing.a": thing("A", "a"), "test_thing.b": thing("B", "b-A"), "test_thing.c": thing("C", "c-B")},
			&PlanOpts{Mode: plans.DestroyMode}, []string{"ApplyResourceChange delete test_thing.c-B", "ApplyResourceChange delete test_thing.b-A", "ApplyResourceChange delete test_thing.a"}},
		{"replace: delete then create", map[string]string{"main.tf": `resource "test_thing" "a" {` + "\nname = \"a\"\nami = \"new\"\n}"},
			map[string]string{"test_thing.a": `{"id":"A","name":"a","ami":"old"}`}, nil,
			[]string{"ApplyResourceChange delete test_thing.a", "ApplyResourceChange create test_thing.a"}},
		{"create before destroy: create, update dependent, delete deposed", map[string]string{"main.tf": `
resource "test_thing" "a" {
  name = "a"
  ami  = "new"
  lifecycle { create_before_destroy = true }
}
resource "test_thing" "b" { name = "b-${test_thing.a.id}" }`},
			map[string]string{"test_thing.a": `{"id":"A","name":"a","ami":"old"}`, "test_thing.b": thing("B", "b-A")}, nil,
			[]string{"ApplyResourceChange create test_thing.a", "ApplyResourceChange update test_thing.b-test_thing-1", "ApplyResourceChange delete test_thing.a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newTestProvider()
			_, diags, calls := planApply(t, p, tc.files, thingState(t, tc.state), tc.opts, 1)
			if diags != "" {
				t.Fatalf("apply: %s", diags)
			}
			if d := cmp.Diff(tc.want, calls); d != "" {
				t.Errorf("apply calls (-want +got):\n%s", d)
			}
		})
	}
}

func TestApplyDiamondDestroyOrder(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "test_thing" "top" {}
resource "test_thing" "l" { name = "l-${test_thing.top.id}" }
resource "test_thing" "r" { name = "r-${test_thing.top.id}" }
resource "test_thing" "bottom" { name = "${test_thing.l.id}${test_thing.r.id}" }`}
	st := thingState(t, map[string]string{"test_thing.top": thing("T", ""), "test_thing.l": thing("L", "l-T"), "test_thing.r": thing("R", "r-T"), "test_thing.bottom": thing("B", "LR")})
	p := newTestProvider()
	_, diags, calls := planApply(t, p, files, st, &PlanOpts{Mode: plans.DestroyMode}, 4)
	if diags != "" {
		t.Fatal(diags)
	}
	pos := map[string]int{}
	for i, c := range calls {
		pos[c[strings.LastIndex(c, ".")+1:]] = i
	}
	if !(pos["LR"] < pos["l-T"] && pos["LR"] < pos["r-T"] && pos["l-T"] < pos["T"] && pos["r-T"] < pos["T"]) || len(calls) != 4 {
		t.Errorf("diamond destroyed in wrong order: %v", calls)
	}
}

func TestApplyFailureMidChain(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b${test_thing.a.id}" }
resource "test_thing" "c" { name = "c${test_thing.b.id}" }
resource "test_thing" "x" { name = "x" }
resource "test_thing" "y" { name = "y${test_thing.x.id}" }`}
	p := newTestProvider()
	p.Inject(&providertest.Fault{Method: providertest.ApplyResourceChange, Key: "x", Err: errors.New("boom")})
	p.ApplyFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		m := req.PlannedState.AsValueMap()
		m["id"] = cty.StringVal("id-" + m["name"].AsString())
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(m)}
	}
	st, diags, _ := planApply(t, p, files, nil, nil, 2)
	if !strings.Contains(diags, "boom") {
		t.Fatalf("diagnostics %q lack the failure", diags)
	}
	if d := cmp.Diff([]string{"test_thing.a", "test_thing.b", "test_thing.c"}, stateNames(st)); d != "" {
		t.Errorf("state (-want +got):\n%s", d)
	}
}

func TestApplyTaintsFailedCreate(t *testing.T) {
	p := newTestProvider()
	p.ApplyFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		m := req.PlannedState.AsValueMap()
		m["id"] = cty.StringVal("half")
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(m), Diagnostics: hclErr("create failed halfway")}
	}
	st, diags, _ := planApply(t, p, map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }`}, nil, nil, 1)
	if !strings.Contains(diags, "create failed halfway") {
		t.Fatalf("diagnostics: %q", diags)
	}
	obj := st.ResourceInstanceObject(mustInst(t, "test_thing.a"), addrs.NotDeposed)
	if obj == nil || obj.Status != states.ObjectTainted {
		t.Fatalf("failed create not recorded tainted: %+v", obj)
	}
}

func TestApplyInconsistentResult(t *testing.T) {
	p := newTestProvider()
	p.ApplyFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		m := req.PlannedState.AsValueMap()
		m["id"] = cty.StringVal("I")
		m["name"] = cty.StringVal("changed")
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(m)}
	}
	_, diags, _ := planApply(t, p, map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }`}, nil, nil, 1)
	if !strings.Contains(diags, "Provider produced inconsistent result after apply") || !strings.Contains(diags, ".name") || !strings.Contains(diags, "test_thing.a") {
		t.Errorf("diagnostics: %q", diags)
	}
}

func hclErr(s string) hcl.Diagnostics { return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: s}} }

func TestApplyParallelismBound(t *testing.T) {
	var b strings.Builder
	for i := range 12 {
		b.WriteString("resource \"test_thing\" \"r" + string(rune('a'+i)) + "\" { name = \"" + string(rune('a'+i)) + "\" }\n")
	}
	p := newTestProvider()
	var mu sync.Mutex
	cur, peak := 0, 0
	entered := make(chan struct{}, 100)
	release := make(chan struct{})
	p.ApplyFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		mu.Lock()
		cur++
		peak = max(peak, cur)
		mu.Unlock()
		entered <- struct{}{}
		<-release
		mu.Lock()
		cur--
		mu.Unlock()
		m := req.PlannedState.AsValueMap()
		m["id"] = cty.StringVal("id")
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(m)}
	}
	cfg := loadConfig(t, map[string]string{"main.tf": b.String()})
	c := testContext(t, p, 3)
	plan := mustPlan(t, c, cfg, nil, nil)
	go func() {
		for range 12 {
			<-entered
			release <- struct{}{}
		}
	}()
	if _, diags := c.Apply(context.Background(), plan, cfg, nil); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if peak > 3 || peak < 1 {
		t.Errorf("peak concurrent applies = %d, want ≤ 3", peak)
	}
}

func TestApplyCancel(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b${test_thing.a.id}" }`}
	p := newTestProvider()
	entered := make(chan providertest.Call, 1)
	gate := make(chan struct{})
	p.Inject(&providertest.Fault{Method: providertest.ApplyResourceChange, Key: "a", Entered: entered, Gate: gate})
	cfg := loadConfig(t, files)
	c := testContext(t, p, 2)
	plan := mustPlan(t, c, cfg, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	var persisted *states.State
	var mu sync.Mutex
	done := make(chan struct{})
	var st *states.State
	go func() {
		defer close(done)
		st, _ = c.Apply(ctx, plan, cfg, &ApplyOpts{Persist: func(s *states.State) error {
			mu.Lock()
			persisted = s
			mu.Unlock()
			return nil
		}})
	}()
	<-entered
	cancel()
	close(gate)
	<-done
	if len(p.CallStrings(providertest.Stop)) == 0 {
		t.Errorf("provider Stop not called on cancel")
	}
	if got := p.CallStrings(providertest.ApplyResourceChange); len(got) != 1 {
		t.Errorf("applies after cancel: %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if persisted == nil || len(stateNames(st)) != len(stateNames(persisted)) {
		t.Errorf("final state not persisted: %v vs %v", stateNames(st), persisted)
	}
}

func TestApplyPersistedStateAfterFailure(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "test_thing" "ok1" { name = "ok1" }
resource "test_thing" "ok2" { name = "ok2" }
resource "test_thing" "bad" { name = "bad" }`}
	p := newTestProvider()
	p.Inject(&providertest.Fault{Method: providertest.ApplyResourceChange, Key: "bad", Err: errors.New("nope")})
	cfg := loadConfig(t, files)
	c := testContext(t, p, 2)
	plan := mustPlan(t, c, cfg, nil, nil)
	var last *states.State
	var mu sync.Mutex
	_, diags := c.Apply(context.Background(), plan, cfg, &ApplyOpts{Persist: func(s *states.State) error {
		mu.Lock()
		last = s
		mu.Unlock()
		return nil
	}})
	if !diags.HasErrors() {
		t.Fatal("expected the apply to fail")
	}
	if d := cmp.Diff([]string{"test_thing.ok1", "test_thing.ok2"}, stateNames(last)); d != "" {
		t.Errorf("persisted state (-want +got):\n%s", d)
	}
}

// TestApplyCreateBeforeDestroyFailedCreateRestores checks that when the
// create half of a create-before-destroy replacement fails without
// producing an object, the old object is current again (not left deposed)
// and is not destroyed.
func TestApplyCreateBeforeDestroyFailedCreateRestores(t *testing.T) {
	files := map[string]string{"main.tf": `
resource "test_thing" "a" {
  name = "a"
  ami  = "new"
  lifecycle { create_before_destroy = true }
}`}
	p := newTestProvider()
	p.Inject(&providertest.Fault{Method: providertest.ApplyResourceChange, Action: providertest.Create, Err: errors.New("quota")})
	st, diags, calls := planApply(t, p, files, thingState(t, map[string]string{"test_thing.a": `{"id":"A","name":"a","ami":"old"}`}), nil, 1)
	if !strings.Contains(diags, "quota") {
		t.Fatalf("diagnostics: %q", diags)
	}
	if d := cmp.Diff([]string{"ApplyResourceChange create test_thing.a"}, calls); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
	ri := st.ResourceInstance(mustInst(t, "test_thing.a"))
	if ri == nil || ri.Current == nil || len(ri.Deposed) != 0 || !strings.Contains(string(ri.Current.AttrsJSON), `"old"`) {
		t.Errorf("old object not restored as current: %+v", ri)
	}
}

// TestApplyIgnoreChanges checks that the apply honours ignore_changes as
// the plan did: the ignored attribute keeps its prior value while the
// others are updated (and the final plan agrees with the saved one).
func TestApplyIgnoreChanges(t *testing.T) {
	files := map[string]string{"main.tf": `resource "test_thing" "a" {
  name  = "new"
  value = "v2"
  lifecycle { ignore_changes = [name] }
}`}
	p := newTestProvider()
	st, diags, calls := planApply(t, p, files, thingState(t, map[string]string{"test_thing.a": `{"id":"A","name":"old","value":"v1"}`}), nil, 1)
	if diags != "" {
		t.Fatalf("apply: %s", diags)
	}
	if d := cmp.Diff([]string{"ApplyResourceChange update test_thing.old"}, calls); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
	obj := st.ResourceInstanceObject(mustInst(t, "test_thing.a"), addrs.NotDeposed)
	if obj == nil || !strings.Contains(string(obj.AttrsJSON), `"name":"old"`) || !strings.Contains(string(obj.AttrsJSON), `"value":"v2"`) {
		t.Errorf("object after apply: %s", obj.AttrsJSON)
	}
}

// TestApplyRefusesAndReports covers two user-facing failures of Apply: an
// errored plan is refused (the prior state comes back unchanged), and a
// Persist error is reported after the changes were made.
// A plan whose changes create or update objects the configuration it is
// applied with has no block for is refused before any change is made,
// instead of the walk dropping those changes silently.
func TestApplyRefusesChangesWithoutConfig(t *testing.T) {
	p := newTestProvider()
	c := testContext(t, p, 1)
	planned := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b" }
`})
	plan := mustPlan(t, c, planned, nil, nil)
	p.ResetCalls()
	other := loadConfig(t, map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }`})
	st, diags := c.Apply(context.Background(), plan, other, &ApplyOpts{Persist: func(*states.State) error { return nil }})
	if st == nil {
		t.Fatal("Apply returned a nil state")
	}
	got := diagsString(diags)
	for _, want := range []string{"Saved plan does not match its configuration", "test_thing.b", "make a new plan"} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics %q lack %q", got, want)
		}
	}
	if calls := p.CallStrings(providertest.ApplyResourceChange); len(calls) != 0 {
		t.Errorf("refused apply made changes: %q", calls)
	}
	if n := len(st.AllResourceInstances()); n != 0 {
		t.Errorf("refused apply changed the state: %v", stateNames(st))
	}
	// The same plan applies with the configuration it was made from.
	if _, diags := c.Apply(context.Background(), plan, planned, &ApplyOpts{Persist: func(*states.State) error { return nil }}); diags.HasErrors() {
		t.Fatalf("apply with the planned configuration: %s", diagsString(diags))
	}
}

func TestApplyRefusesAndReports(t *testing.T) {
	files := map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }`}
	tests := []struct {
		name    string
		errored bool
		persist error
		want    string   // a diagnostic summary Apply must report
		applied []string // the apply calls
	}{
		{name: "errored plan", errored: true, want: "Cannot apply an incomplete plan"},
		{name: "persist fails", persist: errors.New("disk full"), want: "Failed to persist state",
			applied: []string{"ApplyResourceChange create test_thing.a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newTestProvider()
			cfg := loadConfig(t, files)
			c := testContext(t, p, 1)
			plan := mustPlan(t, c, cfg, nil, nil)
			plan.Errored = tc.errored
			p.ResetCalls()
			st, diags := c.Apply(context.Background(), plan, cfg, &ApplyOpts{Persist: func(*states.State) error { return tc.persist }})
			if st == nil {
				t.Fatal("Apply returned a nil state")
			}
			var summaries []string
			for _, d := range diags {
				summaries = append(summaries, d.Summary)
			}
			if !slices.Contains(summaries, tc.want) {
				t.Errorf("diagnostics %q lack %q", summaries, tc.want)
			}
			if d := cmp.Diff(tc.applied, p.CallStrings(providertest.ApplyResourceChange)); d != "" {
				t.Errorf("apply calls (-want +got):\n%s", d)
			}
			if tc.errored && len(st.AllResourceInstances()) != 0 {
				t.Errorf("refused apply changed the state: %v", stateNames(st))
			}
		})
	}
}
