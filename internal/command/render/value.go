package render

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/lang/marks"
)

// differ renders the difference between two cty values as the nested,
// symbol-prefixed text users know from Terraform's plan output. Values may
// carry marks.Sensitive marks (shown as "(sensitive value)") and unknowns
// (shown as "(known after apply)"). Rendering is O(size of the values),
// plus O(n·m) for the longest common subsequence of changed lists.
type differ struct {
	col Colorizer
	// replace holds the paths whose change forces replacement.
	replace []cty.Path
	// showAll shows unchanged attributes and blocks too (an import, as
	// Terraform shows the whole imported object).
	showAll bool
	// names, when set, keeps each schema block's sorted attribute names
	// across the changes of one rendering.
	names *blockNames
}

const (
	symNone   = ""
	symCreate = "+"
	symDelete = "-"
	symUpdate = "~"
)

// prefix is the start of a line at indent: the action symbol right-aligned
// in three columns and a space.
func (d *differ) prefix(indent int, sym string) string {
	if indent < prefixIndents {
		if i := symIndex(sym); i >= 0 {
			t := &prefixes[0]
			if d.col.Enabled {
				t = &prefixes[1]
			}
			return t[i][indent]
		}
	}
	return makePrefix(d.col, indent, sym)
}

func makePrefix(col Colorizer, indent int, sym string) string {
	return strings.Repeat(" ", indent) + col.symbol(fmt.Sprintf("%3s", sym)) + " "
}

// prefixes holds the common prefixes, made once: by colour (off, on),
// symbol (prefixSyms) and indent.
var prefixes = func() (t [2][len(prefixSyms)][prefixIndents]string) {
	for c := range t {
		for s, sym := range prefixSyms {
			for indent := range prefixIndents {
				t[c][s][indent] = makePrefix(Colorizer{Enabled: c == 1}, indent, sym)
			}
		}
	}
	return t
}()

const prefixIndents = 64

var prefixSyms = [...]string{symNone, symCreate, symDelete, symUpdate, "-/+", "+/-", "<=", "."}

func symIndex(sym string) int {
	for i, s := range prefixSyms {
		if s == sym {
			return i
		}
	}
	return -1
}

// forces returns the replacement comment when path forces replacement.
func (d *differ) forces(path cty.Path) string {
	for _, p := range d.replace {
		if p.Equals(path) {
			return d.col.Gray(" # forces replacement")
		}
	}
	return ""
}

// unmark removes v's own marks and reports whether it was sensitive. A
// cty.NilVal becomes a dynamic null so callers can ask IsNull.
func unmark(v cty.Value) (cty.Value, bool) {
	if v == cty.NilVal {
		return cty.NullVal(cty.DynamicPseudoType), false
	}
	if !v.IsMarked() {
		return v, false
	}
	u, m := v.Unmark()
	_, s := m[marks.Sensitive]
	return u, s
}

// same reports whether a and b are equal, sensitivity included.
func same(a, b cty.Value) bool {
	if a == cty.NilVal || b == cty.NilVal {
		return a == b
	}
	ua, am := a.UnmarkDeepWithPaths()
	ub, bm := b.UnmarkDeepWithPaths()
	return ua.RawEquals(ub) && len(am) == len(bm)
}

// containsSame reports whether list holds an element the same as v
// (sensitivity included): set membership for rendering. O(len(list)).
func containsSame(list []cty.Value, v cty.Value) bool {
	for _, o := range list {
		if same(v, o) {
			return true
		}
	}
	return false
}

// action returns the symbol for the change of one value.
func action(before, after cty.Value) string {
	b, _ := unmark(before)
	a, _ := unmark(after)
	switch {
	case b.IsNull() && a.IsNull():
		return symNone
	case b.IsNull():
		return symCreate
	case a.IsKnown() && a.IsNull():
		return symDelete
	case same(before, after):
		return symNone
	}
	return symUpdate
}

// value writes the right-hand side of "name = " for before -> after, with
// nested lines at indent+4.
func (d *differ) value(b *strings.Builder, before, after cty.Value, indent int, path cty.Path) {
	bv, bs := unmark(before)
	av, as := unmark(after)
	switch {
	case bs || as:
		switch {
		case bv.IsNull():
			b.WriteString("(sensitive value)")
		case av.IsKnown() && av.IsNull():
			b.WriteString("(sensitive value) -> null")
		default:
			b.WriteString("(sensitive value)")
		}
		b.WriteString(d.forces(path))
	case bv.IsNull() && av.IsNull():
		b.WriteString("null")
	case bv.IsNull():
		d.whole(b, av, indent, symCreate, path)
	case !av.IsKnown():
		if isPrimitive(bv) {
			b.WriteString(d.prim(bv, indent, symNone))
		} else {
			d.whole(b, bv, indent, symDelete, nil)
		}
		b.WriteString(" -> (known after apply)" + d.forces(path))
	case av.IsNull():
		d.whole(b, bv, indent, symDelete, nil)
		b.WriteString(" -> null" + d.forces(path))
	case !bv.IsKnown():
		b.WriteString("(known after apply)" + d.forces(path))
	case valueKind(bv.Type()) != valueKind(av.Type()):
		if isPrimitive(bv) && isPrimitive(av) {
			b.WriteString(d.prim(bv, indent, symNone) + " -> " + d.prim(av, indent, symNone) + d.forces(path))
			return
		}
		d.whole(b, bv, indent, symDelete, nil)
		b.WriteString(" -> ")
		d.whole(b, av, indent, symCreate, path)
	case isPrimitive(av):
		d.primDiff(b, bv, av, indent, path)
	case av.Type().IsListType() || av.Type().IsTupleType():
		d.listDiff(b, bv, av, indent, path)
	case av.Type().IsSetType():
		d.setDiff(b, bv, av, indent, path)
	case av.Type().IsMapType() || av.Type().IsObjectType():
		d.mapDiff(b, bv, av, indent, path, av.Type().IsMapType())
	default:
		b.WriteString(d.prim(av, indent, symNone))
	}
}

// valueKind groups types that diff alike: a list and a tuple (or an
// object and a map) are compared element by element even when their exact
// types differ, as happens with dynamically typed attributes whose length
// changed. Only a change of kind renders as a whole old value replaced by
// a whole new one.
func valueKind(ty cty.Type) string {
	switch {
	case ty.IsListType() || ty.IsTupleType():
		return "list"
	case ty.IsSetType():
		return "set"
	case ty.IsMapType() || ty.IsObjectType():
		return "map"
	case ty == cty.DynamicPseudoType:
		return "dynamic"
	}
	return "primitive:" + ty.FriendlyName()
}

// whole renders v in full with every nested element carrying sym: how a
// created value (sym "+") or a destroyed one ("-") looks.
func (d *differ) whole(b *strings.Builder, v cty.Value, indent int, sym string, path cty.Path) {
	v, s := unmark(v)
	switch {
	case s:
		// prim would see the unmarked value: say it here.
		b.WriteString("(sensitive value)" + d.forces(path))
		return
	case !v.IsKnown() || v.IsNull() || isPrimitive(v):
		if v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
			if jv, ok := jsonValue(v.AsString()); ok {
				b.WriteString(d.jsonWhole(jv, indent, sym) + d.forces(path))
				return
			}
		}
		b.WriteString(d.prim(v, indent, symNone) + d.forces(path))
		return
	}
	ty := v.Type()
	if v.LengthInt() == 0 {
		if ty.IsMapType() || ty.IsObjectType() {
			b.WriteString("{}" + d.forces(path))
		} else {
			b.WriteString("[]" + d.forces(path))
		}
		return
	}
	if ty.IsMapType() || ty.IsObjectType() {
		keys, vals := entries(v)
		width := 0
		shown := keys[:0:0]
		for _, k := range keys {
			if ev, _ := unmark(vals[k]); ev.IsNull() && ty.IsObjectType() {
				continue
			}
			shown = append(shown, k)
			width = max(width, len(keyLabel(k, ty.IsMapType())))
		}
		b.WriteString("{" + d.forces(path) + "\n")
		for _, k := range shown {
			label := keyLabel(k, ty.IsMapType())
			b.WriteString(d.prefix(indent+4, sym) + label + strings.Repeat(" ", width-len(label)) + " = ")
			d.whole(b, vals[k], indent+4, sym, nil)
			b.WriteString("\n")
		}
		b.WriteString(strings.Repeat(" ", indent+4) + "}")
		return
	}
	b.WriteString("[" + d.forces(path) + "\n")
	for it := v.ElementIterator(); it.Next(); {
		_, ev := it.Element()
		b.WriteString(d.prefix(indent+4, sym))
		d.whole(b, ev, indent+4, sym, nil)
		b.WriteString(",\n")
	}
	b.WriteString(strings.Repeat(" ", indent+4) + "]")
}

// plural writes a count with its noun, adding "s" unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
