package terraform

import (
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/configschema"
)

// writeOnlyBlocks caches, per schema block, whether it has a write-only
// attribute at any depth: most schemas have none, and their values are
// then not walked.
var writeOnlyBlocks sync.Map // *configschema.Block → bool

func hasWriteOnly(b *configschema.Block) bool {
	if v, ok := writeOnlyBlocks.Load(b); ok {
		return v.(bool)
	}
	has := blockHasWriteOnly(b)
	writeOnlyBlocks.Store(b, has)
	return has
}

func blockHasWriteOnly(b *configschema.Block) bool {
	for _, a := range b.Attributes {
		if a.WriteOnly || (a.NestedType != nil && blockHasWriteOnly(&configschema.Block{Attributes: a.NestedType.Attributes})) {
			return true
		}
	}
	for _, nb := range b.BlockTypes {
		if blockHasWriteOnly(&nb.Block) {
			return true
		}
	}
	return false
}

// writeOnlyValue returns the path of a write-only attribute that is not
// null in v (an object of b's type), or nil when every one is null, as a
// provider must return them: a plan or a state never holds their values.
// O(size of v) for a schema with write-only attributes, O(1) otherwise.
func writeOnlyValue(b *configschema.Block, v cty.Value) cty.Path {
	if b == nil || !hasWriteOnly(b) {
		return nil
	}
	return writeOnlyIn(b.Attributes, b.BlockTypes, v, nil)
}

func writeOnlyIn(attrs map[string]*configschema.Attribute, blocks map[string]*configschema.NestedBlock, v cty.Value, path cty.Path) cty.Path {
	if v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return nil
	}
	for name, a := range attrs {
		if !v.Type().HasAttribute(name) {
			continue
		}
		av := v.GetAttr(name)
		p := append(path.Copy(), cty.GetAttrStep{Name: name})
		if a.WriteOnly {
			if !av.IsNull() {
				return p
			}
			continue
		}
		if a.NestedType != nil {
			if bad := writeOnlyElems(a.NestedType.Nesting, a.NestedType.Attributes, nil, av, p); bad != nil {
				return bad
			}
		}
	}
	for name, nb := range blocks {
		if !v.Type().HasAttribute(name) {
			continue
		}
		p := append(path.Copy(), cty.GetAttrStep{Name: name})
		if bad := writeOnlyElems(nb.Nesting, nb.Attributes, nb.BlockTypes, v.GetAttr(name), p); bad != nil {
			return bad
		}
	}
	return nil
}

// writeOnlyElems is writeOnlyIn for the objects of a nested attribute or
// block of the given nesting.
func writeOnlyElems(nesting configschema.NestingMode, attrs map[string]*configschema.Attribute, blocks map[string]*configschema.NestedBlock, v cty.Value, path cty.Path) cty.Path {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	switch nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		return writeOnlyIn(attrs, blocks, v, path)
	}
	if !v.CanIterateElements() {
		return nil
	}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if bad := writeOnlyIn(attrs, blocks, e, append(path.Copy(), cty.IndexStep{Key: k})); bad != nil {
			return bad
		}
	}
	return nil
}

// nullWriteOnly returns v with every write-only attribute null.
// O(size of v × schema depth).
func nullWriteOnly(b *configschema.Block, v cty.Value) cty.Value {
	out, _ := cty.Transform(v, func(p cty.Path, v cty.Value) (cty.Value, error) {
		if len(p) == 0 || v.IsNull() {
			return v, nil
		}
		if a := b.AttributeByPath(p); a != nil && a.WriteOnly {
			return cty.NullVal(v.Type()), nil
		}
		return v, nil
	})
	return out
}
