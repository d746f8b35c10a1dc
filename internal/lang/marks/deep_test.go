package marks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestHasMarksDeepAndUnmark(t *testing.T) {
	s := cty.StringVal("s").Mark(Sensitive)
	tests := []struct {
		name string
		v    cty.Value
		want bool
	}{
		{"null", cty.NullVal(cty.String), false},
		{"marked null", cty.NullVal(cty.String).Mark(Sensitive), true},
		{"unknown", cty.UnknownVal(cty.String), false},
		{"marked unknown", cty.UnknownVal(cty.String).Mark(Sensitive), true},
		{"flat object", cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.NullVal(cty.Number)}), false},
		{"object attribute", cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": s}), true},
		{"deep in list in object", cty.ObjectVal(map[string]cty.Value{"l": cty.ListVal([]cty.Value{cty.StringVal("x"), s})}), true},
		{"map element", cty.MapVal(map[string]cty.Value{"k": s}), true},
		{"tuple element", cty.TupleVal([]cty.Value{cty.True, cty.ObjectVal(map[string]cty.Value{"x": s})}), true},
		{"set", cty.SetVal([]cty.Value{cty.StringVal("a")}), false},
		{"marked set", cty.SetVal([]cty.Value{s}), true},
		{"unmarked collections", cty.ObjectVal(map[string]cty.Value{
			"l": cty.ListValEmpty(cty.String), "m": cty.MapVal(map[string]cty.Value{"k": cty.True}),
			"t": cty.TupleVal([]cty.Value{cty.NumberIntVal(1)}),
		}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HasMarksDeep(tt.v); got != tt.want {
				t.Errorf("HasMarksDeep = %v, want %v", got, tt.want)
			}
			if got := tt.v.ContainsMarked(); got != tt.want {
				t.Fatalf("test case disagrees with cty's ContainsMarked (%v)", got)
			}
			u, pvm := UnmarkDeepWithPaths(tt.v)
			wu, wpvm := tt.v.UnmarkDeepWithPaths()
			if !u.RawEquals(wu) {
				t.Errorf("unmarked = %#v, want %#v", u, wu)
			}
			if diff := cmp.Diff(len(wpvm), len(pvm)); diff != "" {
				t.Errorf("paths (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnmarkDeepWithPathsNoAlloc checks that an unmarked object is
// returned as it is, without the copy cty's UnmarkDeepWithPaths makes.
func TestUnmarkDeepWithPathsNoAlloc(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("v1"), "id": cty.UnknownVal(cty.String), "n": cty.NullVal(cty.Number)})
	if n := testing.AllocsPerRun(100, func() { UnmarkDeepWithPaths(v) }); n != 0 {
		t.Errorf("UnmarkDeepWithPaths of an unmarked object allocated %v times, want 0", n)
	}
	if _, paths := SensitivePaths(v); paths != nil {
		t.Errorf("SensitivePaths = %v, want none", paths)
	}
}
