package genconfig

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/providers/configschema"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./configs/genconfig -update, then read the diff)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

func attr(ty cty.Type, flags string) *configschema.Attribute {
	a := &configschema.Attribute{Type: ty}
	for _, f := range flags {
		switch f {
		case 'r':
			a.Required = true
		case 'o':
			a.Optional = true
		case 'c':
			a.Computed = true
		case 's':
			a.Sensitive = true
		case 'd':
			a.Deprecated = true
		}
	}
	return a
}

func obj(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }

// TestResourceShapes: one golden file per schema shape; every output
// parses as HCL.
func TestResourceShapes(t *testing.T) {
	inner := map[string]*configschema.Attribute{"a": attr(cty.String, "o"), "c": attr(cty.String, "c"), "s": attr(cty.String, "os")}
	innerVal := func(a string) cty.Value {
		return obj(map[string]cty.Value{"a": cty.StringVal(a), "c": cty.StringVal("computed"), "s": cty.StringVal("hidden")})
	}
	innerTy := cty.Object(map[string]cty.Type{"a": cty.String, "c": cty.String, "s": cty.String})
	tests := []struct {
		name   string
		target Target
		schema *configschema.Block
		value  cty.Value
	}{
		{
			name:   "primitives",
			target: Target{Type: "test_thing", Name: "p"},
			schema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"id":           attr(cty.String, "oc"),
				"name":         attr(cty.String, "r"),
				"count_of":     attr(cty.Number, "o"),
				"enabled":      attr(cty.Bool, "o"),
				"arn":          attr(cty.String, "c"),
				"region":       attr(cty.String, "oc"),
				"zone":         attr(cty.String, "oc"),
				"empty":        attr(cty.String, "o"),
				"unset":        attr(cty.String, "o"),
				"old":          attr(cty.String, "od"),
				"escaped":      attr(cty.String, "o"),
				"multi_line":   attr(cty.String, "o"),
				"json_object":  attr(cty.String, "o"),
				"json_number":  attr(cty.String, "o"),
				"tags":         attr(cty.Map(cty.String), "o"),
				"ports":        attr(cty.List(cty.Number), "o"),
				"names":        attr(cty.Set(cty.String), "o"),
				"anything":     attr(cty.DynamicPseudoType, "o"),
				"computed_set": attr(cty.Set(cty.String), "c"),
			}},
			value: obj(map[string]cty.Value{
				"id": cty.StringVal("i-1"), "name": cty.StringVal("p"), "count_of": cty.NumberIntVal(3), "enabled": cty.True,
				"arn": cty.StringVal("arn:x"), "region": cty.StringVal("eu"), "zone": cty.NullVal(cty.String),
				"empty": cty.StringVal(""), "unset": cty.NullVal(cty.String), "old": cty.StringVal("gone"),
				"escaped":     cty.StringVal(`say "${hi}" and %{x}`),
				"multi_line":  cty.StringVal("one\ntwo\n"),
				"json_object": cty.StringVal(`{"b":[1,2],"a":"x"}`), "json_number": cty.StringVal("42"),
				"tags":         cty.MapVal(map[string]cty.Value{"Name": cty.StringVal("p"), "with space": cty.StringVal("v")}),
				"ports":        cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(443)}),
				"names":        cty.SetVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a")}),
				"anything":     cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("v")}),
				"computed_set": cty.SetVal([]cty.Value{cty.StringVal("x")}),
			}),
		},
		{
			name:   "sensitive",
			target: Target{Type: "test_secret", Name: "s"},
			schema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"name":     attr(cty.String, "r"),
				"password": attr(cty.String, "os"),
				"token":    attr(cty.String, "rs"),
				"single":   {Optional: true, Sensitive: true, NestedType: &configschema.Object{Nesting: configschema.NestingSingle, Attributes: inner}},
				"list":     {Optional: true, Sensitive: true, NestedType: &configschema.Object{Nesting: configschema.NestingList, Attributes: inner}},
			}},
			// Marks on the value do not matter: the schema decides.
			value: obj(map[string]cty.Value{"name": cty.StringVal("s").Mark(marks.Sensitive), "password": cty.StringVal("hunter2"), "token": cty.StringVal("t0k"),
				"single": innerVal("x"), "list": cty.ListVal([]cty.Value{innerVal("y")})}),
		},
		{
			name:   "nested_attributes",
			target: Target{Type: "test_nested", Name: "n"},
			schema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"single":    {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSingle, Attributes: inner}},
				"list":      {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingList, Attributes: inner}},
				"set":       {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSet, Attributes: inner}},
				"map":       {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingMap, Attributes: inner}},
				"null_one":  {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSingle, Attributes: inner}},
				"read_only": {Computed: true, NestedType: &configschema.Object{Nesting: configschema.NestingSingle, Attributes: inner}},
			}},
			value: obj(map[string]cty.Value{
				"single":    innerVal("one"),
				"list":      cty.ListVal([]cty.Value{innerVal("l0"), innerVal("l1")}),
				"set":       cty.SetVal([]cty.Value{innerVal("s0")}),
				"map":       cty.MapVal(map[string]cty.Value{"b": innerVal("mb"), "a key": innerVal("ma")}),
				"null_one":  cty.NullVal(innerTy),
				"read_only": innerVal("ro"),
			}),
		},
		{
			name:   "nested_blocks",
			target: Target{Type: "test_blocks", Name: "b", Provider: "test.west"},
			schema: &configschema.Block{
				Attributes: map[string]*configschema.Attribute{"name": attr(cty.String, "r")},
				BlockTypes: map[string]*configschema.NestedBlock{
					"single": {Nesting: configschema.NestingSingle, Block: configschema.Block{Attributes: inner}},
					"group":  {Nesting: configschema.NestingGroup, Block: configschema.Block{Attributes: inner}},
					"rule": {Nesting: configschema.NestingList, Block: configschema.Block{
						Attributes: inner,
						BlockTypes: map[string]*configschema.NestedBlock{"deep": {Nesting: configschema.NestingSet, Block: configschema.Block{Attributes: inner}}},
					}},
					"tag":     {Nesting: configschema.NestingSet, Block: configschema.Block{Attributes: inner}},
					"env":     {Nesting: configschema.NestingMap, Block: configschema.Block{Attributes: inner}},
					"absent":  {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: inner}},
					"retired": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: inner, Deprecated: true}},
				},
			},
			value: obj(map[string]cty.Value{
				"name":   cty.StringVal("b"),
				"single": innerVal("one"),
				"group":  innerVal("g"),
				"rule": cty.ListVal([]cty.Value{obj(map[string]cty.Value{"a": cty.StringVal("r0"), "c": cty.StringVal("x"), "s": cty.NullVal(cty.String),
					"deep": cty.SetVal([]cty.Value{innerVal("d")})})}),
				"tag":     cty.SetVal([]cty.Value{innerVal("t")}),
				"env":     cty.MapVal(map[string]cty.Value{"prod": innerVal("p")}),
				"absent":  cty.ListValEmpty(innerTy),
				"retired": cty.ListVal([]cty.Value{innerVal("old")}),
			}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := Resource(tt.target, tt.schema, tt.value)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if _, d := hclsyntax.ParseConfig([]byte(got), "gen.tf", hcl.InitialPos); d.HasErrors() {
				t.Fatalf("generated configuration does not parse: %s\n%s", d.Error(), got)
			}
			golden(t, tt.name, got+"\n")
		})
	}
}

// TestWriteFile: the header, then each block under its ID comment.
func TestWriteFile(t *testing.T) {
	var b bytes.Buffer
	err := WriteFile(&b, "plankit", []Generated{
		{ID: "i-1", Config: "resource \"a\" \"b\" {\n  x = 1\n}"},
		{ID: `quote"d`, Config: "resource \"a\" \"c\" {\n}"},
	})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "file", b.String())
}

// TestSensitiveValuesNeverWritten: a sensitive attribute's value appears
// nowhere in the output, at any depth.
func TestSensitiveValuesNeverWritten(t *testing.T) {
	schema := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{"pw": attr(cty.String, "os")},
		BlockTypes: map[string]*configschema.NestedBlock{"b": {Nesting: configschema.NestingList, Block: configschema.Block{
			Attributes: map[string]*configschema.Attribute{"key": attr(cty.String, "rs")}}}},
	}
	v := obj(map[string]cty.Value{"pw": cty.StringVal("TOPSECRET1"),
		"b": cty.ListVal([]cty.Value{obj(map[string]cty.Value{"key": cty.StringVal("TOPSECRET2")})})})
	got, _ := Resource(Target{Type: "t_x", Name: "x"}, schema, v)
	for _, s := range []string{"TOPSECRET1", "TOPSECRET2"} {
		if bytes.Contains([]byte(got), []byte(s)) {
			t.Errorf("generated configuration holds a sensitive value:\n%s", got)
		}
	}
}
