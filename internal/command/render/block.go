package render

import (
	"sort"
	"strconv"
	"strings"
	"sync"

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

// blockNames keeps the sorted attribute names of schema blocks, for the
// goroutines rendering the changes of one plan.
type blockNames struct{ m sync.Map } // *configschema.Block -> []string

// sortedAttrNames returns the names of schema's attributes, sorted. The
// result is shared: callers must not modify it.
func (d *differ) sortedAttrNames(schema *configschema.Block) []string {
	if d.names != nil {
		if names, ok := d.names.m.Load(schema); ok {
			return names.([]string)
		}
	}
	names := make([]string, 0, len(schema.Attributes))
	for n := range schema.Attributes {
		names = append(names, n)
	}
	sort.Strings(names)
	if d.names != nil {
		d.names.m.Store(schema, names)
	}
	return names
}

// block writes the body of a block (attributes, then nested blocks, then
// counts of hidden unchanged ones) at indent.
func (d *differ) block(b *strings.Builder, schema *configschema.Block, before, after cty.Value, indent int, path cty.Path) {
	if schema == nil {
		schema = &configschema.Block{}
	}
	names := d.sortedAttrNames(schema)
	type row struct {
		name, sym string
		attr      *configschema.Attribute
		bv, av    cty.Value
	}
	var rowsBuf [8]row
	rows := rowsBuf[:0]
	hiddenAttrs, width := 0, 0
	blockSym := action(before, after)
	for _, n := range names {
		bv, av := getAttr(before, n), getAttr(after, n)
		sym := action(bv, av)
		a := schema.Attributes[n]
		if a.WriteOnly {
			// Write-only values are never in a plan: the attribute is
			// labelled, and follows its block's creation or deletion,
			// as in Terraform; in an update it is unchanged.
			sym = blockSym
			if sym == symUpdate {
				sym = symNone
			}
			width = max(width, len(n))
			if sym == symNone {
				hiddenAttrs++
				continue
			}
		}
		if sym == symNone {
			if u, _ := unmark(av); u.IsNull() {
				continue
			}
			// Hidden attributes still count for the alignment, as in
			// Terraform, so a value column does not move when an
			// unchanged attribute is hidden.
			width = max(width, len(n))
			if !identifying[n] && !d.showAll {
				hiddenAttrs++
				continue
			}
		}
		rows = append(rows, row{n, sym, a, bv, av})
		width = max(width, len(n))
	}
	for _, r := range rows {
		b.WriteString(d.prefix(indent, r.sym))
		b.WriteString(r.name)
		writeSpaces(b, width-len(r.name))
		b.WriteString(" = ")
		attrPath := append(path.Copy(), cty.GetAttrStep{Name: r.name})
		if r.attr.WriteOnly {
			b.WriteString(d.writeOnly(r.attr, r.bv, r.av, r.sym, attrPath) + "\n")
			continue
		}
		d.value(b, r.bv, r.av, indent, attrPath)
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
// unchanged and so hidden. A block type that is sensitive or unknown as a
// whole is written as one placeholder; otherwise each block is paired with
// its counterpart by what identifies it in its nesting mode (position in a
// list, value in a set, key in a map) and written by oneBlock.
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
	switch nb.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		return d.oneBlock(b, name, "", &nb.Block, bv, av, indent, path)
	case configschema.NestingList:
		return d.listBlocks(b, name, &nb.Block, bv, av, indent, path)
	case configschema.NestingSet:
		return d.setBlocks(b, name, &nb.Block, bv, av, indent, path)
	case configschema.NestingMap:
		return d.mapBlocks(b, name, &nb.Block, bv, av, indent, path)
	}
	return 0
}

// oneBlock writes one nested block, labelled label, whose value goes from
// before to after, and returns 1 when it is unchanged (and still exists)
// and so hidden, else 0. A block marked sensitive on either side shows no
// attributes.
func (d *differ) oneBlock(b *strings.Builder, name, label string, schema *configschema.Block, before, after cty.Value, indent int, path cty.Path) int {
	sym := action(before, after)
	if sym == symNone {
		if u, _ := unmark(after); u.IsNull() {
			return 0
		}
		if !d.showAll {
			return 1
		}
	}
	_, bs := unmark(before)
	_, as := unmark(after)
	if bs || as {
		d.sensitiveBlock(b, name, label, sym, indent, path)
		return 0
	}
	b.WriteString("\n" + d.prefix(indent, sym) + name + label + " {" + d.forces(path) + "\n")
	d.block(b, schema, before, after, indent+4, path)
	b.WriteString(strings.Repeat(" ", indent+4) + "}\n")
	return 0
}

// listBlocks pairs the blocks of a list as Terraform does (pairSlice):
// unchanged blocks by their longest common subsequence, and a changed
// block with the new block in its place, shown as "~ name { ... }" with
// what changed; blocks left over are created or destroyed. Returns the
// hidden count.
func (d *differ) listBlocks(b *strings.Builder, name string, schema *configschema.Block, bv, av cty.Value, indent int, path cty.Path) int {
	null := cty.NullVal(cty.DynamicPseudoType)
	be, ae := elements(bv), elements(av)
	hidden := 0
	at := func(i int) cty.Path { return append(path.Copy(), cty.IndexStep{Key: cty.NumberIntVal(int64(i))}) }
	eq := func(i, j int) bool { return same(be[i], ae[j]) }
	for _, op := range pairSlice(len(be), len(ae), eq, func(int, int) bool { return true }) {
		switch op.kind {
		case symNone, symUpdate:
			hidden += d.oneBlock(b, name, "", schema, be[op.i], ae[op.j], indent, at(op.j))
		case symDelete:
			hidden += d.oneBlock(b, name, "", schema, be[op.i], null, indent, at(op.i))
		case symCreate:
			hidden += d.oneBlock(b, name, "", schema, null, ae[op.j], indent, at(op.j))
		}
	}
	return hidden
}

// setBlocks pairs the blocks of a set by value: a block in both sets is
// unchanged and hidden, one only before is destroyed, one only after is
// created. O(n·m) comparisons. Returns the hidden count.
func (d *differ) setBlocks(b *strings.Builder, name string, schema *configschema.Block, bv, av cty.Value, indent int, path cty.Path) int {
	null := cty.NullVal(cty.DynamicPseudoType)
	be, ae := elements(bv), elements(av)
	hidden := 0
	for _, e := range be {
		if containsSame(ae, e) {
			hidden++
		} else {
			hidden += d.oneBlock(b, name, "", schema, e, null, indent, path)
		}
	}
	for _, e := range ae {
		if !containsSame(be, e) {
			hidden += d.oneBlock(b, name, "", schema, null, e, indent, path)
		}
	}
	return hidden
}

// mapBlocks pairs the blocks of a map by key, in key order, each labelled
// with its quoted key. Returns the hidden count.
func (d *differ) mapBlocks(b *strings.Builder, name string, schema *configschema.Block, bv, av cty.Value, indent int, path cty.Path) int {
	null := cty.NullVal(cty.DynamicPseudoType)
	bk, bvals := entries(bv)
	ak, avals := entries(av)
	hidden := 0
	for _, k := range unionSorted(bk, ak) {
		x, ok := bvals[k]
		if !ok {
			x = null
		}
		y, ok := avals[k]
		if !ok {
			y = null
		}
		hidden += d.oneBlock(b, name, " "+strconv.Quote(k), schema, x, y, indent, append(path.Copy(), cty.IndexStep{Key: cty.StringVal(k)}))
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

// writeOnly is the placeholder of a write-only attribute, whose value no
// plan holds: "(write-only attribute)", "(sensitive, write-only
// attribute)" for a sensitive one, with " -> null" when its block is
// deleted.
func (d *differ) writeOnly(a *configschema.Attribute, before, after cty.Value, sym string, path cty.Path) string {
	_, bs := unmark(before)
	_, as := unmark(after)
	s := "(write-only attribute)"
	if a.Sensitive || bs || as {
		s = "(sensitive, write-only attribute)"
	}
	if sym == symDelete {
		s += " -> null"
	}
	return s + d.forces(path)
}

// spaces is sliced for runs of blanks.
const spaces = "                                                                "

// writeSpaces writes n blanks to b.
func writeSpaces(b *strings.Builder, n int) {
	for n > len(spaces) {
		b.WriteString(spaces)
		n -= len(spaces)
	}
	if n > 0 {
		b.WriteString(spaces[:n])
	}
}
