package plans

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/msgpack"
)

// BenchmarkDecodeValue is one planned terraform_data object read from a
// plan: by decodeValue (the fast path) and by go-cty's msgpack.Unmarshal.
// Run: go test -run '^$' -bench DecodeValue -benchmem ./plans/
func BenchmarkDecodeValue(b *testing.B) {
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType})
	v := cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String).RefineNotNull(), "input": cty.StringVal("v0"), "output": cty.UnknownVal(cty.DynamicPseudoType), "triggers_replace": cty.NullVal(cty.DynamicPseudoType)})
	raw, err := msgpack.Marshal(v, ty)
	if err != nil {
		b.Fatal(err)
	}
	types := decodedTypes{ty}
	b.Run("decodeValue", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := types.decodeValue(raw, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cty", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := msgpack.Unmarshal(raw, ty); err != nil {
				b.Fatal(err)
			}
		}
	})
}
