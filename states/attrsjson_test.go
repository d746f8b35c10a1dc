package states

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/providers/configschema"
)

// valueGen draws cty values and the types to encode them as from a
// random source: every kind of type, nested, with nulls, unknowns, marks,
// odd strings and numbers, dynamic attributes and non-ASCII names.
type valueGen struct{ r *rand.Rand }

var genStrings = []string{"", "a", "id", "x-y_z", `q"uote`, `back\slash`, "<b>&amp;</b>", "tab\there", "nl\nx", "\x01\x1f\x7f",
	"ünïcödé", "e\u0301", "日本", "line\u2028sep\u2029", "bad\xffutf8", "emoji😀", "0"}

func (g valueGen) str() string { return genStrings[g.r.IntN(len(genStrings))] }

func (g valueGen) number() cty.Value {
	switch g.r.IntN(9) {
	case 0:
		return cty.NumberIntVal(0)
	case 1:
		return cty.NumberIntVal(-g.r.Int64())
	case 2:
		return cty.NumberIntVal(g.r.Int64())
	case 3:
		return cty.NumberFloatVal(g.r.NormFloat64() * 1e6)
	case 4:
		return cty.NumberFloatVal(1e300)
	case 5:
		f, _, _ := big.ParseFloat("123456789012345678901234567890.5", 10, 512, big.ToNearestEven)
		return cty.NumberVal(f)
	case 6:
		return cty.NumberIntVal(-9223372036854775808)
	case 7:
		return cty.PositiveInfinity
	}
	return cty.NumberFloatVal(-0.25)
}

// typ draws a type of at most depth levels.
func (g valueGen) typ(depth int) cty.Type {
	n := 4
	if depth > 0 {
		n = 11
	}
	switch g.r.IntN(n) {
	case 0:
		return cty.String
	case 1:
		return cty.Number
	case 2:
		return cty.Bool
	case 3:
		if g.r.IntN(3) == 0 {
			return cty.DynamicPseudoType
		}
		return cty.String
	case 4:
		return cty.List(g.typ(depth - 1))
	case 5:
		return cty.Set(g.typ(depth - 1))
	case 6:
		return cty.Map(g.typ(depth - 1))
	case 7:
		var ets []cty.Type
		for range g.r.IntN(4) {
			ets = append(ets, g.typ(depth-1))
		}
		return cty.Tuple(ets)
	}
	atys := map[string]cty.Type{}
	for range g.r.IntN(6) {
		atys[g.str()] = g.typ(depth - 1)
	}
	return cty.Object(atys)
}

// val draws a value of type t (a dynamic type gets a value of another).
func (g valueGen) val(t cty.Type, depth int) cty.Value {
	switch g.r.IntN(30) {
	case 0:
		return cty.NullVal(t)
	case 1:
		return cty.UnknownVal(t)
	case 2:
		return g.val(t, depth).Mark(marks.Sensitive)
	}
	switch {
	case t == cty.DynamicPseudoType:
		return g.val(g.typ(1), depth)
	case t == cty.String:
		return cty.StringVal(g.str())
	case t == cty.Number:
		return g.number()
	case t == cty.Bool:
		return cty.BoolVal(g.r.IntN(2) == 0)
	case t.IsListType(), t.IsSetType():
		n := g.r.IntN(4)
		if n == 0 || t.ElementType() == cty.DynamicPseudoType {
			if t.IsListType() {
				return cty.ListValEmpty(t.ElementType())
			}
			return cty.SetValEmpty(t.ElementType())
		}
		var vs []cty.Value
		for range n {
			vs = append(vs, g.val(t.ElementType(), depth))
		}
		if t.IsListType() {
			return cty.ListVal(vs)
		}
		return cty.SetVal(vs)
	case t.IsMapType():
		n := g.r.IntN(4)
		if n == 0 || t.ElementType() == cty.DynamicPseudoType {
			return cty.MapValEmpty(t.ElementType())
		}
		vs := map[string]cty.Value{}
		for range n {
			vs[g.str()] = g.val(t.ElementType(), depth)
		}
		return cty.MapVal(vs)
	case t.IsTupleType():
		var vs []cty.Value
		for _, et := range t.TupleElementTypes() {
			vs = append(vs, g.val(et, depth))
		}
		return cty.TupleVal(vs)
	}
	vs := map[string]cty.Value{}
	for name, at := range t.AttributeTypes() {
		vs[name] = g.val(at, depth)
	}
	return cty.ObjectVal(vs)
}

// checkMarshalAttrs fails when marshalAttrs and ctyjson.Marshal disagree
// on v as t: different bytes, or an error from only one of them.
func checkMarshalAttrs(t *testing.T, v cty.Value, ty cty.Type) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			// cty panics on some invalid constructions (a set of marked
			// values, say); the generator may draw them.
			t.Skipf("value construction panicked: %v", r)
		}
	}()
	want, wantErr := ctyjson.Marshal(v, ty)
	got, gotErr := marshalAttrs(v, ty)
	if (wantErr == nil) != (gotErr == nil) {
		t.Fatalf("%#v as %#v: error %v, ctyjson.Marshal's %v", v, ty, gotErr, wantErr)
	}
	if wantErr != nil {
		if gotErr.Error() != wantErr.Error() {
			t.Fatalf("%#v: error %q, ctyjson.Marshal's %q", v, gotErr, wantErr)
		}
		return
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%#v as %#v:\n got %s\nwant %s", v, ty, got, want)
	}
}

// TestMarshalAttrsMatchesCtyJSON compares marshalAttrs with
// ctyjson.Marshal on thousands of drawn values, encoded as their own type,
// as the type drawn for them and as dynamic.
func TestMarshalAttrsMatchesCtyJSON(t *testing.T) {
	fast := 0
	for seed := range uint64(3000) {
		g := valueGen{rand.New(rand.NewPCG(seed, 7))}
		ty := g.typ(3)
		var v cty.Value
		func() {
			defer func() {
				if recover() != nil {
					v = cty.NilVal
				}
			}()
			v = g.val(ty, 3)
		}()
		if v == cty.NilVal {
			continue
		}
		if v.Type().TestConformance(ty) == nil {
			if _, ok := appendAttrsJSON(nil, v, ty); ok {
				fast++
			}
		}
		t.Run("", func(t *testing.T) {
			checkMarshalAttrs(t, v, ty)
			checkMarshalAttrs(t, v, v.Type())
			checkMarshalAttrs(t, v, cty.DynamicPseudoType)
		})
	}
	if fast < 300 {
		t.Errorf("only %d of 3000 values took the fast path", fast)
	}
	// A value that does not conform to the type.
	checkMarshalAttrs(t, cty.ObjectVal(map[string]cty.Value{"a": cty.True}), cty.Object(map[string]cty.Type{"a": cty.List(cty.String)}))
}

// FuzzMarshalAttrs: the drawn value of any seed encodes as ctyjson.Marshal
// encodes it.
func FuzzMarshalAttrs(f *testing.F) {
	f.Add(uint64(1), uint8(2))
	f.Add(uint64(77), uint8(3))
	f.Fuzz(func(t *testing.T, seed uint64, depth uint8) {
		g := valueGen{rand.New(rand.NewPCG(seed, 11))}
		ty := g.typ(int(depth % 5))
		var v cty.Value
		func() {
			defer func() {
				if recover() != nil {
					v = cty.NilVal
				}
			}()
			v = g.val(ty, 0)
		}()
		if v == cty.NilVal {
			t.Skip()
		}
		checkMarshalAttrs(t, v, ty)
		checkMarshalAttrs(t, v, cty.DynamicPseudoType)
	})
}

// BenchmarkMarshalAttrs compares marshalAttrs with ctyjson.Marshal on a
// terraform_data object (dynamic attributes) and a larger nested object.
func BenchmarkMarshalAttrs(b *testing.B) {
	tfData := cty.ObjectVal(map[string]cty.Value{
		"id":               cty.StringVal("14ad625c-0318-99c3-9f5f-36870091d0cd"),
		"input":            cty.StringVal("value 1234"),
		"output":           cty.StringVal("value 1234"),
		"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
	})
	tfDataTy := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType})
	tags := cty.MapVal(map[string]cty.Value{"Name": cty.StringVal("web"), "Env": cty.StringVal("prod"), "Team": cty.StringVal("<infra>")})
	big := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("i-0123456789abcdef0"), "ami": cty.StringVal("ami-12345678"), "count": cty.NumberIntVal(3),
		"cpu": cty.NumberFloatVal(1.5), "ebs_optimized": cty.True, "tags": tags,
		"ports":  cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(443)}),
		"groups": cty.SetVal([]cty.Value{cty.StringVal("sg-1"), cty.StringVal("sg-2")}),
		"root_block_device": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
			"size": cty.NumberIntVal(20), "type": cty.StringVal("gp3"), "encrypted": cty.False})}),
	})
	for _, c := range []struct {
		name string
		v    cty.Value
		t    cty.Type
	}{{"terraform_data", tfData, tfDataTy}, {"nested", big, big.Type()}} {
		b.Run(c.name+"/ctyjson", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ctyjson.Marshal(c.v, c.t); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/marshalAttrs", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := marshalAttrs(c.v, c.t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestConformsMatchesTestConformance: configschema.Conforms, which
// marshalAttrs relies on to decline values go-cty would refuse, agrees
// with cty.Type.TestConformance on drawn pairs of types, and on each
// drawn type against itself with parts made dynamic.
func TestConformsMatchesTestConformance(t *testing.T) {
	disagree := 0
	check := func(given, want cty.Type) {
		if got, wantOK := configschema.Conforms(given, want), given.TestConformance(want) == nil; got != wantOK {
			disagree++
			if disagree < 10 {
				t.Errorf("Conforms(%#v, %#v) = %v, TestConformance says %v", given, want, got, wantOK)
			}
		}
	}
	for seed := range uint64(5000) {
		g := valueGen{rand.New(rand.NewPCG(seed, 3))}
		a, b := g.typ(3), g.typ(3)
		check(a, b)
		check(a, a)
		check(a, cty.DynamicPseudoType)
		check(cty.Object(map[string]cty.Type{"x": a, "y": cty.String}), cty.Object(map[string]cty.Type{"x": cty.DynamicPseudoType, "y": cty.String}))
		check(cty.Object(map[string]cty.Type{"x": a}), cty.Object(map[string]cty.Type{"x": b}))
		check(cty.List(a), cty.List(b))
		check(cty.Map(a), cty.Set(a))
		check(cty.Tuple([]cty.Type{a, b}), cty.Tuple([]cty.Type{a, cty.DynamicPseudoType}))
		check(cty.Tuple([]cty.Type{a}), cty.Tuple([]cty.Type{a, b}))
		check(cty.ObjectWithOptionalAttrs(map[string]cty.Type{"x": a}, []string{"x"}), cty.Object(map[string]cty.Type{"x": a}))
	}
}
