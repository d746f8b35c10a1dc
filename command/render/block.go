package render

import (
	"sort"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/configschema"
)

// identifying attributes stay visible in an update even when unchanged, so
// the reader can tell which object is meant.
var identifying = map[string]bool{"id": true, "name": true}

// getAttr returns attribute name of an object value, or a null when the
// object is null, unknown or lacks it.
func getAttr(obj cty.Value, name string) cty.Value {
	o, _ := unmark(obj)
	if o.IsNull() || !o.IsKnown() || !o.Type().IsObjectType() || !o.Type().HasAttribute(name) {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	return o.GetAttr(name)
}

// block writes the body of a block (attributes, then nested blocks, then
// counts of hidden unchanged ones) at indent.
func (d *differ) block(b *strings.Builder, schema *configschema.Block, before, after cty.Value, indent int, path cty.Path) {
	if schema == nil {
		schema = &configschema.Block{}
	}
	names := make([]string, 0, len(schema.Attributes))
	for n := range schema.Attributes {
		names = append(names, n)
	}
	sort.Strings(names)
	type row struct{ name, sym string }
	var rows []row
	hiddenAttrs, width := 0, 0
	for _, n := range names {
		bv, av := getAttr(before, n), getAttr(after, n)
		sym := action(bv, av)
		if sym == symNone {
			if u, _ := unmark(av); u.IsNull() {
				continue
			}
			// Hidden attributes still count for the alignment, as in
			// Terraform, so a value column does not move when an
			// unchanged attribute is hidden.
			width = max(width, len(n))
			if !identifying[n] {
				hiddenAttrs++
				continue
			}
		}
		rows = append(rows, row{n, sym})
		width = max(width, len(n))
	}
	for _, r := range rows {
		b.WriteString(d.prefix(indent, r.sym) + r.name + strings.Repeat(" ", width-len(r.name)) + " = ")
		d.value(b, getAttr(before, r.name), getAttr(after, r.name), indent, append(path.Copy(), cty.GetAttrStep{Name: r.name}))
		b.WriteString("\n")
	}
	if hiddenAttrs > 0 {
		b.WriteString(d.prefix(indent, symNone) + d.col.Gray("# ("+plural(hiddenAttrs, "unchanged attribute")+" hidden)") + "\n")
	}

	blockNames := make([]string, 0, len(schema.BlockTypes))
	for n := range schema.BlockTypes {
		blockNames = append(blockNames, n)
	}
	sort.Strings(blockNames)
	hiddenBlocks := 0
	for _, n := range blockNames {
		nb := schema.BlockTypes[n]
		hiddenBlocks += d.nestedBlocks(b, n, nb, getAttr(before, n), getAttr(after, n), indent, append(path.Copy(), cty.GetAttrStep{Name: n}))
	}
	if hiddenBlocks > 0 {
		b.WriteString("\n" + d.prefix(indent, symNone) + d.col.Gray("# ("+plural(hiddenBlocks, "unchanged block")+" hidden)") + "\n")
	}
}

// nestedBlocks writes every block of one type and returns how many were
// unchanged and so hidden.
func (d *differ) nestedBlocks(b *strings.Builder, name string, nb *configschema.NestedBlock, before, after cty.Value, indent int, path cty.Path) int {
	bv, bs := unmark(before)
	av, as := unmark(after)
	if bs || as {
		// A whole block type marked sensitive: nothing inside is shown.
		if sym := action(before, after); sym != symNone {
			d.sensitiveBlock(b, name, "", sym, indent, path)
		}
		return 0
	}
	if !av.IsKnown() {
		b.WriteString("\n" + d.prefix(indent, symUpdate) + name + " {\n")
		b.WriteString(d.prefix(indent+4, symNone) + "# (known after apply)\n")
		b.WriteString(strings.Repeat(" ", indent+4) + "}\n")
		return 0
	}
	hidden := 0
	one := func(label string, be, ae cty.Value, p cty.Path) {
		sym := action(be, ae)
		if sym == symNone {
			if u, _ := unmark(ae); !u.IsNull() {
				hidden++
			}
			return
		}
		if _, s := unmark(be); s {
			d.sensitiveBlock(b, name, label, sym, indent, p)
			return
		}
		if _, s := unmark(ae); s {
			d.sensitiveBlock(b, name, label, sym, indent, p)
			return
		}
		b.WriteString("\n" + d.prefix(indent, sym) + name + label + " {" + d.forces(p) + "\n")
		d.block(b, &nb.Block, be, ae, indent+4, p)
		b.WriteString(strings.Repeat(" ", indent+4) + "}\n")
	}
	null := cty.NullVal(cty.DynamicPseudoType)
	switch nb.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		one("", bv, av, path)
	case configschema.NestingList:
		be, ae := elements(bv), elements(av)
		for i := 0; i < max(len(be), len(ae)); i++ {
			x, y := null, null
			if i < len(be) {
				x = be[i]
			}
			if i < len(ae) {
				y = ae[i]
			}
			one("", x, y, append(path.Copy(), cty.IndexStep{Key: cty.NumberIntVal(int64(i))}))
		}
	case configschema.NestingSet:
		be, ae := elements(bv), elements(av)
		for _, e := range be {
			if containsSame(ae, e) {
				hidden++
			} else {
				one("", e, null, path)
			}
		}
		for _, e := range ae {
			if !containsSame(be, e) {
				one("", null, e, path)
			}
		}
	case configschema.NestingMap:
		bk, bvals := entries(bv)
		ak, avals := entries(av)
		for _, k := range unionSorted(bk, ak) {
			x, ok := bvals[k]
			if !ok {
				x = null
			}
			y, ok := avals[k]
			if !ok {
				y = null
			}
			one(" "+strconv.Quote(k), x, y, append(path.Copy(), cty.IndexStep{Key: cty.StringVal(k)}))
		}
	}
	return hidden
}

// sensitiveBlock writes a nested block whose value is marked sensitive as
// a header and a comment, so none of its attributes are shown.
func (d *differ) sensitiveBlock(b *strings.Builder, name, label, sym string, indent int, path cty.Path) {
	b.WriteString("\n" + d.prefix(indent, sym) + name + label + " {" + d.forces(path) + "\n")
	b.WriteString(d.prefix(indent+4, symNone) + d.col.Gray("# At least one attribute in this block is (or was) sensitive,") + "\n")
	b.WriteString(d.prefix(indent+4, symNone) + d.col.Gray("# so its contents will not be displayed.") + "\n")
	b.WriteString(strings.Repeat(" ", indent+4) + "}\n")
}
