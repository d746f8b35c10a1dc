package render

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/plans/planstest"
)

// deferred encodes p and decodes it again without its resource changes'
// values, as plan show reads an archive.
func deferred(t *testing.T, p *plans.Plan) (*plans.Plan, *plans.DeferredValues) {
	t.Helper()
	b, err := plans.Marshal(p, "test")
	if err != nil {
		t.Fatal(err)
	}
	dp, vals, _, err := plans.UnmarshalDeferred(b)
	if err != nil {
		t.Fatal(err)
	}
	return dp, vals
}

// TestPlanLoadingMatchesGolden: every golden plan, read back without its
// values and rendered loading them change by change, gives the bytes the
// golden file holds, with and without colour.
func TestPlanLoadingMatchesGolden(t *testing.T) {
	for name, p := range goldenPlans() {
		t.Run(name, func(t *testing.T) {
			dp, vals := deferred(t, p)
			for _, color := range []bool{false, true} {
				var want, got bytes.Buffer
				if err := Plan(&want, p, color); err != nil {
					t.Fatal(err)
				}
				if err := PlanLoading(&got, dp, color, vals.Load); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.String(), got.String()); diff != "" {
					t.Errorf("color=%v: loading the values as rendered differs (-Plan +PlanLoading):\n%s", color, diff)
				}
			}
		})
	}
}

// TestPlanLoadingParallel: a plan large enough to be rendered on several
// goroutines, stored out of order, with no-ops, renders loading its
// values as the whole plan renders, on 1 and 4 goroutines; a value that
// does not load stops the rendering with Load's error, before anything
// after it is written.
func TestPlanLoadingParallel(t *testing.T) {
	p := planstest.LargePlan(2*parallelRenderMin + 77)
	rcs := p.Changes.Resources
	for i, rc := range rcs {
		if i%5 == 0 {
			rc.Action = plans.NoOp
			rc.Before = rc.After
		}
	}
	// Reversed pairs: the archive order is not the rendering order.
	for i := 0; i+1 < len(rcs); i += 2 {
		rcs[i], rcs[i+1] = rcs[i+1], rcs[i]
	}
	dp, vals := deferred(t, p)
	var want bytes.Buffer
	if err := Plan(&want, p, false); err != nil {
		t.Fatal(err)
	}
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		var got writeLog
		err := PlanLoading(&got, dp, false, vals.Load)
		bad := errors.New("value 3003 is broken")
		var stopped writeLog
		serr := PlanLoading(&stopped, dp, false, func(i int) (*plans.ResourceInstanceChange, error) {
			if i == 3003 {
				return nil, bad
			}
			return vals.Load(i)
		})
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.String(), got.buf.String()); diff != "" {
			t.Errorf("procs=%d: differs (-Plan +PlanLoading):\n%s", procs, diff)
		}
		if serr != bad {
			t.Errorf("procs=%d: error %v, want %v", procs, serr, bad)
		}
		broken := "# " + dp.Changes.Resources[3003].Addr.String() + " "
		if out := stopped.buf.String(); strings.Contains(out, broken) || strings.Contains(out, "Plan:") {
			t.Errorf("procs=%d: the broken change or what follows it was written", procs)
		}
	}
}

// TestPlanLoadingUsesLoadedValues: the values rendered are the ones load
// gives, not the plan's own (which a deferred plan does not have).
func TestPlanLoadingUsesLoadedValues(t *testing.T) {
	null := cty.NullVal(thingType())
	rc := change(inst("test_thing", "a", nil), plans.Create, cty.NilVal, cty.NilVal)
	p := planWith([]*plans.ResourceInstanceChange{rc}, nil)
	var out bytes.Buffer
	err := PlanLoading(&out, p, false, func(i int) (*plans.ResourceInstanceChange, error) {
		c := *p.Changes.Resources[i]
		c.Before, c.After = null, thing(map[string]cty.Value{"name": cty.StringVal("loaded")})
		return &c, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `+ name = "loaded"`) {
		t.Errorf("output lacks the loaded value:\n%s", out.String())
	}
}
