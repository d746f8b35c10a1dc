package tfdiags

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// FormatPath renders a cty.Path the way users write references:
// a.b[0]["k"]. An index not known (or null) is "[?]", one of another type
// "[...]". It is the one path formatter of plankit: configuration errors,
// provider schema errors and command-line variable errors all use it.
func FormatPath(path cty.Path) string {
	var b strings.Builder
	for _, step := range path {
		switch st := step.(type) {
		case cty.GetAttrStep:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(st.Name)
		case cty.IndexStep:
			switch {
			case !st.Key.IsKnown() || st.Key.IsNull():
				b.WriteString("[?]")
			case st.Key.Type() == cty.String:
				fmt.Fprintf(&b, "[%q]", st.Key.AsString())
			case st.Key.Type() == cty.Number:
				b.WriteString("[" + st.Key.AsBigFloat().Text('f', -1) + "]")
			default:
				b.WriteString("[...]")
			}
		}
	}
	return b.String()
}
