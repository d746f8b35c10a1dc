package render

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/plans"
)

// TestDriftOnlyWhereRelevant: the "changed outside" section lists drift
// as OpenTofu does: none beside a plan with no changes; not a provider
// turning an absent collection into an empty one; not the deletion of an
// object the plan already creates again; but a real change, and a
// deletion the plan does not act on. A refresh-only plan lists all of it.
func TestDriftOnlyWhereRelevant(t *testing.T) {
	ty := thingType()
	base := thing(map[string]cty.Value{"id": cty.StringVal("a"), "name": cty.StringVal("web")})
	emptied := thing(map[string]cty.Value{"id": cty.StringVal("a"), "name": cty.StringVal("web"),
		"list": cty.ListValEmpty(cty.String), "tags": cty.MapValEmpty(cty.String), "set": cty.SetValEmpty(cty.String)})
	renamed := thing(map[string]cty.Value{"id": cty.StringVal("a"), "name": cty.StringVal("api")})
	gone := cty.NullVal(ty)

	normalised := change(inst("test_thing", "norm", nil), plans.Update, base, emptied)
	edited := change(inst("test_thing", "edited", nil), plans.Update, base, renamed)
	recreated := change(inst("test_thing", "recreated", nil), plans.Delete, base, gone)
	vanished := change(inst("test_thing", "vanished", nil), plans.Delete, base, gone)
	unnormalised := change(inst("test_thing", "back", nil), plans.Update, emptied, base)

	create := change(inst("test_thing", "recreated", nil), plans.Create, gone, base)
	tests := []struct {
		name  string
		plan  *plans.Plan
		drift []*plans.ResourceInstanceChange
		mode  plans.Mode
		want  []string
	}{
		{"no planned changes", planWith([]*plans.ResourceInstanceChange{change(inst("test_thing", "x", nil), plans.NoOp, base, base)}, nil),
			[]*plans.ResourceInstanceChange{edited, vanished}, plans.NormalMode, nil},
		{"with planned changes", planWith([]*plans.ResourceInstanceChange{create}, nil),
			[]*plans.ResourceInstanceChange{normalised, edited, recreated, vanished, unnormalised}, plans.NormalMode,
			[]string{"test_thing.edited has changed", "test_thing.vanished has been deleted"}},
		{"refresh-only", planWith(nil, nil),
			[]*plans.ResourceInstanceChange{normalised, edited}, plans.RefreshOnlyMode,
			[]string{"test_thing.edited has changed", "test_thing.norm has changed"}},
	}
	header := regexp.MustCompile(`(?m)^  # (\S+ has (?:changed|been deleted))$`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.plan.DriftedResources = tt.drift
			tt.plan.UIMode = tt.mode
			var buf bytes.Buffer
			if err := Plan(&buf, tt.plan, false); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range header.FindAllStringSubmatch(buf.String(), -1) {
				got = append(got, m[1])
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("drift shown (-want +got):\n%s\n%s", d, buf.String())
			}
			if section := strings.Contains(buf.String(), "Objects have changed outside"); section != (len(tt.want) > 0) {
				t.Errorf("drift section present: %v, want %v\n%s", section, len(tt.want) > 0, buf.String())
			}
		})
	}
}
