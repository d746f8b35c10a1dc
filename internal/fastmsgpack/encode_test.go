package fastmsgpack

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// TestMarshalMatchesCty: Marshal writes, for values of every kind and size
// class msgpack distinguishes, exactly the bytes cty's encoder writes (so
// providers decode them as they decode Terraform's, and plan archives stay
// byte for byte what they were).
func TestMarshalMatchesCty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 1000 {
		ty := randType(rng, 3)
		v := randValue(rng, ty, 3)
		got, err := Marshal(v, ty)
		if err != nil {
			t.Fatalf("case %d: %#v: %v", i, v, err)
		}
		want, err := ctymsgpack.Marshal(v, ty)
		if err != nil {
			t.Fatalf("case %d: cty: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d: %#v as %#v encodes as\n%x\nwant\n%x", i, v, ty, got, want)
		}
	}
	// Strings and collections at msgpack's 16- and 32-bit length bounds.
	long := func(n int) cty.Value { return cty.StringVal(strings.Repeat("x", n)) }
	many := func(n int) cty.Value {
		els := make([]cty.Value, n)
		for i := range els {
			els[i] = cty.NumberIntVal(int64(i))
		}
		return cty.ListVal(els)
	}
	for _, v := range []cty.Value{long(65535), long(65536), many(65535), many(65536)} {
		got, err := Marshal(v, v.Type())
		want, werr := ctymsgpack.Marshal(v, v.Type())
		if err != nil || werr != nil || !bytes.Equal(got, want) {
			t.Errorf("%s of length %d: encodings differ (%v, %v)", v.Type().FriendlyName(), v.LengthInt(), err, werr)
		}
	}
	// Known values of the schema's type take Append's path.
	obj := cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("a"), "n": cty.NumberIntVal(-5),
		"l": cty.ListVal([]cty.Value{cty.True}), "m": cty.MapVal(map[string]cty.Value{"k": cty.NullVal(cty.String)})})
	if _, err := Append(nil, obj, obj.Type()); err != nil {
		t.Errorf("%#v does not take Append's path: %v", obj, err)
	}
	// A value of another structure than the type is converted, as cty
	// converts it.
	conv := cty.ObjectVal(map[string]cty.Value{"l": cty.TupleVal([]cty.Value{cty.StringVal("a")}), "n": cty.StringVal("12")})
	cty2 := cty.Object(map[string]cty.Type{"l": cty.List(cty.String), "n": cty.Number})
	got, err := Marshal(conv, cty2)
	want, werr := ctymsgpack.Marshal(conv, cty2)
	if err != nil || werr != nil || !bytes.Equal(got, want) {
		t.Errorf("converted value: %x, %v; want %x, %v", got, err, want, werr)
	}
}

var sizedStrings = []int{0, 1, 31, 32, 255, 256, 300}

var sampleInts = []int64{0, 1, 127, 128, 255, 256, 65535, 65536, 1<<32 - 1, 1 << 32, math.MaxInt64,
	-1, -32, -33, -128, -129, -32768, -32769, math.MinInt32, math.MinInt32 - 1, math.MinInt64}

func randType(rng *rand.Rand, depth int) cty.Type {
	n := 4
	if depth > 0 {
		n = 10
	}
	switch rng.IntN(n) {
	case 0:
		return cty.String
	case 1:
		return cty.Number
	case 2:
		return cty.Bool
	case 3:
		return cty.DynamicPseudoType
	case 4:
		return cty.List(randType(rng, depth-1))
	case 5:
		return cty.Set(randType(rng, 0))
	case 6:
		return cty.Map(randType(rng, depth-1))
	case 7:
		etys := make([]cty.Type, rng.IntN(3))
		for i := range etys {
			etys[i] = randType(rng, depth-1)
		}
		return cty.Tuple(etys)
	default:
		atys := map[string]cty.Type{}
		n, d := rng.IntN(4), depth-1
		if rng.IntN(8) == 0 {
			n, d = 17, 0 // past fixmap's 15 entries
		}
		for i := range n {
			atys[fmt.Sprintf("a%d_%s", i, strings.Repeat("x", rng.IntN(40)))] = randType(rng, d)
		}
		return cty.Object(atys)
	}
}

func randValue(rng *rand.Rand, ty cty.Type, depth int) cty.Value {
	switch rng.IntN(12) {
	case 0:
		return cty.NullVal(ty)
	case 1:
		return randUnknown(rng, ty)
	}
	switch {
	case ty == cty.DynamicPseudoType:
		return randValue(rng, randType(rng, 1), depth-1)
	case ty == cty.String:
		return cty.StringVal(strings.Repeat("s", sizedStrings[rng.IntN(len(sizedStrings))]))
	case ty == cty.Bool:
		return cty.BoolVal(rng.IntN(2) == 0)
	case ty == cty.Number:
		switch rng.IntN(3) {
		case 0:
			return cty.NumberFloatVal(rng.Float64() * 1e6)
		case 1:
			return cty.MustParseNumberVal("123456789012345678901234567890.5")
		}
		return cty.NumberIntVal(sampleInts[rng.IntN(len(sampleInts))])
	case ty.IsListType() || ty.IsSetType():
		n := rng.IntN(4)
		if rng.IntN(10) == 0 {
			n = 17
		}
		if n == 0 || ty.ElementType().HasDynamicTypes() {
			if ty.IsListType() {
				return cty.ListValEmpty(ty.ElementType())
			}
			return cty.SetValEmpty(ty.ElementType())
		}
		els := make([]cty.Value, n)
		for i := range els {
			els[i] = randValue(rng, ty.ElementType(), depth-1)
		}
		if ty.IsListType() {
			return cty.ListVal(els)
		}
		return cty.SetVal(els)
	case ty.IsMapType():
		if ty.ElementType().HasDynamicTypes() {
			return cty.MapValEmpty(ty.ElementType())
		}
		m := map[string]cty.Value{}
		n := rng.IntN(4)
		if rng.IntN(8) == 0 {
			n = 17
		}
		for i := range n {
			m[fmt.Sprintf("k%d", i)] = randValue(rng, ty.ElementType(), depth-1)
		}
		if len(m) == 0 {
			return cty.MapValEmpty(ty.ElementType())
		}
		return cty.MapVal(m)
	case ty.IsTupleType():
		etys := ty.TupleElementTypes()
		els := make([]cty.Value, len(etys))
		for i, ety := range etys {
			els[i] = randValue(rng, ety, depth-1)
		}
		return cty.TupleVal(els)
	default:
		m := map[string]cty.Value{}
		for name, aty := range ty.AttributeTypes() {
			m[name] = randValue(rng, aty, depth-1)
		}
		return cty.ObjectVal(m)
	}
}

// randUnknown is an unknown value of type ty, with no refinement, known
// non-null, or with the refinements of its type (string prefix, number
// bounds, collection length bounds), or both.
func randUnknown(rng *rand.Rand, ty cty.Type) cty.Value {
	k := rng.IntN(4)
	if k == 0 || ty == cty.DynamicPseudoType {
		return cty.UnknownVal(ty)
	}
	b := cty.UnknownVal(ty).Refine()
	if k&1 == 1 {
		b = b.NotNull()
	}
	if k&2 == 2 {
		switch {
		case ty == cty.String:
			b = b.StringPrefix(strings.Repeat("p", 1+rng.IntN(3)))
		case ty == cty.Number:
			b = b.NumberRangeLowerBound(cty.NumberIntVal(int64(rng.IntN(5))), rng.IntN(2) == 0)
			if rng.IntN(2) == 0 {
				b = b.NumberRangeUpperBound(cty.NumberIntVal(int64(10+rng.IntN(5))), rng.IntN(2) == 0)
			}
		case ty.IsCollectionType():
			b = b.CollectionLengthLowerBound(rng.IntN(3))
			if rng.IntN(2) == 0 {
				b = b.CollectionLengthUpperBound(3 + rng.IntN(3))
			}
		}
	}
	return b.NewValue()
}

// FuzzMarshalMatchesCty: whatever value go-cty decodes from arbitrary
// bytes, as any of a set of types, Marshal encodes to the bytes (or the
// error) go-cty's encoder gives it.
func FuzzMarshalMatchesCty(f *testing.F) {
	types := []cty.Type{cty.String, cty.Number, cty.Bool, cty.DynamicPseudoType,
		cty.List(cty.String), cty.Set(cty.Number), cty.Map(cty.DynamicPseudoType), cty.Tuple([]cty.Type{cty.String, cty.Bool}),
		cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.DynamicPseudoType}), cty.List(cty.Object(map[string]cty.Type{"x": cty.Number}))}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		ty := randType(rng, 2)
		if b, err := ctymsgpack.Marshal(randValue(rng, ty, 2), cty.DynamicPseudoType); err == nil {
			f.Add(b, uint8(3))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, which uint8) {
		if CheckBounds(b) != nil {
			return // go-cty would allocate the counts before reading
		}
		if hugeExponent.Match(b) {
			return // a number string such as 1e7000000 or 1p7000000 takes go-cty minutes
		}
		ty := types[int(which)%len(types)]
		v, ok := unmarshalSafely(b, ty)
		if !ok {
			return
		}
		got, err := Marshal(v, ty)
		want, werr := ctymsgpack.Marshal(v, ty)
		if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) || !bytes.Equal(got, want) {
			t.Errorf("%#v as %s: Marshal gave %x, %v; cty %x, %v", v, ty.FriendlyName(), got, err, want, werr)
		}
	})
}

// unmarshalSafely is go-cty's msgpack.Unmarshal, which panics on some
// malformed input, with the panic as a refusal.
func unmarshalSafely(b []byte, ty cty.Type) (v cty.Value, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	v, err := ctymsgpack.Unmarshal(b, ty)
	return v, err == nil
}

var hugeExponent = regexp.MustCompile(`[eEpP][+-]?[0-9]{4}`)

// BenchmarkMarshal is one planned terraform_data object (a plan's
// commonest value) by Marshal and by go-cty's msgpack.Marshal.
// Run: go test -run '^$' -bench Marshal -benchmem ./internal/fastmsgpack/
func BenchmarkMarshal(b *testing.B) {
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType})
	v := cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String).RefineNotNull(), "input": cty.StringVal("v0"), "output": cty.UnknownVal(cty.DynamicPseudoType), "triggers_replace": cty.NullVal(cty.DynamicPseudoType)})
	for _, enc := range []struct {
		name    string
		marshal func(cty.Value, cty.Type) ([]byte, error)
	}{{"fast", Marshal}, {"cty", ctymsgpack.Marshal}} {
		b.Run(enc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := enc.marshal(v, ty); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
