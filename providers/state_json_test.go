package providers

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/configschema"
)

func stateSchema() *configschema.Block {
	return &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"id":    {Type: cty.String, Computed: true},
			"input": {Type: cty.DynamicPseudoType, Optional: true},
			"tags":  {Type: cty.Map(cty.String), Optional: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"rule": {Nesting: configschema.NestingList, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"port": {Type: cty.Number, Optional: true},
			}}},
		},
	}
}

func TestDecodeStateJSON(t *testing.T) {
	s := stateSchema()
	ruleTy := s.BlockTypes["rule"].Block.ImpliedType()
	tests := []struct {
		name    string
		raw     string
		want    cty.Value
		wantErr string
	}{
		{"full", `{"id":"a","input":{"value":"x","type":"string"},"tags":{"k":"v"},"rule":[{"port":80,"old":1}]}`,
			cty.ObjectVal(map[string]cty.Value{
				"id": cty.StringVal("a"), "input": cty.StringVal("x"),
				"tags": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
				"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80)})}),
			}), ""},
		{"missing and removed attributes", `{"id":"a","gone":true}`,
			cty.ObjectVal(map[string]cty.Value{
				"id": cty.StringVal("a"), "input": cty.NullVal(cty.DynamicPseudoType),
				"tags": cty.NullVal(cty.Map(cty.String)), "rule": cty.ListValEmpty(ruleTy),
			}), ""},
		{"not an object", `[1]`, cty.NilVal, "decoding stored attributes"},
		{"null", `null`, cty.NilVal, "got null"},
		{"wrong type", `{"id":5}`, cty.StringVal("5"), ""},
		{"bad type", `{"tags":"x"}`, cty.NilVal, "decoding stored attributes: tags: "},
		{"bad nested type", `{"rule":[{"port":"eighty"}]}`, cty.NilVal, "decoding stored attributes: rule[0].port: "},
		{"trailing", `{} {}`, cty.NilVal, "trailing"},
		{"empty", ``, cty.NilVal, "EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeStateJSON(s, []byte(tt.raw))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.name == "wrong type" {
				if !got.GetAttr("id").RawEquals(tt.want) {
					t.Fatalf("id = %#v", got.GetAttr("id"))
				}
				return
			}
			if !got.RawEquals(tt.want) {
				t.Fatalf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func FuzzDecodeStateJSON(f *testing.F) {
	for _, seed := range []string{
		`{"id":"a","input":{"value":"x","type":"string"},"tags":{"k":"v"},"rule":[{"port":80}]}`,
		`{"rule":null}`, `{"rule":[null]}`, `{}`, `null`, `[]`, `{"input":{"value":[1,"a"],"type":["tuple",["number","string"]]}}`,
		`{"id":null,"rule":{"a":1}}`,
	} {
		f.Add([]byte(seed))
	}
	s := stateSchema()
	want := s.ImpliedType()
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := DecodeStateJSON(s, raw)
		if err != nil {
			return
		}
		if !v.Type().Equals(want) && v.Type().TestConformance(want) != nil {
			t.Fatalf("decoded type %#v does not conform", v.Type())
		}
		if v.IsNull() || !v.IsWhollyKnown() {
			t.Fatalf("decoded value not a known object: %#v", v)
		}
	})
}
