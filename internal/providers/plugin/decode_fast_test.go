package plugin

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"

	"github.com/plankit/plankit/internal/fastmsgpack"
)

// decodeValueCty is decodeValue's msgpack path as it was before
// fastmsgpack: go-cty's decoder alone, panics as errors, then the schema
// check.
func decodeValueCty(b []byte, ty cty.Type) (v cty.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = cty.NilVal, fmt.Errorf("malformed msgpack value: %v", r)
		}
	}()
	if v, err = ctymsgpack.Unmarshal(b, ty); err != nil {
		return cty.NilVal, err
	}
	if errs := v.Type().TestConformance(ty); len(errs) > 0 {
		return cty.NilVal, fmt.Errorf("value does not conform to the schema: %s", errs[0])
	}
	return v, nil
}

// providerResponses are msgpack values as providers send them back:
// planned and applied objects of terraform_data and of a framework
// provider, nested blocks, refinements, and the forms the fast decoder
// leaves to go-cty (floats, big numbers, other refinements), each with
// whether the fast decoder should answer for it.
func providerResponses() []struct {
	v    cty.Value
	ty   cty.Type
	fast bool
} {
	td := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType})
	thing := cty.Object(map[string]cty.Type{"id": cty.String, "name": cty.String, "value": cty.String, "count": cty.Number,
		"tags": cty.Map(cty.String), "rule": cty.List(cty.Object(map[string]cty.Type{"port": cty.Number, "cidrs": cty.Set(cty.String)}))})
	rule := func(port int64) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(port), "cidrs": cty.SetVal([]cty.Value{cty.StringVal("10.0.0.0/8")})})
	}
	return []struct {
		v    cty.Value
		ty   cty.Type
		fast bool
	}{
		{cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String).RefineNotNull(), "input": cty.StringVal("v0"), "output": cty.UnknownVal(cty.DynamicPseudoType), "triggers_replace": cty.NullVal(cty.DynamicPseudoType)}), td, true},
		{cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("7b1c"), "input": cty.StringVal("v0"), "output": cty.StringVal("v0"), "triggers_replace": cty.NullVal(cty.DynamicPseudoType)}), td, true},
		{cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x"), "name": cty.StringVal("a"), "value": cty.NullVal(cty.String), "count": cty.NumberIntVal(70000),
			"tags": cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod")}), "rule": cty.ListVal([]cty.Value{rule(22), rule(443)})}), thing, true},
		{cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "name": cty.StringVal("a"), "value": cty.StringVal("v"), "count": cty.NullVal(cty.Number),
			"tags": cty.MapValEmpty(cty.String), "rule": cty.ListValEmpty(rule(0).Type())}), thing, true},
		{cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x"), "name": cty.StringVal("a"), "value": cty.StringVal("v"), "count": cty.NumberFloatVal(2.5),
			"tags": cty.NullVal(cty.Map(cty.String)), "rule": cty.NullVal(cty.List(rule(0).Type()))}), thing, false},
		{cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String).Refine().StringPrefix("i-").NewValue(), "input": cty.NullVal(cty.DynamicPseudoType), "output": cty.NullVal(cty.DynamicPseudoType), "triggers_replace": cty.NullVal(cty.DynamicPseudoType)}), td, false},
		{cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x"), "input": cty.ListVal([]cty.Value{cty.StringVal("a")}), "output": cty.NullVal(cty.DynamicPseudoType), "triggers_replace": cty.NullVal(cty.DynamicPseudoType)}), td, false},
		{cty.NullVal(td), td, true},
		{cty.UnknownVal(td), td, true},
	}
}

// TestDecodeValueMatchesCty: provider responses decode to exactly the
// value (or error) go-cty's decoder gave them, the common ones by the
// fast decoder; so do an empty map where an object is due (the schema
// check's error) and cut or malformed bytes.
func TestDecodeValueMatchesCty(t *testing.T) {
	check := func(b []byte, ty cty.Type) {
		t.Helper()
		got, err := decodeValue(b, nil, ty)
		want, werr := decodeValueCty(b, ty)
		if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) || got.GoString() != want.GoString() {
			t.Errorf("% x: decoded %#v, %v; go-cty %#v, %v", b, got, err, want, werr)
		}
	}
	for _, tc := range providerResponses() {
		b, err := ctymsgpack.Marshal(tc.v, tc.ty)
		if err != nil {
			t.Fatal(err)
		}
		check(b, tc.ty)
		for n := 1; n < len(b); n++ { // from 1: no bytes at all is an absent value (null), not msgpack
			check(b[:n], tc.ty)
		}
		if _, ok := fastmsgpack.Decode(b, tc.ty); ok != tc.fast {
			t.Errorf("%#v: fast decoder answered %v, want %v", tc.v, ok, tc.fast)
		}
	}
	obj := cty.Object(map[string]cty.Type{"a": cty.String})
	check([]byte{0x80}, obj)
	check([]byte{0x81, 0xa1, 'b', 0xc0}, obj)
	check([]byte{0x92, 0xc4, 0x08, '"', 's', 't', 'r', 'i', 'n', 'g', '"', 0x01}, cty.DynamicPseudoType)
}

// BenchmarkDecodeValue is decodeValue of provider responses (planned
// terraform_data and framework objects), with the fast decoder and with
// go-cty's alone.
// Run: go test -run '^$' -bench DecodeValue -benchmem ./providers/plugin/
func BenchmarkDecodeValue(b *testing.B) {
	for i, tc := range providerResponses()[:3] {
		raw, err := ctymsgpack.Marshal(tc.v, tc.ty)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("value%d/fast", i), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeValue(raw, nil, tc.ty); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("value%d/cty", i), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeValueCty(raw, tc.ty); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
