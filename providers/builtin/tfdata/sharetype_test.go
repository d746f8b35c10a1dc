package tfdata

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/builtin/internal/lifecycle"
)

// TestPlannedObjectsShareTypes: planned objects of the same type share
// one copy of it, and each is exactly the object planned without sharing
// (the same attributes, refinements and type), whatever the input's type.
func TestPlannedObjectsShareTypes(t *testing.T) {
	if !layoutOK {
		t.Fatal("cty.Value's layout is not the one shareType relies on: planned objects no longer share types")
	}
	h := lifecycle.New(t, New(), "terraform_data")
	configs := []string{`input = "a"`, `input = "b"`, `input = 1`, `input = { a = 1, b = ["x"] }`, `input = { a = 2, b = ["y", "z"] }`, `triggers_replace = "t"`, ``}
	first := map[string]cty.Type{}
	for round := range 2 {
		_ = round
		for _, src := range configs {
			cfg := h.Config(src)
			got := h.Plan(h.Null(), cfg).PlannedState
			want := cty.ObjectVal(got.AsValueMap()) // the same attributes in an object of its own type
			if !got.RawEquals(want) || !got.Type().Equals(want.Type()) {
				t.Fatalf("%q: planned %#v, want %#v", src, got, want)
			}
			if id := got.GetAttr("id"); id.IsKnown() || id.Range().CouldBeNull() {
				t.Fatalf("%q: planned id %#v lost its not-null refinement", src, id)
			}
			key := got.Type().GoString()
			if t0, ok := first[key]; ok {
				if typeIdentity(t0) != typeIdentity(got.Type()) {
					t.Errorf("round %d, %q: the planned object has its own copy of type %s", round, src, key)
				}
			} else {
				first[key] = got.Type()
			}
		}
	}
	if len(first) < 5 {
		t.Errorf("%d distinct planned types, want at least 5 (string, number, two objects, null input)", len(first))
	}
}

// TestShareTypeKeepsValues: shareType returns an equal value, with the
// shared type once one is recorded, for values of many types, and stops
// recording new types at maxSharedTypes.
func TestShareTypeKeepsValues(t *testing.T) {
	recorded := 0 // by other tests of the package
	if l := sharedTypes.list.Load(); l != nil {
		recorded = len(*l)
	}
	for i := range maxSharedTypes + 8 {
		attrs := map[string]cty.Value{"id": cty.UnknownVal(cty.String).RefineNotNull(), fmt.Sprintf("a%d", i): cty.NumberIntVal(int64(i))}
		a, b := cty.ObjectVal(attrs), cty.ObjectVal(attrs)
		sa, sb := shareType(a), shareType(b)
		if !sa.RawEquals(a) || !sb.RawEquals(b) || !sa.Type().Equals(a.Type()) || !sb.Type().Equals(b.Type()) {
			t.Fatalf("%d: shareType changed the value: %#v -> %#v", i, a, sa)
		}
		shared := typeIdentity(sa.Type()) == typeIdentity(sb.Type())
		if want := recorded+i < maxSharedTypes; shared != want {
			t.Errorf("type %d shared: %v, want %v (at most %d types are recorded)", i, shared, want, maxSharedTypes)
		}
	}
}
