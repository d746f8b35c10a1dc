package render

import (
	"bytes"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/plans/planstest"
)

// TestPlanMovedGolden renders moves as Terraform does: a move alone is
// "# OLD has moved to NEW" with the unchanged object, listed even when
// nothing else changes (with a 0/0/0 summary and no legend); a move with
// changes has the usual header and "(moved from OLD)"; a move to an
// address without configuration is destroyed with the reason.
func TestPlanMovedGolden(t *testing.T) {
	ty := thingType()
	obj := thing(map[string]cty.Value{"id": cty.StringVal("abc"), "name": cty.StringVal("web"), "size": cty.NumberIntVal(1)})
	renamed := thing(map[string]cty.Value{"id": cty.StringVal("abc"), "name": cty.StringVal("api"), "size": cty.NumberIntVal(1)})
	moved := func(from, to addrs.AbsResourceInstance, action plans.Action, before, after cty.Value) *plans.ResourceInstanceChange {
		rc := change(to, action, before, after)
		rc.PrevRunAddr = from
		return rc
	}
	mod := addrs.ModuleInstance{{Name: "app", InstanceKey: addrs.StringKey("x")}}
	pure := moved(inst("test_thing", "old", nil), inst("test_thing", "new", nil), plans.NoOp, obj, obj)
	intoModule := moved(inst("test_thing", "a", addrs.IntKey(0)), addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "test_thing", Name: "a"}.Instance(addrs.NoKey).Absolute(mod), plans.NoOp, obj, obj)
	withUpdate := moved(inst("test_thing", "before", nil), inst("test_thing", "after", nil), plans.Update, obj, renamed)
	noTarget := moved(inst("test_thing", "src", nil), inst("test_thing", "dst", nil), plans.Delete, obj, cty.NullVal(ty))
	noTarget.ActionReason = plans.ReasonDeleteBecauseNoMoveTarget
	unmoved := change(inst("test_thing", "same", nil), plans.NoOp, obj, obj)

	tests := map[string]*plans.Plan{
		"moved-only":    planWith([]*plans.ResourceInstanceChange{pure, intoModule, unmoved}, nil),
		"moved-changes": planWith([]*plans.ResourceInstanceChange{pure, withUpdate, noTarget, unmoved}, nil),
		"moved-refresh-only": func() *plans.Plan {
			p := planWith(nil, nil)
			p.UIMode = plans.RefreshOnlyMode
			p.DriftedResources = []*plans.ResourceInstanceChange{pure}
			return p
		}(),
		// In a normal plan a move-only drift entry is not drift: the
		// planned changes show the move.
		"moved-drift-normal": func() *plans.Plan {
			p := planWith([]*plans.ResourceInstanceChange{pure}, nil)
			p.DriftedResources = []*plans.ResourceInstanceChange{pure}
			return p
		}(),
	}
	for name, p := range tests {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Plan(&buf, p, false); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", name+".golden"), buf.String())
			var colored bytes.Buffer
			if err := Plan(&colored, p, true); err != nil {
				t.Fatal(err)
			}
			if stripANSI(colored.String()) != buf.String() {
				t.Errorf("colour output differs from plain output beyond escape codes")
			}
		})
	}
}

// TestPlanMovedRenderedInParallel: in a plan large enough to render on
// several goroutines, moves without other change are listed as they are
// by one goroutine.
func TestPlanMovedRenderedInParallel(t *testing.T) {
	p := planstest.LargePlan(2*parallelRenderMin + 11)
	moves := 0
	for i, rc := range p.Changes.Resources {
		if i%7 == 0 && rc.DeposedKey == addrs.NotDeposed {
			rc.Action = plans.NoOp
			rc.Before = rc.After
			rc.PrevRunAddr = addrs.Resource{Mode: addrs.ManagedResourceMode, Type: rc.Addr.Resource.Resource.Type, Name: "old" + strconv.Itoa(i)}.Instance(addrs.NoKey).Absolute(nil)
			moves++
		}
	}
	render := func(procs int) string {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		var w writeLog
		if err := Plan(&w, p, false); err != nil {
			t.Fatal(err)
		}
		return w.buf.String()
	}
	one, many := render(1), render(4)
	if d := cmp.Diff(one, many); d != "" {
		t.Errorf("rendered on 4 goroutines differs from on 1 (-one +four):\n%s", d)
	}
	if got := strings.Count(many, " has moved to "); got != moves {
		t.Errorf("%d moves rendered, want %d", got, moves)
	}
}
