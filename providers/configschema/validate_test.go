package configschema

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/tfdiags"
)

func TestValidateValue(t *testing.T) {
	s := testSchema()
	good := s.EmptyValue()
	m := good.AsValueMap()
	m["name"] = cty.StringVal("x")
	good = cty.ObjectVal(m)

	with := func(k string, v cty.Value) cty.Value {
		m := good.AsValueMap()
		m[k] = v
		return cty.ObjectVal(m)
	}
	ruleTy := s.BlockTypes["rule"].Block.ImpliedType()
	rule := func(port cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"port": port, "secret": cty.NullVal(cty.String)})
	}
	tests := []struct {
		name     string
		val      cty.Value
		wantErr  string
		wantPath string
	}{
		{"good", good, "", ""},
		{"unknown required ok", with("name", cty.UnknownVal(cty.String)), "", ""},
		{"null value ok", cty.NullVal(s.ImpliedType()), "", ""},
		{"missing required", with("name", cty.NullVal(cty.String)), "Missing required argument", "name"},
		{"nested missing", with("rule", cty.ListVal([]cty.Value{rule(cty.NullVal(cty.Number))})), "Missing required argument", "rule[0].port"},
		{"too many", with("rule", cty.ListVal([]cty.Value{rule(cty.NumberIntVal(1)), rule(cty.NumberIntVal(2)), rule(cty.NumberIntVal(3))})), "Too many rule blocks", "rule"},
		{"wrong type", with("size", cty.StringVal("x")), "does not conform", "size"},
		{"missing attribute", cty.EmptyObjectVal, "does not conform", ""},
		{"empty list fine", with("rule", cty.ListValEmpty(ruleTy)), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diags := s.ValidateValue(tt.val)
			if tt.wantErr == "" {
				if diags.HasErrors() {
					t.Fatal(diags.Error())
				}
				return
			}
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			if !strings.Contains(diags[0].Summary, tt.wantErr) {
				t.Fatalf("summary %q lacks %q", diags[0].Summary, tt.wantErr)
			}
			if got := FormatPath(tfdiags.AttributePath(diags[0])); got != tt.wantPath {
				t.Fatalf("path %q, want %q", got, tt.wantPath)
			}
		})
	}
}

func TestInternalValidate(t *testing.T) {
	if err := testSchema().InternalValidate(); err != nil {
		t.Fatal(err)
	}
	bad := []*Block{
		{Attributes: map[string]*Attribute{"a": {Type: cty.String}}},
		{Attributes: map[string]*Attribute{"a": {Type: cty.String, Required: true, Computed: true}}},
		{Attributes: map[string]*Attribute{"A": {Type: cty.String, Optional: true}}},
		{Attributes: map[string]*Attribute{"a": {Optional: true}}},
		{BlockTypes: map[string]*NestedBlock{"b": {}}},
		{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingList, MinItems: 3, MaxItems: 1}}},
		{Attributes: map[string]*Attribute{"b": {Type: cty.String, Optional: true}}, BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingSingle}}},
	}
	for i, b := range bad {
		if b.InternalValidate() == nil {
			t.Errorf("case %d: invalid schema accepted", i)
		}
	}
}
