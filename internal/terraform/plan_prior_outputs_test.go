package terraform

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// TestPlanPriorStateOutputs: the plan's prior state holds the root
// outputs as OpenTofu's refreshed state does: each output the plan
// evaluated to a known value with that value (a new one added, a null
// one removed), and the previous value of an output that waits on the
// apply or that the configuration no longer declares.
func TestPlanPriorStateOutputs(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "a" {
  name = "a"
}
output "waits"   { value = test_thing.a.id }
output "now_null" { value = null }
output "changed" { value = "new" }
output "fresh"   { value = "f" }
output "secret" {
  value     = "s"
  sensitive = true
}
`})
	prev := states.NewState()
	for name, v := range map[string]string{"waits": "old", "now_null": "x", "changed": "old", "undeclared": "u"} {
		prev.SetOutputValue(rootOutputAddr(name), cty.StringVal(v), false)
	}
	type out struct {
		Value     string
		Sensitive bool
	}
	tests := []struct {
		mode plans.Mode
		want map[string]out
	}{
		{plans.NormalMode, map[string]out{"waits": {"old", false}, "changed": {"new", false}, "fresh": {"f", false},
			"secret": {"s", true}, "undeclared": {"u", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.mode.String(), func(t *testing.T) {
			p := mustPlan(t, testContext(t, newTestProvider(), 2), cfg, prev, &PlanOpts{Mode: tt.mode})
			got := map[string]out{}
			for name, o := range p.PriorState.RootOutputValues() {
				got[name] = out{o.Value.AsString(), o.Sensitive}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("prior state outputs (-want +got):\n%s", d)
			}
		})
	}
}
