package render

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/lang/marks"
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
	return strings.Repeat(" ", indent) + d.col.symbol(fmt.Sprintf("%3s", sym)) + " "
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
		return v.AsBigFloat().Text('f', -1)
	case cty.Bool:
		if v.True() {
			return "true"
		}
		return "false"
	}
	return "(" + v.Type().FriendlyName() + ")"
}

func (d *differ) primDiff(b *strings.Builder, bv, av cty.Value, indent int, path cty.Path) {
	if bv.RawEquals(av) {
		b.WriteString(d.prim(av, indent, symNone))
		return
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

// entries returns the keys of a known map or object value, sorted, and
// its elements by key.
func entries(v cty.Value) ([]string, map[string]cty.Value) {
	vals := map[string]cty.Value{}
	if v.IsNull() || !v.IsKnown() {
		return nil, vals
	}
	if v.Type().IsObjectType() {
		for name := range v.Type().AttributeTypes() {
			vals[name] = v.GetAttr(name)
		}
	} else {
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			vals[k.AsString()] = ev
		}
	}
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, vals
}

func keyLabel(k string, quoted bool) string {
	if quoted {
		return strconv.Quote(k)
	}
	return k
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// mapDiff renders a changed map or object key by key, hiding unchanged
// entries behind a count.
func (d *differ) mapDiff(b *strings.Builder, bv, av cty.Value, indent int, path cty.Path, isMap bool) {
	bk, bvals := entries(bv)
	ak, avals := entries(av)
	keys := unionSorted(bk, ak)
	type row struct {
		key, sym string
	}
	var rows []row
	hidden, width := 0, 0
	for _, k := range keys {
		be, ok := bvals[k]
		if !ok {
			be = cty.NullVal(cty.DynamicPseudoType)
		}
		ae, ok := avals[k]
		if !ok {
			ae = cty.NullVal(cty.DynamicPseudoType)
		}
		bvals[k], avals[k] = be, ae
		sym := action(be, ae)
		if u, _ := unmark(be); sym != symNone || !u.IsNull() {
			// Hidden entries count for the alignment, as in Terraform.
			width = max(width, len(keyLabel(k, isMap)))
		}
		if sym == symNone {
			if u, _ := unmark(be); !u.IsNull() {
				hidden++
			}
			continue
		}
		rows = append(rows, row{k, sym})
	}
	b.WriteString("{" + d.forces(path) + "\n")
	for _, r := range rows {
		label := keyLabel(r.key, isMap)
		b.WriteString(d.prefix(indent+4, r.sym) + label + strings.Repeat(" ", width-len(label)) + " = ")
		step := cty.PathStep(cty.GetAttrStep{Name: r.key})
		if isMap {
			step = cty.IndexStep{Key: cty.StringVal(r.key)}
		}
		d.value(b, bvals[r.key], avals[r.key], indent+4, append(path.Copy(), step))
		b.WriteString("\n")
	}
	if hidden > 0 {
		what := "element"
		if !isMap {
			what = "attribute"
		}
		b.WriteString(d.prefix(indent+4, symNone) + d.col.Gray("# ("+plural(hidden, "unchanged "+what)+" hidden)") + "\n")
	}
	b.WriteString(strings.Repeat(" ", indent+4) + "}")
}

func unionSorted(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range append(append([]string{}, a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

func elements(v cty.Value) []cty.Value {
	var out []cty.Value
	if v.IsNull() || !v.IsKnown() {
		return out
	}
	for it := v.ElementIterator(); it.Next(); {
		_, ev := it.Element()
		out = append(out, ev)
	}
	return out
}

// listDiff renders a changed list element by element, aligning the two
// lists on their longest common subsequence.
func (d *differ) listDiff(b *strings.Builder, bv, av cty.Value, indent int, path cty.Path) {
	be, ae := elements(bv), elements(av)
	b.WriteString("[" + d.forces(path) + "\n")
	hidden := 0
	flush := func() {
		if hidden > 0 {
			b.WriteString(d.prefix(indent+4, symNone) + d.col.Gray("# ("+plural(hidden, "unchanged element")+" hidden)") + "\n")
			hidden = 0
		}
	}
	for _, op := range lcsDiff(len(be), len(ae), func(i, j int) bool { return same(be[i], ae[j]) }) {
		switch op.kind {
		case symNone:
			hidden++
		case symDelete:
			flush()
			b.WriteString(d.prefix(indent+4, symDelete))
			d.whole(b, be[op.i], indent+4, symDelete, nil)
			b.WriteString(",\n")
		case symCreate:
			flush()
			b.WriteString(d.prefix(indent+4, symCreate))
			d.whole(b, ae[op.j], indent+4, symCreate, nil)
			b.WriteString(",\n")
		}
	}
	flush()
	b.WriteString(strings.Repeat(" ", indent+4) + "]")
}

// setDiff renders a changed set: elements only before are removed, only
// after are added, in both are unchanged.
func (d *differ) setDiff(b *strings.Builder, bv, av cty.Value, indent int, path cty.Path) {
	be, ae := elements(bv), elements(av)
	b.WriteString("[" + d.forces(path) + "\n")
	hidden := 0
	for _, e := range be {
		if containsSame(ae, e) {
			hidden++
			continue
		}
		b.WriteString(d.prefix(indent+4, symDelete))
		d.whole(b, e, indent+4, symDelete, nil)
		b.WriteString(",\n")
	}
	for _, e := range ae {
		if containsSame(be, e) {
			continue
		}
		b.WriteString(d.prefix(indent+4, symCreate))
		d.whole(b, e, indent+4, symCreate, nil)
		b.WriteString(",\n")
	}
	if hidden > 0 {
		b.WriteString(d.prefix(indent+4, symNone) + d.col.Gray("# ("+plural(hidden, "unchanged element")+" hidden)") + "\n")
	}
	b.WriteString(strings.Repeat(" ", indent+4) + "]")
}

// diffOp is one step of an alignment: kind symNone keeps before[i] ==
// after[j], symDelete drops before[i], symCreate adds after[j].
type diffOp struct {
	kind string
	i, j int
}

// lcsDiff aligns two sequences on their longest common subsequence, in
// O(n·m) time and space, deletions before insertions at each gap.
func lcsDiff(n, m int, eq func(i, j int) bool) []diffOp {
	t := make([][]int, n+1)
	for i := range t {
		t[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if eq(i, j) {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && eq(i, j):
			ops = append(ops, diffOp{symNone, i, j})
			i++
			j++
		case i < n && (j >= m || t[i+1][j] >= t[i][j+1]):
			ops = append(ops, diffOp{symDelete, i, j})
			i++
		default:
			ops = append(ops, diffOp{symCreate, i, j})
			j++
		}
	}
	return ops
}
