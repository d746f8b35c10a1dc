package render

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
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
