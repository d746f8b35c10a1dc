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

// TestDriftOnlyWhereRelevant: outside a refresh-only plan the "changed
// outside" section lists drift as OpenTofu filters it: none beside a
// plan with no changes; otherwise only objects whose address is among
// the plan's relevant attributes, showing only the changes to those
// attributes, and not at all when none of them changed. A refresh-only
// plan, or one whose relevant attributes are unknown, lists all of it.
func TestDriftOnlyWhereRelevant(t *testing.T) {
	ty := thingType()
	base := thing(map[string]cty.Value{"id": cty.StringVal("a"), "name": cty.StringVal("web"), "size": cty.NumberIntVal(1),
		"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80)}), cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(81)})})})
	edit := thing(map[string]cty.Value{"id": cty.StringVal("a"), "name": cty.StringVal("api"), "size": cty.NumberIntVal(2),
		"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(90)}), cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(91)})})})
	emptied := thing(map[string]cty.Value{"id": cty.StringVal("a"), "name": cty.StringVal("web"), "size": cty.NumberIntVal(1),
		"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80)}), cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(81)})}),
		"tags": cty.MapValEmpty(cty.String)})
	gone := cty.NullVal(ty)
	drift := []*plans.ResourceInstanceChange{
		change(inst("test_thing", "edited", nil), plans.Update, base, edit),
		change(inst("test_thing", "norm", nil), plans.Update, base, emptied),
		change(inst("test_thing", "vanished", nil), plans.Delete, base, gone),
	}
	create := change(inst("test_thing", "new", nil), plans.Create, gone, base)
	rel := func(res string, path ...any) plans.RelevantAttribute {
		return plans.RelevantAttribute{Resource: res, Attribute: path}
	}
	tests := []struct {
		name     string
		plan     *plans.Plan
		mode     plans.Mode
		relevant []plans.RelevantAttribute
		unknown  bool
		want     string // the drift section's resources, "" for none
	}{
		{name: "no planned changes", plan: planWith([]*plans.ResourceInstanceChange{change(inst("test_thing", "x", nil), plans.NoOp, base, base)}, nil),
			relevant: []plans.RelevantAttribute{rel("test_thing.edited")}},
		{name: "nothing relevant", plan: planWith([]*plans.ResourceInstanceChange{create}, nil)},
		{name: "unrelated resources hidden", plan: planWith([]*plans.ResourceInstanceChange{create}, nil),
			relevant: []plans.RelevantAttribute{rel("test_thing.other", "name"), rel("test_thing.edited[0]", "name")}},
		{name: "whole object referred to", plan: planWith([]*plans.ResourceInstanceChange{create}, nil),
			relevant: []plans.RelevantAttribute{rel("test_thing.edited"), rel("test_thing.vanished", "name")},
			want: `
  # test_thing.edited has changed
  ~ resource "test_thing" "edited" {
        id   = "a"
      ~ name = "web" -> "api"
      ~ size = 1 -> 2

      ~ rule {
          ~ port = 80 -> 90
        }

      ~ rule {
          ~ port = 81 -> 91
        }
    }

  # test_thing.vanished has been deleted
  - resource "test_thing" "vanished" {
      - id   = "a" -> null
      - name = "web" -> null
      - size = 1 -> null

      - rule {
          - port = 80 -> null
        }

      - rule {
          - port = 81 -> null
        }
    }
`},
		{name: "only relevant attributes", plan: planWith([]*plans.ResourceInstanceChange{create}, nil),
			relevant: []plans.RelevantAttribute{rel("test_thing.edited", "size"), rel("test_thing.edited", "rule", 1, "port"), rel("test_thing.norm", "name")},
			want: `
  # test_thing.edited has changed
  ~ resource "test_thing" "edited" {
        id   = "a"
        name = "web"
      ~ size = 1 -> 2

      ~ rule {
          ~ port = 81 -> 91
        }

        # (1 unchanged block hidden)
    }
`},
		{name: "unknown relevance shows all", plan: planWith([]*plans.ResourceInstanceChange{create}, nil), unknown: true,
			want: "test_thing.edited test_thing.norm test_thing.vanished"},
		{name: "refresh-only shows all", plan: planWith(nil, nil), mode: plans.RefreshOnlyMode,
			want: "test_thing.edited test_thing.norm test_thing.vanished"},
	}
	header := regexp.MustCompile(`(?m)^  # (\S+) has (?:changed|been deleted)$`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.plan.DriftedResources = drift
			tt.plan.UIMode = tt.mode
			tt.plan.RelevantAttributes, tt.plan.RelevantKnown = tt.relevant, !tt.unknown
			var buf bytes.Buffer
			if err := Plan(&buf, tt.plan, false); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			section := ""
			if i := strings.Index(out, "affected this plan:\n"); i >= 0 {
				section = out[i+len("affected this plan:\n"):]
				if j := strings.Index(section, "\n\nUnless you have made"); j >= 0 {
					section = section[:j+1]
				} else if j := strings.Index(section, "\n\nThis is a refresh-only plan"); j >= 0 {
					section = section[:j+1]
				}
			}
			got := strings.TrimRight(section, "\n") + "\n"
			if !strings.HasPrefix(tt.want, "\n") {
				var names []string
				for _, m := range header.FindAllStringSubmatch(section, -1) {
					names = append(names, m[1])
				}
				got = strings.Join(names, " ")
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("drift shown (-want +got):\n%s\n%s", d, out)
			}
			if present := strings.Contains(out, "Objects have changed outside"); present != (tt.want != "") {
				t.Errorf("drift section present: %v, want %v\n%s", present, tt.want != "", out)
			}
		})
	}
}
