package marks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

type otherMark string

func TestHasAndContains(t *testing.T) {
	nested := cty.ObjectVal(map[string]cty.Value{
		"a": cty.StringVal("x").Mark(Sensitive),
		"b": cty.StringVal("y"),
	})
	tests := []struct {
		name         string
		v            cty.Value
		has, contain bool
	}{
		{"plain", cty.StringVal("x"), false, false},
		{"top", cty.StringVal("x").Mark(Sensitive), true, true},
		{"nested", nested, false, true},
		{"other mark", cty.StringVal("x").Mark(otherMark("o")), false, false},
		{"unknown marked", cty.UnknownVal(cty.String).Mark(Sensitive), true, true},
		{"null marked", cty.NullVal(cty.String).Mark(Sensitive), true, true},
		{"in list", cty.ListVal([]cty.Value{cty.StringVal("y"), cty.StringVal("x").Mark(Sensitive)}), false, true},
		{"in map in tuple", cty.TupleVal([]cty.Value{cty.MapVal(map[string]cty.Value{"k": cty.NumberIntVal(1).Mark(Sensitive)})}), false, true},
		{"other mark nested", cty.ListVal([]cty.Value{cty.StringVal("x").Mark(otherMark("o"))}), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Has(tt.v, Sensitive); got != tt.has {
				t.Errorf("Has = %v, want %v", got, tt.has)
			}
			if got := Contains(tt.v, Sensitive); got != tt.contain {
				t.Errorf("Contains = %v, want %v", got, tt.contain)
			}
		})
	}
}

func TestSensitivePathsRoundTrip(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"list": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b").Mark(Sensitive)}),
		"map":  cty.MapVal(map[string]cty.Value{"k": cty.NumberIntVal(1).Mark(Sensitive)}),
		"s":    cty.StringVal("plain"),
	})
	unmarked, paths := SensitivePaths(v)
	if unmarked.ContainsMarked() {
		t.Fatal("SensitivePaths left marks on the value")
	}
	want := []cty.Path{
		cty.GetAttrPath("list").IndexInt(1),
		cty.GetAttrPath("map").IndexString("k"),
	}
	if diff := cmp.Diff(want, paths, cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) })); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	back := MarkSensitivePaths(unmarked, paths)
	if !back.RawEquals(v) {
		t.Errorf("round trip: got %#v, want %#v", back, v)
	}
}

func TestUnmarkMarkPaths(t *testing.T) {
	v := cty.TupleVal([]cty.Value{
		cty.StringVal("a").Mark(Sensitive).Mark(otherMark("o")),
		cty.True,
	})
	unmarked, pvms := UnmarkPaths(v)
	if unmarked.ContainsMarked() {
		t.Fatal("UnmarkPaths left marks")
	}
	if len(pvms) != 1 || len(pvms[0].Marks) != 2 {
		t.Fatalf("got %#v", pvms)
	}
	if got := MarkPaths(unmarked, pvms); !got.RawEquals(v) {
		t.Errorf("got %#v, want %#v", got, v)
	}
	if got := MarkPaths(unmarked, nil); !got.RawEquals(unmarked) {
		t.Errorf("nil paths changed the value")
	}
	// A path that does not exist is ignored rather than failing.
	stale := []cty.PathValueMarks{{Path: cty.GetAttrPath("gone"), Marks: cty.NewValueMarks(Sensitive)}}
	if got := MarkPaths(unmarked, stale); !got.RawEquals(unmarked) {
		t.Errorf("stale path changed the value: %#v", got)
	}
}

func TestRemoveDeep(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{
		"a": cty.StringVal("x").Mark(Sensitive),
		"b": cty.StringVal("y").Mark(Sensitive).Mark(otherMark("o")),
	}).Mark(Sensitive)
	got := RemoveDeep(v, Sensitive)
	want := cty.ObjectVal(map[string]cty.Value{
		"a": cty.StringVal("x"),
		"b": cty.StringVal("y").Mark(otherMark("o")),
	})
	if !got.RawEquals(want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	if Contains(got, Sensitive) {
		t.Error("Sensitive still present")
	}
}

func TestGoString(t *testing.T) {
	if got := Sensitive.GoString(); got != "marks.Sensitive" {
		t.Errorf("GoString = %q", got)
	}
}
