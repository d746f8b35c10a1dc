package plugin

import (
	"bytes"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"

	"github.com/plankit/plankit/internal/lang/marks"
)

// TestEncodeValue: the encoder's shortcuts (nulls of a static type,
// values unmarked only when marked) give exactly cty's encoding of the
// unmarked value, which decodes back to it.
func TestEncodeValue(t *testing.T) {
	obj := cty.Object(map[string]cty.Type{"s": cty.String, "d": cty.DynamicPseudoType})
	for _, tc := range []struct {
		name string
		v    cty.Value
		ty   cty.Type
	}{
		{"null object", cty.NullVal(obj), obj},
		{"null string", cty.NullVal(cty.String), cty.String},
		{"null of a dynamic type keeps its type", cty.NullVal(cty.String), cty.DynamicPseudoType},
		{"dynamic null", cty.NullVal(cty.DynamicPseudoType), cty.DynamicPseudoType},
		{"marked null", cty.NullVal(obj).Mark(marks.Sensitive), obj},
		{"object", cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("a"), "d": cty.NumberIntVal(2)}), obj},
		{"nested mark", cty.ObjectVal(map[string]cty.Value{"s": cty.StringVal("a").Mark(marks.Sensitive), "d": cty.NullVal(cty.List(cty.String))}), obj},
		{"marked unknown", cty.UnknownVal(cty.String).Refine().NotNull().NewValue().Mark(marks.Sensitive), cty.String},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := encodeValue(tc.v, tc.ty)
			if err != nil {
				t.Fatal(err)
			}
			u, _ := tc.v.UnmarkDeep()
			want, err := ctymsgpack.Marshal(u, tc.ty)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("encoded %x, want %x", got, want)
			}
			back, err := decodeValue(got, nil, tc.ty)
			if err != nil {
				t.Fatal(err)
			}
			if !back.RawEquals(u) {
				t.Errorf("decoded %#v, want %#v", back, u)
			}
		})
	}
	if got, err := encodeValue(cty.NilVal, cty.String); err != nil || !bytes.Equal(got, []byte{0xc0}) {
		t.Errorf("NilVal encoded %x, %v; want msgpack nil", got, err)
	}
}
