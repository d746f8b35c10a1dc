package terraform

import (
	"strings"
	"testing"
)

// TestGraphDOTPlanDestroyNames: the destroy plan graph names managed
// resource nodes "ADDR (destroy)", as Terraform's plan-destroy graph does
// (also resources only the state has); data sources and the normal plan
// graph keep plain names.
func TestGraphDOTPlanDestroyNames(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id }
data "test_data" "d" { input = "x" }
`})
	st := thingState(t, map[string]string{"test_thing.a": thing("A", "a"), "test_thing.b": thing("B", "A"), "test_thing.gone": thing("G", "g")})
	c := testContext(t, newTestProvider(), 0)
	tests := []struct {
		kind         GraphKind
		want, absent []string
	}{
		{GraphKindPlanDestroy,
			[]string{`"test_thing.a (destroy)" [label = "test_thing.a (destroy)"]`, `"test_thing.gone (destroy)"`, `"test_thing.b (destroy)" -> "test_thing.a (destroy)"`, `"data.test_data.d" [label`},
			[]string{`"test_thing.a" [`, `"data.test_data.d (destroy)"`}},
		{GraphKindPlan,
			[]string{`"test_thing.b" -> "test_thing.a"`},
			[]string{"(destroy)"}},
	}
	for _, tt := range tests {
		dot, diags := c.GraphDOT(cfg, st, nil, tt.kind)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		for _, w := range tt.want {
			if !strings.Contains(dot, w) {
				t.Errorf("kind %d: graph lacks %s:\n%s", tt.kind, w, dot)
			}
		}
		for _, a := range tt.absent {
			if strings.Contains(dot, a) {
				t.Errorf("kind %d: graph has %s:\n%s", tt.kind, a, dot)
			}
		}
	}
}
