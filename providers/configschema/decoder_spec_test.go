package configschema

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// testSchema exercises every attribute flavour and nesting mode.
func testSchema() *Block {
	return &Block{
		Attributes: map[string]*Attribute{
			"name":     {Type: cty.String, Required: true},
			"size":     {Type: cty.Number, Optional: true},
			"id":       {Type: cty.String, Computed: true},
			"tags":     {Type: cty.Map(cty.String), Optional: true, Computed: true},
			"password": {Type: cty.String, Optional: true, Sensitive: true},
		},
		BlockTypes: map[string]*NestedBlock{
			"single": {Nesting: NestingSingle, Block: Block{Attributes: map[string]*Attribute{
				"a": {Type: cty.String, Optional: true},
			}}},
			"group": {Nesting: NestingGroup, Block: Block{Attributes: map[string]*Attribute{
				"g": {Type: cty.String, Optional: true},
			}}},
			"rule": {Nesting: NestingList, MaxItems: 2, Block: Block{Attributes: map[string]*Attribute{
				"port":   {Type: cty.Number, Required: true},
				"secret": {Type: cty.String, Optional: true, Sensitive: true},
			}}},
			"member": {Nesting: NestingSet, Block: Block{Attributes: map[string]*Attribute{
				"who": {Type: cty.String, Required: true},
			}}},
			"env": {Nesting: NestingMap, Block: Block{Attributes: map[string]*Attribute{
				"v": {Type: cty.String, Optional: true},
			}}},
		},
	}
}

func parse(t *testing.T, src string) hcl.Body {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse: %s", diags.Error())
	}
	return f.Body
}

func TestDecoderSpec(t *testing.T) {
	s := testSchema()
	ruleTy := s.BlockTypes["rule"].Block.ImpliedType()
	memberTy := s.BlockTypes["member"].Block.ImpliedType()
	envTy := s.BlockTypes["env"].Block.ImpliedType()
	base := func(over map[string]cty.Value) cty.Value {
		m := map[string]cty.Value{
			"name":     cty.StringVal("x"),
			"size":     cty.NullVal(cty.Number),
			"id":       cty.NullVal(cty.String),
			"tags":     cty.NullVal(cty.Map(cty.String)),
			"password": cty.NullVal(cty.String),
			"single":   cty.NullVal(s.BlockTypes["single"].Block.ImpliedType()),
			"group":    cty.ObjectVal(map[string]cty.Value{"g": cty.NullVal(cty.String)}),
			"rule":     cty.ListValEmpty(ruleTy),
			"member":   cty.SetValEmpty(memberTy),
			"env":      cty.MapValEmpty(envTy),
		}
		for k, v := range over {
			m[k] = v
		}
		return cty.ObjectVal(m)
	}
	tests := []struct {
		name    string
		src     string
		want    cty.Value
		wantErr string // substring of the first error summary+detail; "" = no error
	}{
		{"minimal", `name = "x"`, base(nil), ""},
		{"all", `
name = "x"
size = 3
tags = { a = "b" }
single { a = "s" }
group { g = "gg" }
rule { port = 80 }
rule {
  port = 443
  secret = "k"
}
member { who = "me" }
env "prod" { v = "1" }
`, base(map[string]cty.Value{
			"size":   cty.NumberIntVal(3),
			"tags":   cty.MapVal(map[string]cty.Value{"a": cty.StringVal("b")}),
			"single": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("s")}),
			"group":  cty.ObjectVal(map[string]cty.Value{"g": cty.StringVal("gg")}),
			"rule": cty.ListVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80), "secret": cty.NullVal(cty.String)}),
				cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(443), "secret": cty.StringVal("k")}),
			}),
			"member": cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"who": cty.StringVal("me")})}),
			"env":    cty.MapVal(map[string]cty.Value{"prod": cty.ObjectVal(map[string]cty.Value{"v": cty.StringVal("1")})}),
		}), ""},
		{"unknown argument", "name = \"x\"\nbogus = 1", cty.NilVal, "Unsupported argument"},
		{"unknown block", "name = \"x\"\nbogus {}", cty.NilVal, "Unsupported block type"},
		{"missing required", `size = 1`, cty.NilVal, "Missing required argument"},
		{"computed only", "name = \"x\"\nid = \"nope\"", cty.NilVal, `unconfigurable attribute: Can't configure a value for "id"`},
		{"wrong type", "name = \"x\"\nsize = \"big\"", cty.NilVal, "Incorrect attribute value type"},
		{"too many blocks", "name = \"x\"\nrule { port = 1 }\nrule { port = 2 }\nrule { port = 3 }", cty.NilVal, "Too many rule blocks"},
		{"duplicate single", "name = \"x\"\nsingle {}\nsingle {}", cty.NilVal, "Duplicate single block"},
		{"missing nested required", "name = \"x\"\nmember {}", cty.NilVal, "Missing required argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := s.Decode(parse(t, tt.src), nil)
			if tt.wantErr != "" {
				if !diags.HasErrors() {
					t.Fatalf("no error; got %#v", got)
				}
				msg := diags[0].Summary + ": " + diags[0].Detail
				if !strings.Contains(msg, tt.wantErr) {
					t.Fatalf("error %q does not contain %q", msg, tt.wantErr)
				}
				if diags[0].Subject == nil || diags[0].Subject.Filename != "test.tf" {
					t.Fatalf("error has no source range: %#v", diags[0].Subject)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatalf("unexpected errors: %s", diags.Error())
			}
			if !got.RawEquals(tt.want) {
				t.Fatalf("got  %#v\nwant %#v", got, tt.want)
			}
			if !got.Type().Equals(s.ImpliedType()) {
				t.Fatalf("decoded type %#v is not the implied type", got.Type())
			}
		})
	}
}

func TestDecoderSpecDynamic(t *testing.T) {
	s := &Block{BlockTypes: map[string]*NestedBlock{
		"l": {Nesting: NestingList, Block: Block{Attributes: map[string]*Attribute{"v": {Type: cty.DynamicPseudoType, Optional: true}}}},
		"m": {Nesting: NestingMap, Block: Block{Attributes: map[string]*Attribute{"v": {Type: cty.DynamicPseudoType, Optional: true}}}},
	}}
	got, diags := s.Decode(parse(t, "l { v = 1 }\nl { v = \"s\" }\nm \"k\" { v = true }"), nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	want := cty.ObjectVal(map[string]cty.Value{
		"l": cty.TupleVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"v": cty.NumberIntVal(1)}),
			cty.ObjectVal(map[string]cty.Value{"v": cty.StringVal("s")}),
		}),
		"m": cty.ObjectVal(map[string]cty.Value{"k": cty.ObjectVal(map[string]cty.Value{"v": cty.True})}),
	})
	if !got.RawEquals(want) {
		t.Fatalf("got %#v", got)
	}
	if diff := cmp.Diff(cty.DynamicPseudoType, s.BlockTypes["l"].ImpliedType(), cmp.Comparer(cty.Type.Equals)); diff != "" {
		t.Fatal(diff)
	}
}

func TestEmptyValueMatchesEmptyBody(t *testing.T) {
	s := testSchema()
	delete(s.Attributes, "name") // so an empty body is valid
	got, diags := s.Decode(parse(t, ""), nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if !got.RawEquals(s.EmptyValue()) {
		t.Fatalf("empty body %#v != EmptyValue %#v", got, s.EmptyValue())
	}
	var nilBlock *Block
	if !nilBlock.EmptyValue().RawEquals(cty.EmptyObjectVal) || !nilBlock.ImpliedType().Equals(cty.EmptyObject) {
		t.Fatal("nil block is not the empty object")
	}
}
