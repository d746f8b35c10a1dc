package configschema

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// nestedSchema has nested attributes of every nesting mode.
func nestedSchema() *Block {
	inner := func() map[string]*Attribute {
		return map[string]*Attribute{
			"a": {Type: cty.String, Required: true},
			"s": {Type: cty.String, Optional: true, Sensitive: true},
			"c": {Type: cty.String, Computed: true},
		}
	}
	return &Block{Attributes: map[string]*Attribute{
		"name":   {Type: cty.String, Optional: true},
		"single": {Optional: true, NestedType: &Object{Nesting: NestingSingle, Attributes: inner()}},
		"list":   {Optional: true, NestedType: &Object{Nesting: NestingList, MaxItems: 2, Attributes: inner()}},
		"set":    {Optional: true, NestedType: &Object{Nesting: NestingSet, Attributes: inner()}},
		"map":    {Optional: true, NestedType: &Object{Nesting: NestingMap, Attributes: inner()}},
		"deep": {Optional: true, NestedType: &Object{Nesting: NestingSingle, Attributes: map[string]*Attribute{
			"l": {Optional: true, NestedType: &Object{Nesting: NestingList, Attributes: map[string]*Attribute{
				"pw": {Type: cty.String, Optional: true, Sensitive: true},
			}}},
		}}},
	}}
}

var innerTy = cty.Object(map[string]cty.Type{"a": cty.String, "s": cty.String, "c": cty.String})

func inner(a string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal(a), "s": cty.NullVal(cty.String), "c": cty.NullVal(cty.String)})
}

func TestNestedImpliedType(t *testing.T) {
	got := nestedSchema().ImpliedType()
	want := cty.Object(map[string]cty.Type{
		"name":   cty.String,
		"single": innerTy,
		"list":   cty.List(innerTy),
		"set":    cty.Set(innerTy),
		"map":    cty.Map(innerTy),
		"deep":   cty.Object(map[string]cty.Type{"l": cty.List(cty.Object(map[string]cty.Type{"pw": cty.String}))}),
	})
	if !got.Equals(want) {
		t.Errorf("implied type\n got %#v\nwant %#v", got, want)
	}
	if err := nestedSchema().InternalValidate(); err != nil {
		t.Errorf("InternalValidate: %v", err)
	}
}

func TestNestedDecode(t *testing.T) {
	s := nestedSchema()
	v, diags := s.Decode(parse(t, `
single = { a = "x" }
list   = [{ a = "l0", s = "hide" }]
set    = [{ a = "s0" }]
map    = { k = { a = "m" } }
deep   = { l = [{ pw = "p" }] }
`), nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if !v.Type().Equals(s.ImpliedType()) {
		t.Fatalf("decoded type %#v", v.Type())
	}
	if got := v.GetAttr("single"); !got.RawEquals(inner("x")) {
		t.Errorf("single = %#v", got)
	}
	if got := v.GetAttr("map").Index(cty.StringVal("k")); !got.RawEquals(inner("m")) {
		t.Errorf("map.k = %#v", got)
	}
	paths := s.SensitivePaths(v)
	var got []string
	for _, p := range paths {
		got = append(got, FormatPath(p))
	}
	want := []string{"deep.l[0].pw", "list[0].s", `map["k"].s`, "set[...].s", "single.s"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sensitive paths (-want +got):\n%s", diff)
	}
}

func TestNestedDecodeErrors(t *testing.T) {
	tests := map[string]string{
		`single = { s = "x" }`:                           `attribute "a" is required`,
		`single = { a = "x", c = "nope" }`:               `Can't configure a value for "single.c"`,
		`list = [{ a = "1" }, { a = "2" }, { a = "3" }]`: `at most 2 items; found 3`,
		`map = { k = { s = "x" } }`:                      `attribute "a" is required`,
		`set = "str"`:                                    `Incorrect attribute value type`,
	}
	for src, want := range tests {
		_, diags := nestedSchema().Decode(parse(t, src), nil)
		if !diags.HasErrors() || !strings.Contains(diags.Error(), want) {
			t.Errorf("%s: diagnostics %q, want %q", src, diags.Error(), want)
		}
	}
}

func TestNestedValidateValueAndPaths(t *testing.T) {
	s := nestedSchema()
	v := s.EmptyValue().AsValueMap()
	v["list"] = cty.ListVal([]cty.Value{inner("x"), cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String), "s": cty.NullVal(cty.String), "c": cty.NullVal(cty.String)})})
	diags := s.ValidateValue(cty.ObjectVal(v))
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, `"list[1].a" is required`) {
		t.Errorf("diagnostics %v", diags)
	}
	if a := s.AttributeByPath(cty.GetAttrPath("list").IndexInt(0).GetAttr("s")); a == nil || !a.Sensitive {
		t.Errorf("AttributeByPath(list[0].s) = %+v", a)
	}
	if a := s.AttributeByPath(cty.GetAttrPath("deep").GetAttr("l").IndexInt(3).GetAttr("pw")); a == nil || !a.Sensitive {
		t.Errorf("AttributeByPath(deep.l[3].pw) = %+v", a)
	}
	if a := s.AttributeByPath(cty.GetAttrPath("single").GetAttr("nope")); a != nil {
		t.Errorf("AttributeByPath(single.nope) = %+v", a)
	}
	bad := &Block{Attributes: map[string]*Attribute{"x": {Optional: true, NestedType: &Object{Nesting: NestingGroup}}}}
	if err := bad.InternalValidate(); err == nil || !strings.Contains(err.Error(), "invalid nested attribute nesting mode") {
		t.Errorf("InternalValidate = %v", err)
	}
}
