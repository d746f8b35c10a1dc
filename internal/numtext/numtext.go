// Package numtext writes cty's numbers as decimal text, as
// big.Float.Text('f', -1) does: the form JSON, the state and the human
// rendering use. A whole number that fits an int64, most numbers in a plan
// or a state, is written by strconv: Text's exact decimal conversion of
// cty's 512-bit mantissa costs microseconds a number.
package numtext

import (
	"math/big"
	"strconv"
)

// Append appends f as f.Append(dst, 'f', -1) does.
func Append(dst []byte, f *big.Float) []byte {
	if f.IsInt() && !(f.Sign() == 0 && f.Signbit()) {
		if i, acc := f.Int64(); acc == big.Exact {
			return strconv.AppendInt(dst, i, 10)
		}
	}
	return f.Append(dst, 'f', -1)
}

// String is f as f.Text('f', -1) writes it.
func String(f *big.Float) string {
	if f.IsInt() && !(f.Sign() == 0 && f.Signbit()) {
		if i, acc := f.Int64(); acc == big.Exact {
			return strconv.FormatInt(i, 10)
		}
	}
	return f.Text('f', -1)
}
