// This file renders primitives: strings (heredocs for multi-line ones),
// numbers and bools, alone or as a before -> after change.

package render

import (
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/numtext"
)

// isPrimitive reports whether v is rendered as one scalar: a string,
// number or bool, or a dynamic value (null or unknown).
func isPrimitive(v cty.Value) bool {
	return v.Type().IsPrimitiveType() || v.Type() == cty.DynamicPseudoType
}

// prim renders a known primitive. Multi-line strings become a heredoc whose
// lines carry sym.
func (d *differ) prim(v cty.Value, indent int, sym string) string {
	v, s := unmark(v)
	switch {
	case s:
		return "(sensitive value)"
	case !v.IsKnown():
		return "(known after apply)"
	case v.IsNull():
		return "null"
	}
	switch v.Type() {
	case cty.String:
		str := v.AsString()
		if jv, ok := jsonValue(str); ok {
			return d.jsonWhole(jv, indent, sym)
		}
		if strings.Contains(strings.TrimSuffix(str, "\n"), "\n") {
			var b strings.Builder
			b.WriteString("<<-EOT\n")
			for _, l := range strings.Split(strings.TrimSuffix(str, "\n"), "\n") {
				b.WriteString(strings.TrimRight(d.prefix(indent+4, sym)+l, " ") + "\n")
			}
			b.WriteString(strings.Repeat(" ", indent+4) + "EOT")
			return b.String()
		}
		return strconv.Quote(str)
	case cty.Number:
		return numtext.String(v.AsBigFloat())
	case cty.Bool:
		if v.True() {
			return "true"
		}
		return "false"
	}
	return "(" + v.Type().FriendlyName() + ")"
}

// primDiff renders a changed primitive as "before -> after"; a change of
// a multi-line string becomes a heredoc diffed line by line (lcsDiff).
func (d *differ) primDiff(b *strings.Builder, bv, av cty.Value, indent int, path cty.Path) {
	if bv.RawEquals(av) {
		b.WriteString(d.prim(av, indent, symNone))
		return
	}
	if bv.Type() == cty.String && av.Type() == cty.String {
		bj, bok := jsonValue(bv.AsString())
		aj, aok := jsonValue(av.AsString())
		if bok && aok {
			d.jsonDiff(b, bj, aj, indent, path)
			return
		}
	}
	if bv.Type() == cty.String && av.Type() == cty.String && (strings.Contains(bv.AsString(), "\n") || strings.Contains(av.AsString(), "\n")) {
		bl := strings.Split(strings.TrimSuffix(bv.AsString(), "\n"), "\n")
		al := strings.Split(strings.TrimSuffix(av.AsString(), "\n"), "\n")
		b.WriteString("<<-EOT" + d.forces(path) + "\n")
		for _, op := range lcsDiff(len(bl), len(al), func(i, j int) bool { return bl[i] == al[j] }) {
			switch op.kind {
			case symNone:
				b.WriteString(strings.TrimRight(d.prefix(indent+4, symNone)+al[op.j], " ") + "\n")
			case symDelete:
				b.WriteString(d.prefix(indent+4, symDelete) + bl[op.i] + "\n")
			case symCreate:
				b.WriteString(d.prefix(indent+4, symCreate) + al[op.j] + "\n")
			}
		}
		b.WriteString(strings.Repeat(" ", indent+4) + "EOT")
		return
	}
	b.WriteString(d.prim(bv, indent, symNone) + " -> " + d.prim(av, indent, symNone) + d.forces(path))
}
