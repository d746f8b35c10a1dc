package plugin

import (
	"bytes"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
	"google.golang.org/protobuf/proto"

	"github.com/plankit/plankit/internal/providers/plugin/internal/tfplugin5"
	"github.com/plankit/plankit/internal/providers/plugin/internal/tfplugin6"
)

// FuzzDecodeValue feeds arbitrary bytes to the value decoder as a provider
// could send them: errors are fine, panics are not, and what decodes must
// encode again, to the very bytes cty's own encoder writes.
func FuzzDecodeValue(f *testing.F) {
	ty := cty.Object(map[string]cty.Type{"s": cty.String, "l": cty.List(cty.Number), "d": cty.DynamicPseudoType})
	for _, v := range []cty.Value{
		cty.NullVal(ty),
		cty.UnknownVal(ty),
		cty.ObjectVal(map[string]cty.Value{
			"s": cty.UnknownVal(cty.String).Refine().StringPrefix("x").NewValue(),
			"l": cty.ListVal([]cty.Value{cty.NumberIntVal(1)}),
			"d": cty.TupleVal([]cty.Value{cty.True, cty.StringVal("a")}),
		}),
	} {
		b, err := encodeValue(v, ty)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
	}
	f.Add([]byte(`{"s":"a","l":[1],"d":{"value":1,"type":"number"}}`), true)
	f.Fuzz(func(t *testing.T, b []byte, asJSON bool) {
		var v cty.Value
		var err error
		if asJSON {
			v, err = decodeValue(nil, b, ty)
		} else {
			v, err = decodeValue(b, nil, ty)
		}
		if err != nil {
			return
		}
		got, err := encodeValue(v, ty)
		if err != nil {
			t.Errorf("decoded %#v does not encode: %v", v, err)
		}
		if want, err := ctymsgpack.Marshal(v, ty); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%#v encodes as %x, cty's encoder writes %x (%v)", v, got, want, err)
		}
	})
}

// FuzzSchemaResponse feeds arbitrary schema responses (protocol 5 and 6)
// to the translation: invalid schemas are errors, never panics.
func FuzzSchemaResponse(f *testing.F) {
	seed6, _ := proto.Marshal(&tfplugin6.GetProviderSchema_Response{
		ResourceSchemas: map[string]*tfplugin6.Schema{"t": {Version: 1, Block: &tfplugin6.Schema_Block{
			Attributes: []*tfplugin6.Schema_Attribute{
				{Name: "a", Type: []byte(`"string"`), Optional: true},
				{Name: "n", Optional: true, NestedType: &tfplugin6.Schema_Object{Nesting: tfplugin6.Schema_Object_LIST, Attributes: []*tfplugin6.Schema_Attribute{
					{Name: "x", Type: []byte(`["list","number"]`), Required: true},
				}}},
			},
			BlockTypes: []*tfplugin6.Schema_NestedBlock{{TypeName: "b", Nesting: tfplugin6.Schema_NestedBlock_SET, Block: &tfplugin6.Schema_Block{}}},
		}}},
		Functions: map[string]*tfplugin6.Function{"f": {Parameters: []*tfplugin6.Function_Parameter{{Name: "p", Type: []byte(`"dynamic"`)}}, Return: &tfplugin6.Function_Return{Type: []byte(`"bool"`)}}},
	})
	seed5, _ := proto.Marshal(&tfplugin5.GetProviderSchema_Response{
		Provider: &tfplugin5.Schema{Block: &tfplugin5.Schema_Block{Attributes: []*tfplugin5.Schema_Attribute{{Name: "r", Type: []byte(`["map","string"]`), Required: true}}}},
	})
	f.Add(seed6)
	f.Add(seed5)
	f.Fuzz(func(t *testing.T, b []byte) {
		var r6 tfplugin6.GetProviderSchema_Response
		if proto.Unmarshal(b, &r6) == nil {
			resp := schemaResponse6(&r6, "test")
			for _, s := range resp.ResourceTypes {
				s.Block.ImpliedType()
			}
		}
		var r5 tfplugin5.GetProviderSchema_Response
		if proto.Unmarshal(b, &r5) == nil {
			resp := schemaResponse5(&r5, "test")
			resp.Provider.Block.ImpliedType()
		}
	})
}
