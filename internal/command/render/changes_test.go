package render

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/plans/planstest"
)

// parallelRenderMin is the plan size from which plans were once rendered
// on every core; the large plans of this package's tests are still sized
// by it.
const parallelRenderMin = 2048

// TestPlanRenderStreams: a large plan is written in pieces as it is
// rendered (no-ops left out, the order of SortedResourceChanges kept), and
// a failing writer stops it with its error.
func TestPlanRenderStreams(t *testing.T) {
	p := planstest.LargePlan(2*parallelRenderMin + 77)
	var want strings.Builder
	for i, rc := range p.Changes.Resources {
		if i%5 == 0 {
			rc.Action = plans.NoOp
			rc.Before = rc.After
		}
	}
	for _, rc := range plans.SortedResourceChanges(p.Changes.Resources) {
		if rc.Action != plans.NoOp {
			want.WriteString("  # " + rc.Addr.String() + " ")
		}
	}
	var w writeLog
	if err := Plan(&w, p, false); err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, line := range strings.Split(w.buf.String(), "\n") {
		if strings.HasPrefix(line, "  # ") {
			got.WriteString(line[:strings.Index(line, " will")+1])
		}
	}
	if diff := cmp.Diff(want.String(), got.String()); diff != "" {
		t.Errorf("changes rendered (-want +got):\n%s", diff)
	}
	if len(w.writes) < 10 {
		t.Errorf("%d writes for %d bytes: not streamed", len(w.writes), w.buf.Len())
	}
	for _, failAfter := range []int{2, 5} {
		w := &writeLog{failAfter: failAfter}
		if err := Plan(w, p, false); err == nil || err.Error() != "disk full" || len(w.writes) != failAfter {
			t.Errorf("failing write %d: err %v after %d writes", failAfter, err, len(w.writes))
		}
	}
}
