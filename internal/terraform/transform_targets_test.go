package terraform

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// targetsFixture is the shared configuration of the -target tests.
const targetsFixture = "../../testdata/fixtures/core-targets"

func outputNames(p *plans.Plan) []string {
	var out []string
	for _, oc := range p.Changes.Outputs {
		out = append(out, oc.Addr.OutputValue.Name+":"+oc.Action.String())
	}
	return out
}

func TestPlanTargetedOutputs(t *testing.T) {
	target := func(s string) []addrs.Targetable {
		a := mustInst(t, s)
		if a.Resource.Key == addrs.NoKey {
			return []addrs.Targetable{a.ContainingResource()}
		}
		return []addrs.Targetable{a}
	}
	tests := []struct {
		name     string
		targets  []addrs.Targetable
		wantRes  []string
		wantOuts []string
	}{
		{"resource with a dependency", target("test_thing.b"), []string{"test_thing.a", "test_thing.b"},
			[]string{"o_b:Create", "o_const:Create", "o_local:Create"}},
		{"independent resource", target("test_thing.c"), []string{"test_thing.c"},
			[]string{"o_c:Create", "o_const:Create"}},
		{"one instance: outputs of the whole resource are left out", target("test_thing.n[0]"), []string{"test_thing.n[0]"},
			[]string{"o_const:Create"}},
		{"whole counted resource", target("test_thing.n"), []string{"test_thing.n[0]", "test_thing.n[1]"},
			[]string{"o_const:Create", "o_n:Create"}},
		{"module", []addrs.Targetable{addrs.RootModuleInstance.Child("m", addrs.NoKey)}, []string{"module.m.test_thing.r"},
			[]string{"o_const:Create", "o_mod:Create"}},
	}
	st := states.NewState()
	st.SetOutputValue(rootOutputAddr("undeclared"), cty.StringVal("u"), false)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadFixture(t, targetsFixture)
			plan := mustPlan(t, testContext(t, newTestProvider(), 2), cfg, st, &PlanOpts{Targets: tc.targets})
			if d := cmp.Diff(tc.wantRes, keys(renderChanges(plan.Changes.Resources))); d != "" {
				t.Errorf("resources (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.wantOuts, outputNames(plan)); d != "" {
				t.Errorf("outputs (-want +got):\n%s", d)
			}
		})
	}
}

// TestApplyTargeted applies a targeted plan: only the targeted resources
// and the outputs kept are written; outputs that refer to resources the
// plan left out are not evaluated (they would fail: those objects do not
// exist) and outputs already in the state are left alone.
func TestApplyTargeted(t *testing.T) {
	cfg := loadFixture(t, targetsFixture)
	p := newTestProvider()
	c := testContext(t, p, 2)
	st := states.NewState()
	st.SetOutputValue(rootOutputAddr("undeclared"), cty.StringVal("u"), false)
	st.SetOutputValue(rootOutputAddr("o_c"), cty.StringVal("old"), false)
	plan := mustPlan(t, c, cfg, st, &PlanOpts{Targets: []addrs.Targetable{mustInst(t, "test_thing.b").ContainingResource()}})
	newState, diags := c.Apply(context.Background(), plan, cfg, nil)
	if diags.HasErrors() {
		t.Fatalf("apply: %s", diagsString(diags))
	}
	if d := cmp.Diff([]string{"test_thing.a", "test_thing.b"}, stateNames(newState)); d != "" {
		t.Errorf("state (-want +got):\n%s", d)
	}
	got := map[string]string{}
	for name, ov := range newState.RootOutputValues() {
		got[name] = valJSON(ov.Value)
	}
	want := map[string]string{"o_b": `"b-a"`, "o_const": `"x"`, "o_local": `"a!"`, "undeclared": `"u"`, "o_c": `"old"`}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("outputs (-want +got):\n%s", d)
	}
}

// TestPlanDestroyTargetedTakesDependents checks that destroying a targeted
// resource also destroys what depends on it, and nothing else.
func TestPlanDestroyTargetedTakesDependents(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id }
locals { l = test_thing.b.id }
resource "test_thing" "c" { name = local.l }
resource "test_thing" "other" { name = "o" }`})
	st := thingState(t, map[string]string{"test_thing.a": thing("A", "a"), "test_thing.b": thing("B", "A"), "test_thing.c": thing("C", "B"), "test_thing.other": thing("O", "o")})
	plan := mustPlan(t, testContext(t, newTestProvider(), 2), cfg, st, &PlanOpts{Mode: plans.DestroyMode, Targets: []addrs.Targetable{mustInst(t, "test_thing.a").ContainingResource()}})
	got := renderChanges(plan.Changes.Resources)
	if d := cmp.Diff([]string{"test_thing.a", "test_thing.b", "test_thing.c"}, keys(got)); d != "" {
		t.Errorf("destroyed (-want +got):\n%s", d)
	}
}
