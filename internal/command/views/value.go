package views

import (
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/lang/marks"
)

// FormatValue renders a value the way Terraform prints outputs after an
// apply: strings quoted (a heredoc when multi-line), lists, sets and maps
// wrapped in tolist/toset/tomap so the type is visible, tuples and objects
// bare, keys quoted, one element per line, sensitive parts hidden.
// O(size of the value).
func FormatValue(v cty.Value, indent int) string {
	if v.HasMark(marks.Sensitive) {
		return "(sensitive value)"
	}
	v, _ = v.Unmark()
	switch {
	case !v.IsKnown():
		return "(known after apply)"
	case v.IsNull():
		return "null"
	}
	ty := v.Type()
	pad := strings.Repeat(" ", indent)
	switch {
	case ty == cty.String:
		s := v.AsString()
		if strings.Contains(strings.TrimSuffix(s, "\n"), "\n") {
			var b strings.Builder
			b.WriteString("<<EOT\n")
			for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
				b.WriteString(pad + l + "\n")
			}
			b.WriteString(pad + "EOT")
			return b.String()
		}
		return strconv.Quote(s)
	case ty == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case ty == cty.Bool:
		return strconv.FormatBool(v.True())
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		var b strings.Builder
		b.WriteString("[")
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			b.WriteString("\n" + pad + "  " + FormatValue(ev, indent+2) + ",")
		}
		if v.LengthInt() > 0 {
			b.WriteString("\n" + pad)
		}
		b.WriteString("]")
		switch {
		case ty.IsListType():
			return "tolist(" + b.String() + ")"
		case ty.IsSetType():
			return "toset(" + b.String() + ")"
		}
		return b.String()
	case ty.IsMapType() || ty.IsObjectType():
		var b strings.Builder
		b.WriteString("{")
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			b.WriteString("\n" + pad + "  " + strconv.Quote(k.AsString()) + " = " + FormatValue(ev, indent+2))
		}
		if v.LengthInt() > 0 {
			b.WriteString("\n" + pad)
		}
		b.WriteString("}")
		if ty.IsMapType() {
			return "tomap(" + b.String() + ")"
		}
		return b.String()
	}
	return v.GoString()
}
