package terraform

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlanCreateSimple(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id }
`})
	p := newTestProvider()
	plan := mustPlan(t, testContext(t, p, 0), cfg, nil, nil)
	want := map[string]change{
		"test_thing.a": {Action: "Create", Before: "null", After: `{"ami":null,"id":"?","name":"a","secret":null,"tags":null,"value":null}`, Sensitive: "secret"},
		"test_thing.b": {Action: "Create", Before: "null", After: `{"ami":null,"id":"?","name":"?","secret":null,"tags":null,"value":null}`, Sensitive: "secret"},
	}
	if d := cmp.Diff(want, renderChanges(plan.Changes.Resources)); d != "" {
		t.Errorf("changes (-want +got):\n%s", d)
	}
}
