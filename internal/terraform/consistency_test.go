package terraform

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/providertest"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

func TestCompatibleValues(t *testing.T) {
	obj := func(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }
	rule := func(port cty.Value, name string) cty.Value {
		return obj(map[string]cty.Value{"port": port, "name": cty.StringVal(name)})
	}
	tests := []struct {
		name     string
		promised cty.Value
		got      cty.Value
		want     []string
	}{
		{"equal", rule(cty.NumberIntVal(1), "a"), rule(cty.NumberIntVal(1), "a"), nil},
		{"unknown becomes anything", rule(cty.UnknownVal(cty.Number), "a"), rule(cty.NumberIntVal(7), "a"), nil},
		{"unknown may stay unknown", rule(cty.UnknownVal(cty.Number), "a"), rule(cty.UnknownVal(cty.Number), "a"), nil},
		{"top-level attribute", rule(cty.NumberIntVal(1), "a"), rule(cty.NumberIntVal(1), "b"), []string{`.name: the planned value was "a", but now it is "b"`}},
		{"known becomes unknown", rule(cty.NumberIntVal(1), "a"), rule(cty.UnknownVal(cty.Number), "a"), []string{`.port: the planned value 1 was known, but it is now unknown`}},
		{"nested list element", obj(map[string]cty.Value{"rule": cty.ListVal([]cty.Value{rule(cty.NumberIntVal(1), "a"), rule(cty.NumberIntVal(2), "b")})}),
			obj(map[string]cty.Value{"rule": cty.ListVal([]cty.Value{rule(cty.NumberIntVal(1), "a"), rule(cty.NumberIntVal(3), "b")})}),
			[]string{`.rule[1].port: the planned value was 2, but now it is 3`}},
		{"list length", cty.ListVal([]cty.Value{cty.StringVal("a")}), cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
			[]string{`the object: the planned value had 1 elements, but now it has 2`}},
		{"map key removed and added", cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}), cty.MapVal(map[string]cty.Value{"j": cty.StringVal("v")}),
			[]string{`.["j"]: the result has an element "v" the plan did not have`, `.["k"]: the planned value "v" is missing from the result`}},
		{"null becomes value", obj(map[string]cty.Value{"a": cty.NullVal(cty.String)}), obj(map[string]cty.Value{"a": cty.StringVal("x")}),
			[]string{`.a: the planned value was null, but now it is "x"`}},
		{"known set differs", cty.SetVal([]cty.Value{cty.StringVal("a")}), cty.SetVal([]cty.Value{cty.StringVal("b")}),
			[]string{`the object: the planned set of 1 elements differs from the result's 1 elements`}},
		{"set with unknown element", cty.SetVal([]cty.Value{rule(cty.NumberIntVal(1), "a"), rule(cty.UnknownVal(cty.Number), "b")}),
			cty.SetVal([]cty.Value{rule(cty.NumberIntVal(1), "a"), rule(cty.NumberIntVal(9), "b")}), nil},
		{"set with unknown element, known one lost", cty.SetVal([]cty.Value{rule(cty.NumberIntVal(1), "a"), rule(cty.UnknownVal(cty.Number), "b")}),
			cty.SetVal([]cty.Value{rule(cty.NumberIntVal(2), "a"), rule(cty.NumberIntVal(9), "b")}),
			[]string{`the object: planned set elements are missing from the result: an object`, `the object: the result has set elements the plan did not allow: an object`}},
		{"wrong type for unknown", obj(map[string]cty.Value{"a": cty.UnknownVal(cty.Number)}), obj(map[string]cty.Value{"a": cty.True}),
			[]string{`.a: the planned value was unknown of type number, but the provider returned a value of type bool`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, m := range compatibleValues(tc.promised, tc.got, nil) {
				got = append(got, m.String())
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("mismatches (-want +got):\n%s", d)
			}
		})
	}
}

func TestCompatibleValuesHidesSecrets(t *testing.T) {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"pw":   {Type: cty.String, Optional: true, Sensitive: true},
		"tags": {Type: cty.Map(cty.String), Optional: true},
	}}
	p := cty.ObjectVal(map[string]cty.Value{"pw": cty.StringVal("hunter2"), "tags": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("s3cret")})})
	g := cty.ObjectVal(map[string]cty.Value{"pw": cty.StringVal("other"), "tags": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("x")})})
	var got []string
	for _, m := range compatibleValues(p, g, secretPaths(schema, []cty.Path{cty.GetAttrPath("tags")})) {
		got = append(got, m.String())
	}
	want := []string{`.pw: the planned value was (sensitive value), but now it is (sensitive value)`, `.tags["k"]: the planned value was (sensitive value), but now it is (sensitive value)`}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// nestedProvider has test_nested: a list block "rule" (port, name) and a
// set of strings "labels".
func nestedProvider() *providertest.Provider {
	return providertest.New(map[string]*configschema.Block{"test_nested": {
		Attributes: map[string]*configschema.Attribute{
			"id":     {Type: cty.String, Computed: true},
			"name":   {Type: cty.String, Optional: true},
			"labels": {Type: cty.Set(cty.String), Optional: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{"rule": {Nesting: configschema.NestingList, Block: configschema.Block{
			Attributes: map[string]*configschema.Attribute{
				"port": {Type: cty.Number, Optional: true},
				"name": {Type: cty.String, Optional: true},
			},
		}}},
	}})
}

const nestedConfig = `
resource "test_nested" "a" {
  name   = "a"
  labels = ["x", "y"]
  rule {
    port = 80
    name = "http"
  }
  rule {
    port = 443
    name = "https"
  }
}`

// setPath replaces the value at rule[i].attr of an object.
func setRuleAttr(v cty.Value, i int, attr string, nv cty.Value) cty.Value {
	out, _ := cty.Transform(v, func(p cty.Path, x cty.Value) (cty.Value, error) {
		if len(p) == 3 {
			if a, ok := p[0].(cty.GetAttrStep); ok && a.Name == "rule" {
				if idx, ok := p[1].(cty.IndexStep); ok && idx.Key.RawEquals(cty.NumberIntVal(int64(i))) {
					if a2, ok := p[2].(cty.GetAttrStep); ok && a2.Name == attr {
						return nv, nil
					}
				}
			}
		}
		return x, nil
	})
	return out
}

func TestApplyInconsistentNestedResult(t *testing.T) {
	p := nestedProvider()
	p.ApplyFn = func(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		m := setRuleAttr(req.PlannedState, 1, "port", cty.NumberIntVal(8443)).AsValueMap()
		m["id"] = cty.StringVal("I")
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(m)}
	}
	_, diags, _ := planApply(t, p, map[string]string{"main.tf": nestedConfig}, nil, nil, 1)
	if !strings.Contains(diags, "Provider produced inconsistent result after apply") || !strings.Contains(diags, ".rule[1].port: the planned value was 443, but now it is 8443") {
		t.Errorf("diagnostics: %q", diags)
	}
}

func TestApplyInconsistentFinalPlan(t *testing.T) {
	p := nestedProvider()
	var applying atomic.Bool
	p.PlanFn = func(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
		planned := req.ProposedNewState
		if applying.Load() {
			planned = setRuleAttr(planned, 0, "name", cty.StringVal("changed"))
		}
		return providers.PlanResourceChangeResponse{PlannedState: planned}
	}
	cfg := loadConfig(t, map[string]string{"main.tf": nestedConfig})
	c := testContext(t, p, 1)
	plan := mustPlan(t, c, cfg, nil, nil)
	applying.Store(true)
	p.ResetCalls()
	_, d := c.Apply(t.Context(), plan, cfg, nil)
	diags := diagsString(d)
	if !strings.Contains(diags, "Provider produced inconsistent final plan") || !strings.Contains(diags, `.rule[0].name: the planned value was "http", but now it is "changed"`) {
		t.Errorf("diagnostics: %q", diags)
	}
	if calls := p.CallStrings(providertest.ApplyResourceChange); len(calls) != 0 {
		t.Errorf("applied despite an inconsistent final plan: %v", calls)
	}
}

// BenchmarkCompatibleValues measures the per-instance cost of the apply
// consistency checks on a typical object (a few attributes, a nested list
// block and a map) that agrees with its plan.
func BenchmarkCompatibleValues(b *testing.B) {
	obj := func(id cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"id":   id,
			"name": cty.StringVal("a"),
			"n":    cty.NumberIntVal(3),
			"tags": cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod"), "team": cty.StringVal("x")}),
			"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80), "name": cty.StringVal("http")})}),
			"none": cty.NullVal(cty.String),
		})
	}
	planned, got := obj(cty.UnknownVal(cty.String)), obj(cty.StringVal("id-1"))
	for b.Loop() {
		if m := compatibleValues(planned, got, nil); len(m) != 0 {
			b.Fatal(m)
		}
		if m := compatibleValues(planned, planned, nil); len(m) != 0 {
			b.Fatal(m)
		}
	}
}
