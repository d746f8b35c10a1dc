package configschema

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestValidateValueOfNoChecksNoAlloc checks that validating a value of a
// schema without required, nested or block parts (terraform_data's shape)
// does not allocate, while a null required attribute is still reported.
func TestValidateValueOfNoChecksNoAlloc(t *testing.T) {
	b := &Block{Attributes: map[string]*Attribute{
		"input":  {Type: cty.String, Optional: true},
		"id":     {Type: cty.String, Computed: true},
		"output": {Type: cty.String, Computed: true},
	}}
	want := b.ImpliedType()
	v := cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("v"), "id": cty.UnknownVal(cty.String), "output": cty.NullVal(cty.String)})
	if n := testing.AllocsPerRun(100, func() {
		if diags := b.ValidateValueOf(v, want); len(diags) > 0 {
			t.Fatal(diags.Error())
		}
	}); n != 0 {
		t.Errorf("ValidateValueOf allocated %v times, want 0", n)
	}
	b.Attributes["input"].Required, b.Attributes["input"].Optional = true, false
	diags := b.ValidateValueOf(cty.ObjectVal(map[string]cty.Value{"input": cty.NullVal(cty.String), "id": cty.UnknownVal(cty.String), "output": cty.NullVal(cty.String)}), want)
	if len(diags) != 1 || diags[0].Summary != "Missing required argument" {
		t.Errorf("diagnostics %v, want one Missing required argument", diags)
	}
}

// TestConformsMatchesTestConformance checks Conforms against cty's
// TestConformance on conforming and non-conforming type pairs, and that
// a conforming object with a dynamic attribute is checked without
// allocating.
func TestConformsMatchesTestConformance(t *testing.T) {
	obj := func(m map[string]cty.Type) cty.Type { return cty.Object(m) }
	tests := []struct {
		name        string
		given, want cty.Type
	}{
		{"equal", cty.String, cty.String},
		{"dynamic wanted", cty.List(cty.Bool), cty.DynamicPseudoType},
		{"dynamic given", cty.DynamicPseudoType, cty.String},
		{"primitive mismatch", cty.Number, cty.String},
		{"object dynamic attr", obj(map[string]cty.Type{"a": cty.String, "b": cty.Number}), obj(map[string]cty.Type{"a": cty.DynamicPseudoType, "b": cty.Number})},
		{"object missing attr", obj(map[string]cty.Type{"a": cty.String}), obj(map[string]cty.Type{"a": cty.String, "b": cty.Number})},
		{"object extra attr", obj(map[string]cty.Type{"a": cty.String, "c": cty.Bool}), obj(map[string]cty.Type{"a": cty.String})},
		{"object renamed attr", obj(map[string]cty.Type{"a": cty.String, "c": cty.Bool}), obj(map[string]cty.Type{"a": cty.String, "b": cty.Bool})},
		{"object wrong attr type", obj(map[string]cty.Type{"a": cty.String}), obj(map[string]cty.Type{"a": cty.Bool})},
		{"list of dynamic", cty.List(obj(map[string]cty.Type{"x": cty.String})), cty.List(obj(map[string]cty.Type{"x": cty.DynamicPseudoType}))},
		{"list wrong elem", cty.List(cty.String), cty.List(cty.Number)},
		{"set vs list", cty.Set(cty.String), cty.List(cty.String)},
		{"map of dynamic", cty.Map(cty.String), cty.Map(cty.DynamicPseudoType)},
		{"set of dynamic", cty.Set(cty.Number), cty.Set(cty.DynamicPseudoType)},
		{"tuple", cty.Tuple([]cty.Type{cty.String, cty.Number}), cty.Tuple([]cty.Type{cty.DynamicPseudoType, cty.Number})},
		{"tuple length", cty.Tuple([]cty.Type{cty.String}), cty.Tuple([]cty.Type{cty.String, cty.Number})},
		{"tuple wrong elem", cty.Tuple([]cty.Type{cty.String}), cty.Tuple([]cty.Type{cty.Bool})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := len(tt.given.TestConformance(tt.want)) == 0
			if got := Conforms(tt.given, tt.want); got != want {
				t.Errorf("Conforms = %v, TestConformance says %v", got, want)
			}
			if got := len(ConformanceErrors(tt.given, tt.want)) == 0; got != want {
				t.Errorf("ConformanceErrors empty = %v, want %v", got, want)
			}
		})
	}
	given, want := tests[4].given, tests[4].want
	if n := testing.AllocsPerRun(100, func() { ConformanceErrors(given, want) }); n != 0 {
		t.Errorf("ConformanceErrors of conforming types allocated %v times, want 0", n)
	}
}

// BenchmarkValidateValueOf validates n planned terraform_data objects
// (dynamic input and output, as a provider returns them) with the
// shortcuts and without them.
// Run: go test -run '^$' -bench ValidateValueOf -benchmem ./providers/configschema/
func BenchmarkValidateValueOf(b *testing.B) {
	s := &Block{Attributes: map[string]*Attribute{
		"id":               {Type: cty.String, Computed: true},
		"input":            {Type: cty.DynamicPseudoType, Optional: true},
		"output":           {Type: cty.DynamicPseudoType, Computed: true},
		"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
	}}
	want := s.ImpliedType()
	for _, n := range []int{10_000, 100_000} {
		vals := make([]cty.Value, n)
		for i := range vals {
			vals[i] = cty.ObjectVal(map[string]cty.Value{
				"id": cty.UnknownVal(cty.String), "input": cty.StringVal(fmt.Sprint("v", i)),
				"output": cty.UnknownVal(cty.String), "triggers_replace": cty.NullVal(cty.DynamicPseudoType),
			})
		}
		for _, fast := range []bool{true, false} {
			b.Run(fmt.Sprintf("%d/%s", n, map[bool]string{true: "fast", false: "general"}[fast]), func(b *testing.B) {
				defer func(saved bool) { validateFast = saved }(validateFast)
				validateFast = fast
				b.ReportAllocs()
				for b.Loop() {
					for _, v := range vals {
						if diags := s.ValidateValueOf(v, want); len(diags) > 0 {
							b.Fatal(diags)
						}
					}
				}
			})
		}
	}
}
