package terraform

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/internal/providers/providertest"
)

// TestPlanCancelHugeCount checks that cancelling the plan of a block with
// a million instances stops handing out instances at once: only the
// instance in flight is planned, every other one is counted as not
// planned in one cancellation diagnostic, and nothing is built per
// instance beyond its value slot (no key, no work item per instance up
// front). No count is too large: Terraform has no limit either.
// maxBytesPerCancelledInstance bounds what a cancelled plan allocates per
// instance it never started: a value slot (32 bytes; count keys are made
// on demand) with room to spare; a work item per instance (~250 bytes)
// would exceed it.
const maxBytesPerCancelledInstance = 150

func TestPlanCancelHugeCount(t *testing.T) {
	const count = 1000000
	p := newTestProvider()
	entered := make(chan providertest.Call, 1)
	gate := make(chan struct{})
	p.Inject(&providertest.Fault{Method: providertest.PlanResourceChange, Key: "n0", Entered: entered, Gate: gate, Times: 1})
	cfg := loadConfig(t, map[string]string{"main.tf": fmt.Sprintf(`
resource "test_thing" "n" {
  count = %d
  name  = "n${count.index}"
}`, count)})
	c := testContext(t, p, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	var got hcl.Diagnostics
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	go func() {
		defer close(done)
		_, got = c.Plan(ctx, cfg, nil, nil)
	}()
	<-entered
	cancel()
	close(gate)
	<-done
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / count
	t.Logf("%d bytes allocated per instance", per)
	if per > maxBytesPerCancelledInstance {
		t.Errorf("the cancelled plan allocated %d bytes per instance, want at most %d", per, maxBytesPerCancelledInstance)
	}
	if n := len(p.CallsOf(providertest.PlanResourceChange)); n != 1 {
		t.Errorf("PlanResourceChange calls after cancel: %d, want 1 (the one in flight)", n)
	}
	var cancels []string
	for _, d := range got {
		if strings.Contains(strings.ToLower(d.Summary+d.Detail), "cancel") {
			cancels = append(cancels, d.Summary+": "+d.Detail)
		}
	}
	want := fmt.Sprintf("%d resource instance operations were not planned", count-1)
	if len(cancels) != 1 || !strings.Contains(cancels[0], want) {
		t.Errorf("cancellation diagnostics %q, want one saying %q", cancels, want)
	}
}
