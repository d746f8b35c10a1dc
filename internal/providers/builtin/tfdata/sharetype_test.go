package tfdata

import (
	"fmt"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/lifecycle"
)

// TestPlannedObjectsShareTypes: planned objects of the same type share
// one copy of it, and each is exactly the object planned without sharing
// (the same attributes, refinements and type), whatever the input's type.
func TestPlannedObjectsShareTypes(t *testing.T) {
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

// BenchmarkPlannedObjectsRetained measures what sharing types saves: the
// heap kept by 10,000 planned terraform_data objects (a plan keeps every
// planned object to its end), with the shared type and with the type
// cty.ObjectVal gives each object.
func BenchmarkPlannedObjectsRetained(b *testing.B) {
	const n = 10000
	planned := func(i int) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"id":               cty.UnknownVal(cty.String).RefineNotNull(),
			"input":            cty.StringVal(fmt.Sprint("in-", i)),
			"output":           cty.UnknownVal(cty.String),
			"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
		})
	}
	for _, mode := range []struct {
		name  string
		share func(cty.Value) cty.Value
	}{{"shared", shareType}, {"own", func(v cty.Value) cty.Value { return v }}} {
		b.Run(mode.name, func(b *testing.B) {
			var perObject float64
			for b.Loop() {
				keep := make([]cty.Value, n)
				before := heapInUse()
				for i := range keep {
					keep[i] = mode.share(planned(i))
				}
				perObject = float64(heapInUse()-before) / n
				runtime.KeepAlive(keep)
			}
			b.ReportMetric(perObject, "retained-B/object")
		})
	}
}

// typeIdentity tells an object type apart from an equal copy: the address
// of its attribute-type map.
func typeIdentity(t cty.Type) uintptr { return reflect.ValueOf(t.AttributeTypes()).Pointer() }

func heapInUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// TestNoUnsafe: the package builds planned objects through go-cty's
// public API only; writing into cty.Value's private layout would let a
// go-cty upgrade corrupt memory silently.
func TestNoUnsafe(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if imp.Path.Value == `"unsafe"` {
				t.Errorf("%s imports unsafe", name)
			}
		}
	}
}
