package terraform

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
)

// TestReplaceByTriggersReason: a replace_triggered_by that fires gives
// the reason replace_by_triggers also where the object is tainted, is
// replaced by -replace, or is new (a create), as OpenTofu 1.12.6 reports
// it for the same shapes; a tainted or requested replacement without a
// fired trigger keeps its own reason.
func TestReplaceByTriggersReason(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "src" {
  name = "2"
}
resource "test_thing" "tainted" {
  name = "t"
  lifecycle {
    replace_triggered_by = [test_thing.src]
  }
}
resource "test_thing" "requested" {
  name = "r"
  lifecycle {
    replace_triggered_by = [test_thing.src.name]
  }
}
resource "test_thing" "fresh" {
  name = "f"
  lifecycle {
    replace_triggered_by = [test_thing.src]
  }
}
resource "test_thing" "tainted_only" {
  name = "o"
}
resource "test_thing" "requested_only" {
  name = "q"
}
`})
	st := thingState(t, map[string]string{
		"test_thing.src":                  `{"id":"s","name":"1"}`,
		"test_thing.tainted tainted":      `{"id":"t","name":"t"}`,
		"test_thing.requested":            `{"id":"r","name":"r"}`,
		"test_thing.tainted_only tainted": `{"id":"o","name":"o"}`,
		"test_thing.requested_only":       `{"id":"q","name":"q"}`,
	})
	p := mustPlan(t, testContext(t, newTestProvider(), 2), cfg, st, &PlanOpts{
		ForceReplace: []addrs.AbsResourceInstance{mustInst(t, "test_thing.requested"), mustInst(t, "test_thing.requested_only")}})
	got := map[string]string{}
	for a, c := range renderChanges(p.Changes.Resources) {
		got[a] = c.Action + " " + c.Reason
	}
	want := map[string]string{
		"test_thing.src":            "Update ",
		"test_thing.tainted":        "DeleteThenCreate ReplaceByTriggers",
		"test_thing.requested":      "DeleteThenCreate ReplaceByTriggers",
		"test_thing.fresh":          "Create ReplaceByTriggers",
		"test_thing.tainted_only":   "DeleteThenCreate ReplaceBecauseTainted",
		"test_thing.requested_only": "DeleteThenCreate ReplaceByRequest",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("actions and reasons (-want +got):\n%s", d)
	}
}
