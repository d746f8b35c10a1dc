package jsonplan

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestMarshalValueKnownCollections: wholly known values (returned as they
// are by omitUnknowns) marshal to the same JSON as the rebuilt ones did:
// lists, sets and maps as JSON arrays and objects, nulls kept.
func TestMarshalValueKnownCollections(t *testing.T) {
	for _, c := range []struct {
		v    cty.Value
		want string
	}{
		{cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("v"), "n": cty.NullVal(cty.String)}), `{"input":"v","n":null}`},
		{cty.ListVal([]cty.Value{cty.StringVal("a"), cty.NullVal(cty.String)}), `["a",null]`},
		{cty.SetVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a")}), `["a","b"]`},
		{cty.MapVal(map[string]cty.Value{"k": cty.NumberIntVal(1)}), `{"k":1}`},
		{cty.ListValEmpty(cty.String), `[]`},
		{cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "l": cty.ListVal([]cty.Value{cty.UnknownVal(cty.String)})}), `{"l":[null]}`},
	} {
		got, err := marshalValue(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("marshalValue(%#v) = %s, want %s", c.v, got, c.want)
		}
	}
}

// BenchmarkMarshalValue encodes a terraform_data-like planned value (two
// unknowns) and a wholly known one, as show -json does per resource.
// Run: go test -run '^$' -bench MarshalValue -benchmem ./jsonplan/
func BenchmarkMarshalValue(b *testing.B) {
	tags := cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1"), "b": cty.StringVal("2"), "c": cty.StringVal("3")})
	for name, v := range map[string]cty.Value{
		"planned": cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "input": cty.StringVal("v1"),
			"output": cty.UnknownVal(cty.String), "tags": tags, "triggers_replace": cty.NullVal(cty.DynamicPseudoType)}),
		"known": cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("i-1"), "input": cty.StringVal("v1"),
			"output": cty.StringVal("v1"), "tags": tags, "triggers_replace": cty.NullVal(cty.DynamicPseudoType)}),
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := marshalValue(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
