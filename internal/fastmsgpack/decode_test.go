package fastmsgpack

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/msgpack"
)

// decodeCases are values of the forms plans hold, and a few the fast
// decoder hands to the library.
func decodeCases() []cty.Value {
	obj := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "n": cty.Number, "b": cty.Bool})
	return []cty.Value{
		cty.StringVal("v0"), cty.StringVal(""), cty.StringVal("caf\u00e9 \U0001F600"), cty.StringVal(string(make([]byte, 300))),
		cty.NullVal(cty.String), cty.UnknownVal(cty.String), cty.UnknownVal(cty.String).RefineNotNull(), cty.UnknownVal(cty.List(cty.String)).RefineNotNull(),
		cty.UnknownVal(cty.Number).Refine().NumberRangeLowerBound(cty.Zero, true).NewValue(),
		cty.UnknownVal(cty.String).Refine().StringPrefix("ab").NewValue(),
		cty.True, cty.False, cty.NullVal(cty.Bool),
		cty.NumberIntVal(0), cty.NumberIntVal(-1), cty.NumberIntVal(-33), cty.NumberIntVal(127), cty.NumberIntVal(128),
		cty.NumberIntVal(-129), cty.NumberIntVal(70000), cty.NumberIntVal(-70000), cty.NumberIntVal(1 << 40), cty.NumberIntVal(-1 << 40),
		cty.NumberUIntVal(1 << 63), cty.NumberFloatVal(1.5), cty.MustParseNumberVal("1e400"),
		cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "input": cty.StringVal("v"), "n": cty.NumberIntVal(3), "b": cty.True}),
		cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x"), "input": cty.NumberIntVal(2), "n": cty.NullVal(cty.Number), "b": cty.NullVal(cty.Bool)}),
		cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x"), "input": cty.ListVal([]cty.Value{cty.StringVal("a")}), "n": cty.UnknownVal(cty.Number), "b": cty.False}),
		cty.NullVal(obj), cty.UnknownVal(obj), cty.EmptyObjectVal,
		cty.ListVal([]cty.Value{cty.StringVal("a"), cty.NullVal(cty.String), cty.UnknownVal(cty.String)}), cty.ListValEmpty(cty.Number),
		cty.SetVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a")}), cty.SetValEmpty(cty.String),
		cty.MapVal(map[string]cty.Value{"k": cty.NumberIntVal(1), "": cty.NumberIntVal(2)}), cty.MapValEmpty(cty.Bool),
		cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(1), cty.EmptyObjectVal}), cty.EmptyTupleVal,
		cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"m": cty.MapVal(map[string]cty.Value{"x": cty.SetVal([]cty.Value{cty.True})})})}),
	}
}

// checkDecode decodes b as ty both ways: where the fast decoder
// answers, the library must give the same value (type, refinements and
// all).
func checkDecode(t *testing.T, b []byte, ty cty.Type) (took bool) {
	t.Helper()
	fast, ok := Decode(b, ty)
	if !ok {
		return false
	}
	want, err := msgpack.Unmarshal(b, ty)
	if err != nil {
		t.Fatalf("% x as %s: fast decoder gave %#v, the library refuses it: %v", b, ty.FriendlyName(), fast, err)
	}
	if !fast.RawEquals(want) || fast.GoString() != want.GoString() || !fast.Type().Equals(want.Type()) {
		t.Fatalf("% x as %s: fast decoder gave %#v, the library %#v", b, ty.FriendlyName(), fast, want)
	}
	return true
}

// TestDecodeMatchesCty: every value, encoded by go-cty both as its
// own type and as a dynamic value, decodes by the fast path to the
// library's value, and the common forms do take the fast path.
func TestDecodeMatchesCty(t *testing.T) {
	took := 0
	for _, v := range decodeCases() {
		for _, ty := range []cty.Type{v.Type(), cty.DynamicPseudoType} {
			b, err := msgpack.Marshal(v, ty)
			if err != nil {
				t.Fatalf("%#v: %v", v, err)
			}
			if checkDecode(t, b, ty) {
				took++
			}
		}
	}
	if took < 50 {
		t.Errorf("the fast decoder answered for %d encodings; the test no longer covers it", took)
	}
	// The commonest plan value (terraform_data's planned object) must be
	// decoded fast.
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType})
	v := cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String).RefineNotNull(), "input": cty.StringVal("v0"), "output": cty.UnknownVal(cty.DynamicPseudoType), "triggers_replace": cty.NullVal(cty.DynamicPseudoType)})
	b, _ := msgpack.Marshal(v, ty)
	if !checkDecode(t, b, ty) {
		t.Errorf("a terraform_data object went to the library")
	}
}

// FuzzDecodeMatchesCty: any bytes, as any of a set of types, decode
// by the fast path (when it answers) to the library's value.
func FuzzDecodeMatchesCty(f *testing.F) {
	types := []cty.Type{cty.String, cty.Number, cty.Bool, cty.DynamicPseudoType,
		cty.List(cty.String), cty.Set(cty.Number), cty.Map(cty.DynamicPseudoType), cty.Tuple([]cty.Type{cty.String, cty.Bool}),
		cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.DynamicPseudoType}), cty.List(cty.Object(map[string]cty.Type{"x": cty.Number})),
		cty.ObjectWithOptionalAttrs(map[string]cty.Type{"a": cty.String}, []string{"a"})}
	for _, v := range decodeCases() {
		if b, err := msgpack.Marshal(v, cty.DynamicPseudoType); err == nil {
			f.Add(b, uint8(3))
		}
	}
	f.Add([]byte{0x82, 0xa1, 'a', 0xa1, 'x', 0xa1, 'b', 0x92, 0xc4, 8, '"', 's', 't', 'r', 'i', 'n', 'g', '"', 0xa1, 'y'}, uint8(8))
	f.Fuzz(func(t *testing.T, b []byte, which uint8) {
		if CheckBounds(b) != nil {
			return // refused before either decoder runs
		}
		checkDecode(t, b, types[int(which)%len(types)])
	})
}

// TestDecodeRandomMatchesCty: random values of random types (the
// encoder's test values: every kind, size class and refinement), encoded
// by go-cty as their type and as a dynamic value, decode by the fast path
// to the library's value wherever it answers; and it does answer for the
// values provider responses and plans are made of.
func TestDecodeRandomMatchesCty(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	took := 0
	for i := range 2000 {
		ty := randType(rng, 3)
		v := randValue(rng, ty, 3)
		for _, as := range []cty.Type{ty, cty.DynamicPseudoType} {
			b, err := msgpack.Marshal(v, as)
			if err != nil {
				t.Fatalf("case %d: %#v: %v", i, v, err)
			}
			if checkDecode(t, b, as) {
				took++
			}
			// A cut encoding is declined or, where a prefix is itself a
			// whole value, decoded as the library decodes it.
			checkDecode(t, b[:rng.IntN(len(b)+1)], as)
		}
	}
	if took < 1000 {
		t.Errorf("the fast decoder answered for %d of 4000 encodings; the test no longer covers it", took)
	}
}

// TestDecodeRefusesHostileCounts: a collection count larger than the
// bytes left is declined before anything is allocated for it.
func TestDecodeRefusesHostileCounts(t *testing.T) {
	for _, tc := range []struct {
		b  []byte
		ty cty.Type
	}{
		{[]byte{0xdd, 0xff, 0xff, 0xff, 0xff}, cty.List(cty.String)},
		{[]byte{0xdc, 0xff, 0xff, 0xc0}, cty.List(cty.String)},
		{[]byte{0xdf, 0x7f, 0xff, 0xff, 0xff}, cty.Map(cty.String)},
		{[]byte{0xde, 0xff, 0xff, 0xa1, 'a', 0xc0}, cty.Map(cty.String)},
		{[]byte{0x9f, 0xc0}, cty.Set(cty.Bool)},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, ok := Decode(tc.b, tc.ty)
		runtime.ReadMemStats(&after)
		if ok {
			t.Errorf("% x as %s: decoded", tc.b, tc.ty.FriendlyName())
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
			t.Errorf("% x: %d bytes allocated for a refused value", tc.b, n)
		}
	}
}
