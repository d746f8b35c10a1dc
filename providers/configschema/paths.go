package configschema

import (
	"maps"
	"slices"

	"github.com/zclconf/go-cty/cty"
)

// AttributeByPath returns the attribute that path (a path into a value of
// b.ImpliedType()) leads to, or nil when it leads to a block or nowhere.
// Index steps into nested block collections are skipped; steps below an
// attribute (into a map or object attribute) return nil. O(len(path)).
func (b *Block) AttributeByPath(path cty.Path) *Attribute {
	cur := b
	for i := 0; i < len(path); i++ {
		if cur == nil {
			return nil
		}
		step, ok := path[i].(cty.GetAttrStep)
		if !ok {
			return nil
		}
		if a, ok := cur.Attributes[step.Name]; ok {
			if i == len(path)-1 {
				return a
			}
			return nil
		}
		nb, ok := cur.BlockTypes[step.Name]
		if !ok {
			return nil
		}
		cur = &nb.Block
		if nb.Nesting == NestingList || nb.Nesting == NestingSet || nb.Nesting == NestingMap {
			// The next step, if any, selects an element.
			if i+1 < len(path) {
				if _, isIndex := path[i+1].(cty.IndexStep); isIndex {
					i++
				}
			}
		}
	}
	return nil
}

// SensitivePaths returns the paths within val (a value of b.ImpliedType())
// of every non-null attribute the schema marks Sensitive, in a deterministic
// order. Elements of nested block collections are visited: list elements by
// index, map elements by key, set elements by their value. Unknown or null
// collections contribute nothing (their elements are unknown). O(size of
// val).
func (b *Block) SensitivePaths(val cty.Value) []cty.Path {
	var out []cty.Path
	b.sensitivePaths(val, nil, &out)
	return out
}

func (b *Block) sensitivePaths(val cty.Value, prefix cty.Path, out *[]cty.Path) {
	if b == nil || val.IsNull() || !val.IsKnown() || !val.Type().IsObjectType() {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(b.Attributes)) {
		a := b.Attributes[name]
		if !a.Sensitive || !val.Type().HasAttribute(name) {
			continue
		}
		*out = append(*out, append(prefix.Copy(), cty.GetAttrStep{Name: name}))
	}
	for _, name := range slices.Sorted(maps.Keys(b.BlockTypes)) {
		nb := b.BlockTypes[name]
		if !val.Type().HasAttribute(name) {
			continue
		}
		bv := val.GetAttr(name)
		p := append(prefix.Copy(), cty.GetAttrStep{Name: name})
		switch nb.Nesting {
		case NestingSingle, NestingGroup:
			nb.Block.sensitivePaths(bv, p, out)
		default:
			if bv.IsNull() || !bv.IsKnown() || !bv.CanIterateElements() {
				continue
			}
			for it := bv.ElementIterator(); it.Next(); {
				k, ev := it.Element()
				nb.Block.sensitivePaths(ev, append(p.Copy(), cty.IndexStep{Key: k}), out)
			}
		}
	}
}
