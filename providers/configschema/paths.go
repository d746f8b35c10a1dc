package configschema

import (
	"maps"
	"slices"

	"github.com/zclconf/go-cty/cty"
)

// AttributeByPath returns the attribute that path (a path into a value of
// b.ImpliedType()) leads to, or nil when it leads to a block or nowhere.
// Index steps into nested block collections are skipped; steps into a
// nested attribute lead to its attributes (index steps of its collections
// skipped too); steps below any other attribute (into a map or object
// attribute) return nil. O(len(path)).
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
			return a.attributeByPath(path[i+1:])
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
		if !val.Type().HasAttribute(name) {
			continue
		}
		if a.Sensitive {
			*out = append(*out, append(prefix.Copy(), cty.GetAttrStep{Name: name}))
		} else if a.NestedType != nil {
			a.NestedType.sensitivePaths(val.GetAttr(name), append(prefix.Copy(), cty.GetAttrStep{Name: name}), out)
		}
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

// attributeByPath follows the rest of a path into a nested attribute: a
// but for an empty rest, the nested attribute rest leads to, else nil.
func (a *Attribute) attributeByPath(rest cty.Path) *Attribute {
	for len(rest) > 0 {
		if a.NestedType == nil {
			return nil
		}
		if a.NestedType.Nesting != NestingSingle && a.NestedType.Nesting != NestingGroup {
			if _, ok := rest[0].(cty.IndexStep); !ok {
				return nil
			}
			rest = rest[1:]
			if len(rest) == 0 {
				return nil
			}
		}
		step, ok := rest[0].(cty.GetAttrStep)
		if !ok {
			return nil
		}
		if a = a.NestedType.Attributes[step.Name]; a == nil {
			return nil
		}
		rest = rest[1:]
	}
	return a
}

// DeclaresSensitive reports whether b has a sensitive attribute anywhere
// (nested attributes and blocks included). Most schemas have none, and
// this walk of the schema costs less than SensitivePaths' walk of a value.
// O(size of the schema).
func (b *Block) DeclaresSensitive() bool {
	for _, a := range b.Attributes {
		if a.declaresSensitive() {
			return true
		}
	}
	for _, nb := range b.BlockTypes {
		if nb.Block.DeclaresSensitive() {
			return true
		}
	}
	return false
}

func (a *Attribute) declaresSensitive() bool {
	if a.Sensitive {
		return true
	}
	if a.NestedType != nil {
		for _, na := range a.NestedType.Attributes {
			if na.declaresSensitive() {
				return true
			}
		}
	}
	return false
}
