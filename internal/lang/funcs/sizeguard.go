package funcs

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// MaxProductElements is the most elements setproduct may return: its
// result grows as the product of its arguments' lengths, so three lists
// of a thousand describe a billion tuples.
const MaxProductElements = 2_000_000

// MaxIndentResult is the longest string, in bytes, indent may return.
const MaxIndentResult = 256 << 20

// SetProductFunc is go-cty's setproduct, refusing before it allocates a
// result of more than MaxProductElements elements. O(len(args)) extra.
var SetProductFunc = guardCall(stdlib.SetProductFunc, func(args []cty.Value) error {
	total := big.NewInt(1)
	for _, a := range args {
		a, _ = a.Unmark()
		if !a.IsKnown() || a.IsNull() || !a.CanIterateElements() {
			return nil // unknown, or an error the function reports
		}
		total.Mul(total, big.NewInt(int64(a.LengthInt())))
	}
	if total.Cmp(big.NewInt(MaxProductElements)) > 0 {
		return fmt.Errorf("the product of these collections has %s elements; setproduct returns at most %d", total, MaxProductElements)
	}
	return nil
})

// IndentFunc is go-cty's indent, refusing before it allocates a result
// longer than MaxIndentResult bytes. O(len(str)) extra.
var IndentFunc = guardCall(stdlib.IndentFunc, func(args []cty.Value) error {
	spaces, str := args[0], args[1]
	if !spaces.IsKnown() || spaces.IsNull() || !str.IsKnown() || str.IsNull() {
		return nil
	}
	n, acc := spaces.AsBigFloat().Int64()
	if acc != big.Exact {
		return nil // not a whole number: the function reports it
	}
	size := new(big.Int).Mul(big.NewInt(n), big.NewInt(int64(strings.Count(str.AsString(), "\n"))))
	size.Add(size, big.NewInt(int64(len(str.AsString()))))
	if n > MaxIndentResult || size.Cmp(big.NewInt(MaxIndentResult)) > 0 {
		return fmt.Errorf("indenting by %d spaces would make a string of %s bytes; indent returns at most %d", n, size, MaxIndentResult)
	}
	return nil
})

// guardCall wraps inner so that check runs on the (unmarked) arguments
// before inner is called. The wrapper has inner's parameters and result
// type; its unknown results are refined as not null, as the wrapped
// functions' are.
func guardCall(inner function.Function, check func(args []cty.Value) error) function.Function {
	return function.New(&function.Spec{
		Description: inner.Description(),
		Params:      inner.Params(),
		VarParam:    inner.VarParam(),
		Type:        inner.ReturnTypeForValues,
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
			return b.NotNull()
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			unmarked := make([]cty.Value, len(args))
			for i, a := range args {
				unmarked[i], _ = a.UnmarkDeep()
			}
			if err := check(unmarked); err != nil {
				return cty.NilVal, err
			}
			return inner.Call(args)
		},
	})
}

// MaxFormatWidth is the largest width or precision a format verb may ask
// for: "%01000000000d" would otherwise allocate a gigabyte for one number.
const MaxFormatWidth = 1_000_000

// FormatFunc and FormatListFunc are go-cty's format and formatlist,
// refusing a verb whose width or precision exceeds MaxFormatWidth before
// anything is formatted. O(len(format)) extra.
var (
	FormatFunc     = guardCall(stdlib.FormatFunc, checkFormatWidths)
	FormatListFunc = guardCall(stdlib.FormatListFunc, checkFormatWidths)
)

func checkFormatWidths(args []cty.Value) error {
	f := args[0]
	if !f.IsKnown() || f.IsNull() || !f.Type().Equals(cty.String) {
		return nil // the function reports it
	}
	s := f.AsString()
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		i++
		if i < len(s) && s[i] == '%' {
			continue
		}
		for i < len(s) && strings.IndexByte("-+# 0", s[i]) >= 0 {
			i++
		}
		if i < len(s) && s[i] == '[' { // explicit argument index
			for i < len(s) && s[i] != ']' {
				i++
			}
			i++
		}
		for _, what := range []string{"width", "precision"} {
			if what == "precision" {
				if i >= len(s) || s[i] != '.' {
					break
				}
				i++
			}
			start := i
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			if n, ok := new(big.Int).SetString(s[start:i], 10); ok && n.Cmp(big.NewInt(MaxFormatWidth)) > 0 {
				return fmt.Errorf("the format %q asks for a %s of %s; format allows at most %d", s[max(0, start-1):min(len(s), i+1)], what, n, MaxFormatWidth)
			}
		}
	}
	return nil
}
