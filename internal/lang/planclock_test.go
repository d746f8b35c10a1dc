package lang_test

import (
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/lang"
)

// TestPlanClock pins that the clock is read only when plantimestamp is
// evaluated, exactly once, and that every evaluation sees that reading.
func TestPlanClock(t *testing.T) {
	reads := 0
	base := time.Date(2024, 8, 16, 12, 45, 5, 0, time.UTC)
	clock := lang.NewPlanClock(func() time.Time {
		reads++
		return base.Add(time.Duration(reads) * time.Hour)
	})
	s := &lang.Scope{Data: testData(), PureOnly: true, PlanClock: clock}
	if _, diags := s.EvalExpr(parseExpr(t, `upper("x")`), cty.String); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if clock.Used() || reads != 0 {
		t.Fatalf("clock read (%d) without plantimestamp in the expression", reads)
	}
	want := cty.StringVal("2024-08-16T13:45:05Z")
	for i := 0; i < 3; i++ {
		got, diags := s.EvalExpr(parseExpr(t, `plantimestamp()`), cty.String)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		if !got.RawEquals(want) {
			t.Fatalf("evaluation %d: got %#v, want %#v", i, got, want)
		}
	}
	if !clock.Used() || reads != 1 {
		t.Errorf("Used = %v, reads = %d; want true, 1", clock.Used(), reads)
	}
	zero := lang.NewPlanClock(func() time.Time { return time.Time{} })
	got, _ := (&lang.Scope{Data: testData(), PlanClock: zero}).EvalExpr(parseExpr(t, `plantimestamp()`), cty.String)
	if got.IsKnown() {
		t.Errorf("zero clock: got %#v, want unknown", got)
	}
}
