package random

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/providers/builtin/internal/lifecycle"
)

// TestReplaceRules checks which changes replace and which update in place,
// as the real provider decides (keepers: RequiresReplaceIfValuesNotNull;
// override_special: replace unless "" becomes unset). An in-place update
// keeps result and id.
func TestReplaceRules(t *testing.T) {
	tests := []struct {
		name, before, after string
		replace             []string
	}{
		{"keepers unchanged", `keepers = { a = "1" }`, `keepers = { a = "1" }`, nil},
		{"keepers gain a null value", `keepers = { a = "1" }`, `keepers = { a = "1", b = null }`, nil},
		{"keepers null to all-null map", ``, `keepers = { a = null }`, nil},
		{"keepers value changes", `keepers = { a = "1" }`, `keepers = { a = "2" }`, []string{"keepers"}},
		{"keepers key removed", `keepers = { a = "1", b = "2" }`, `keepers = { a = "1" }`, []string{"keepers"}},
		{"keepers removed", `keepers = { a = "1" }`, ``, []string{"keepers"}},
		{"keepers added", ``, `keepers = { a = "1" }`, []string{"keepers"}},
		{"override_special empty to unset", `override_special = ""`, ``, nil},
		{"override_special unset to empty", ``, `override_special = ""`, []string{"override_special"}},
		{"override_special set to unset", `override_special = "!"`, ``, []string{"override_special"}},
		{"override_special changed", `override_special = "!"`, `override_special = "?"`, []string{"override_special"}},
		{"length changed", ``, "length = 9", []string{"length"}},
	}
	for _, typ := range []string{"random_string", "random_password"} {
		h := harness(t, typ)
		for _, tt := range tests {
			cfg := func(extra string) string {
				if extra == "length = 9" {
					return extra
				}
				return "length = 8\n" + extra
			}
			prior := h.Create(h.Config(cfg(tt.before)))
			after := h.Config(cfg(tt.after))
			pl := h.Plan(prior, after)
			if diff := cmp.Diff(tt.replace, nilIfEmpty(lifecycle.ReplacePaths(pl.RequiresReplace))); diff != "" {
				t.Errorf("%s %s: RequiresReplace (-want +got)\n%s", typ, tt.name, diff)
				continue
			}
			if tt.replace != nil {
				continue
			}
			if !pl.PlannedState.GetAttr("result").RawEquals(prior.GetAttr("result")) {
				t.Errorf("%s %s: in-place update lost result", typ, tt.name)
			}
			if got := h.Apply(prior, pl.PlannedState, after); !got.RawEquals(pl.PlannedState) {
				t.Errorf("%s %s: update applied %#v, planned %#v", typ, tt.name, got, pl.PlannedState)
			}
		}
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}
