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
	if i, ok := exactInt64(f); ok {
		return strconv.AppendInt(dst, i, 10)
	}
	return f.Append(dst, 'f', -1)
}

// String is f as f.Text('f', -1) writes it.
func String(f *big.Float) string {
	if i, ok := exactInt64(f); ok {
		return strconv.FormatInt(i, 10)
	}
	return f.Text('f', -1)
}

// exactInt64 is f as an int64 when f is a whole number that fits one and
// strconv writes it as Text does (not negative zero, which Text writes
// "-0").
func exactInt64(f *big.Float) (int64, bool) {
	if !f.IsInt() || (f.Sign() == 0 && f.Signbit()) {
		return 0, false
	}
	i, acc := f.Int64()
	return i, acc == big.Exact
}
