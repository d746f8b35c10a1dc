package fastmsgpack

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/msgpack"
)

// TestMsgpackBoundsAcceptsRealValues checks that values go-cty encodes
// pass the bounds check (no false alarms): every kind of type, unknowns
// with refinements, long strings and big collections (16- and 32-bit
// headers).
func TestMsgpackBoundsAcceptsRealValues(t *testing.T) {
	many := make([]cty.Value, 70000)
	manyMap := map[string]cty.Value{}
	for i := range many {
		many[i] = cty.NumberIntVal(int64(i))
		if i < 300 {
			manyMap[fmt.Sprint(i)] = cty.True
		}
	}
	vals := []cty.Value{
		cty.NumberFloatVal(1e300), cty.NumberIntVal(-1 << 62), cty.NumberIntVal(200), cty.NumberIntVal(-100),
		cty.StringVal(string(make([]byte, 70000))), cty.StringVal("short"), cty.StringVal(string(make([]byte, 300))),
		cty.UnknownVal(cty.String).Refine().StringPrefix("abc").NewValue(), cty.DynamicVal,
		cty.ListVal(many), cty.MapVal(manyMap), cty.NullVal(cty.List(cty.String)),
		cty.ObjectVal(map[string]cty.Value{
			"set":  cty.SetVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}),
			"tup":  cty.TupleVal([]cty.Value{cty.True, cty.UnknownVal(cty.DynamicPseudoType)}),
			"list": cty.UnknownVal(cty.List(cty.Number)).Refine().NotNull().CollectionLengthLowerBound(2).NewValue(),
		}),
	}
	for i, v := range vals {
		ty := v.Type()
		if i == 12 {
			ty = cty.DynamicPseudoType // the dynamic wrapping: type JSON inside
		}
		b, err := msgpack.Marshal(v, ty)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckBounds(b); err != nil {
			t.Errorf("value %d: %v", i, err)
		}
	}
}

func TestMsgpackBoundsRefusesHugeCounts(t *testing.T) {
	tests := map[string][]byte{
		"array32 of 4G":  {0xdd, 0xff, 0xff, 0xff, 0xff, 0xc0},
		"map32 of 4G":    {0xdf, 0xff, 0xff, 0xff, 0xff, 0xc0, 0xc0},
		"str32 of 4GB":   {0xdb, 0xff, 0xff, 0xff, 0xff, 'a'},
		"ext32 of 4GB":   {0xc9, 0xff, 0xff, 0xff, 0xff, 0x00},
		"nested":         {0x91, 0xdc, 0xff, 0xff},
		"empty":          {},
		"cut header":     {0xcd, 0x01},
		"never used c1":  {0xc1},
		"fixarray short": {0x93, 0x01, 0x02},
	}
	for name, b := range tests {
		t.Run(name, func(t *testing.T) {
			if err := CheckBounds(b); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}
