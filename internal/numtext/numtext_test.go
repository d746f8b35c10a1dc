package numtext

import (
	"math/big"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestNumberText: String and Append write what Text('f', -1) and
// Append(dst, 'f', -1) write, whole numbers written the fast way included.
func TestNumberText(t *testing.T) {
	negZero := new(big.Float).Neg(new(big.Float))
	for _, v := range []cty.Value{
		cty.Zero, cty.NumberIntVal(1), cty.NumberIntVal(-1), cty.NumberIntVal(42),
		cty.NumberIntVal(1 << 62), cty.NumberIntVal(-1 << 63), cty.NumberIntVal(1<<63 - 1),
		cty.MustParseNumberVal("9223372036854775808"), cty.MustParseNumberVal("-9223372036854775809"),
		cty.MustParseNumberVal("1e40"), cty.NumberFloatVal(1.5), cty.NumberFloatVal(-0.25),
		cty.MustParseNumberVal("0.1"), cty.MustParseNumberVal("123456789.000000001"), cty.NumberVal(negZero),
	} {
		want := v.AsBigFloat().Text('f', -1)
		if got := String(v.AsBigFloat()); got != want {
			t.Errorf("String(%s) = %q, want %q", want, got, want)
		}
		if got := string(Append([]byte("x"), v.AsBigFloat())); got != "x"+want {
			t.Errorf("Append(%s) = %q, want %q", want, got, "x"+want)
		}
	}
}
