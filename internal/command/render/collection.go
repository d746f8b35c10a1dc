// This file renders changed collections: maps and objects key by key,
// lists aligned by lcsDiff, sets by membership.

package render

import (
	"sort"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

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

// keyLabel is how a key is written before " = ": quoted for a map key,
// bare for an object attribute.
func keyLabel(k string, quoted bool) string {
	if quoted {
		return strconv.Quote(k)
	}
	return k
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
			if u, _ := unmark(be); !u.IsNull() && d.showAll {
				rows = append(rows, row{k, sym})
			} else if !u.IsNull() {
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

// unionSorted returns the strings of a and b together, each once, sorted.
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

// elements returns the elements of a known list, set or tuple value in
// iteration order; none for a null or unknown one.
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
// lists as Terraform does (pairSlice): on their longest common
// subsequence, with a changed object element shown as "~ { ... }" in
// place rather than removed and added.
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
	isObject := func(v cty.Value) bool {
		u, _ := unmark(v)
		return u.IsKnown() && !u.IsNull() && u.Type().IsObjectType()
	}
	pairable := func(i, j int) bool { return isObject(be[i]) && isObject(ae[j]) }
	for _, op := range pairSlice(len(be), len(ae), func(i, j int) bool { return same(be[i], ae[j]) }, pairable) {
		switch op.kind {
		case symNone:
			if !d.showAll {
				hidden++
				continue
			}
			b.WriteString(d.prefix(indent+4, symNone))
			d.value(b, be[op.i], ae[op.j], indent+4, nil)
			b.WriteString(",\n")
		case symUpdate:
			flush()
			b.WriteString(d.prefix(indent+4, symUpdate))
			d.value(b, be[op.i], ae[op.j], indent+4, nil)
			b.WriteString(",\n")
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
		if containsSame(ae, e) && d.showAll {
			b.WriteString(d.prefix(indent+4, symNone))
			d.value(b, e, e, indent+4, nil)
			b.WriteString(",\n")
			continue
		}
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
