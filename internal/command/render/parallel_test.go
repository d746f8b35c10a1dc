package render

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/plans/planstest"
)

// TestPlanRenderedInParallel: a plan large enough to be rendered on
// several goroutines gives the bytes one goroutine gives (no-ops left
// out, order kept), in pieces, and a failing writer stops it with its
// error.
func TestPlanRenderedInParallel(t *testing.T) {
	p := planstest.LargePlan(2*parallelRenderMin + 77)
	for i, rc := range p.Changes.Resources {
		if i%5 == 0 {
			rc.Action = plans.NoOp
			rc.Before = rc.After
		}
	}
	render := func(procs int, w *writeLog) error {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		return Plan(w, p, false)
	}
	var one, many writeLog
	if err := render(1, &one); err != nil {
		t.Fatal(err)
	}
	if err := render(4, &many); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(one.buf.String(), many.buf.String()); diff != "" {
		t.Errorf("rendered on 4 goroutines differs from on 1 (-one +four):\n%s", diff)
	}
	if len(many.writes) < 10 {
		t.Errorf("%d writes for %d bytes: not streamed", len(many.writes), many.buf.Len())
	}
	for _, failAfter := range []int{2, 5} {
		w := &writeLog{failAfter: failAfter}
		if err := render(4, w); err == nil || err.Error() != "disk full" || len(w.writes) != failAfter {
			t.Errorf("failing write %d: err %v after %d writes", failAfter, err, len(w.writes))
		}
	}
}

// BenchmarkPlanRenderParallel renders the human plan of n creates with
// the changes rendered on every core and in one loop.
// Run: go test -run '^$' -bench PlanRenderParallel -benchmem ./internal/command/render/
func BenchmarkPlanRenderParallel(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		p := manyCreates(n)
		for _, mode := range []struct {
			name string
			min  int
		}{{"parallel", parallelRenderMin}, {"loop", math.MaxInt}} {
			b.Run(fmt.Sprintf("%d/%s", n, mode.name), func(b *testing.B) {
				saved := parallelRenderMin
				parallelRenderMin = mode.min
				defer func() { parallelRenderMin = saved }()
				b.ReportAllocs()
				for b.Loop() {
					if err := Plan(discard{}, p, false); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
