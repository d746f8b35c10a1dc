package plugin

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"

	"github.com/plankit/plankit/lang/marks"
)

// TestEncodeValue: the encoder's shortcuts (nulls of a static type,
// values unmarked only when marked) give exactly cty's encoding of the
// unmarked value, which decodes back to it.
func TestEncodeValue(t *testing.T) {
	obj := cty.Object(map[string]cty.Type{"s": cty.String, "d": cty.DynamicPseudoType})
	for _, tc := range []struct {
		name string
		v    cty.Value
		ty   cty.Type
	}{
		{"null object", cty.NullVal(obj), obj},
		{"null string", cty.NullVal(cty.String), cty.String},
		{"null of a dynamic type keeps its type", cty.NullVal(cty.String), cty.DynamicPseudoType},
		{"dynamic null", cty.NullVal(cty.DynamicPseudoType), cty.DynamicPseudoType},
		{"marked null", cty.NullVal(obj).Mark(marks.Sensitive), obj},
		{"object", cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("a"), "d": cty.NumberIntVal(2)}), obj},
		{"nested mark", cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("a").Mark(marks.Sensitive), "d": cty.NullVal(cty.List(cty.String))}), obj},
		{"marked unknown", cty.UnknownVal(cty.String).Refine().NotNull().NewValue().Mark(marks.Sensitive), cty.String},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := encodeValue(tc.v, tc.ty)
			if err != nil {
				t.Fatal(err)
			}
			u, _ := tc.v.UnmarkDeep()
			want, err := ctymsgpack.Marshal(u, tc.ty)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("encoded %x, want %x", got, want)
			}
			back, err := decodeValue(got, nil, tc.ty)
			if err != nil {
				t.Fatal(err)
			}
			if !back.RawEquals(u) {
				t.Errorf("decoded %#v, want %#v", back, u)
			}
		})
	}
	if got, err := encodeValue(cty.NilVal, cty.String); err != nil || !bytes.Equal(got, []byte{0xc0}) {
		t.Errorf("NilVal encoded %x, %v; want msgpack nil", got, err)
	}
}

// TestEncodeValueMatchesCty: plankit's encoder writes, for values of every
// kind and size class msgpack distinguishes, exactly the bytes cty's
// encoder writes (so providers decode them as they decode Terraform's).
func TestEncodeValueMatchesCty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 1000 {
		ty := randType(rng, 3)
		v := randValue(rng, ty, 3)
		got, err := encodeValue(v, ty)
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
		got, err := encodeValue(v, v.Type())
		want, werr := ctymsgpack.Marshal(v, v.Type())
		if err != nil || werr != nil || !bytes.Equal(got, want) {
			t.Errorf("%s of length %d: encodings differ (%v, %v)", v.Type().FriendlyName(), v.LengthInt(), err, werr)
		}
	}
	// Known values of the schema's type take plankit's path.
	obj := cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("a"), "n": cty.NumberIntVal(-5),
		"l": cty.ListVal([]cty.Value{cty.True}), "m": cty.MapVal(map[string]cty.Value{"k": cty.NullVal(cty.String)})})
	if _, err := appendMsgpack(nil, obj, obj.Type()); err != nil {
		t.Errorf("%#v does not take plankit's encoder: %v", obj, err)
	}
	// A value of another structure than the type is converted, as cty
	// converts it.
	conv := cty.ObjectVal(map[string]cty.Value{"l": cty.TupleVal([]cty.Value{cty.StringVal("a")}), "n": cty.StringVal("12")})
	cty2 := cty.Object(map[string]cty.Type{"l": cty.List(cty.String), "n": cty.Number})
	got, err := encodeValue(conv, cty2)
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
