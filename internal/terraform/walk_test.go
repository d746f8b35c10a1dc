package terraform

import (
	"fmt"
	"testing"
)

// TestPlanReplaceTriggeredByLinear checks that replace_triggered_by on a
// whole resource stays linear when a counted resource's instances all
// refer to it (looking the trigger's changes up by scanning every change
// made it quadratic). Skipped in -short mode.
func TestPlanReplaceTriggeredByLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	var triggers, refs string
	for i := range 8 {
		triggers += fmt.Sprintf("resource \"test_thing\" \"t%d\" { name = \"t\" }\n", i)
		refs += fmt.Sprintf("test_thing.t%d, ", i)
	}
	timeOf := func(n int) float64 {
		cfg := loadConfig(t, map[string]string{"main.tf": fmt.Sprintf(`
%s
resource "test_thing" "r" {
  count = %d
  name  = "r"
  lifecycle { replace_triggered_by = [%s] }
}`, triggers, n, refs)})
		objs := map[string]string{}
		for i := range 8 {
			objs[fmt.Sprintf("test_thing.t%d", i)] = thing(fmt.Sprint("T", i), "t")
		}
		for i := range n {
			objs[fmt.Sprintf("test_thing.r[%d]", i)] = thing(fmt.Sprint("R", i), "r")
		}
		st := thingState(t, objs)
		c := testContext(t, newTestProvider(), 4)
		return allocsOf(func() {
			mustPlan(t, c, cfg, st, nil)
		})
	}
	small, large := timeOf(1000), timeOf(8000)
	ratio := large / small
	t.Logf("allocations grew %.1fx", ratio)
	if ratio > 20 {
		t.Errorf("8000 instances took %.1fx 1000 (want ≤ 20x: linear is 8x, quadratic 64x)", ratio)
	}
}
