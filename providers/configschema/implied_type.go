package configschema

import (
	"github.com/zclconf/go-cty/cty"
)

// ImpliedType returns the cty object type that values of this block have:
// one attribute per schema attribute and per nested block type. O(size of
// the schema); callers on hot paths should keep the result.
func (b *Block) ImpliedType() cty.Type {
	if b == nil {
		return cty.EmptyObject
	}
	atys := make(map[string]cty.Type, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		atys[name] = a.ImpliedType()
	}
	for name, nb := range b.BlockTypes {
		atys[name] = nb.ImpliedType()
	}
	return cty.Object(atys)
}

// ImpliedType returns the type of the value a nested block type
// contributes to its parent object. Lists and maps of blocks whose type
// holds dynamic parts become cty.DynamicPseudoType, because their elements
// may differ in type (decoded as tuples and objects).
func (nb *NestedBlock) ImpliedType() cty.Type {
	ety := nb.Block.ImpliedType()
	return nb.Nesting.collectionOf(ety)
}

// EmptyValue returns the value of a block with nothing set: every attribute
// null, single blocks null, group blocks empty, collections empty. It is
// what a configuration body with no content decodes to.
func (b *Block) EmptyValue() cty.Value {
	if b == nil {
		return cty.EmptyObjectVal
	}
	vals := make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		vals[name] = cty.NullVal(a.ImpliedType())
	}
	for name, nb := range b.BlockTypes {
		vals[name] = nb.EmptyValue()
	}
	return cty.ObjectVal(vals)
}

// EmptyValue returns the value of a nested block type with no blocks.
func (nb *NestedBlock) EmptyValue() cty.Value {
	ety := nb.Block.ImpliedType()
	switch nb.Nesting {
	case NestingSingle:
		return cty.NullVal(ety)
	case NestingGroup:
		return nb.Block.EmptyValue()
	case NestingList:
		if ety.HasDynamicTypes() {
			return cty.EmptyTupleVal
		}
		return cty.ListValEmpty(ety)
	case NestingSet:
		return cty.SetValEmpty(ety)
	case NestingMap:
		if ety.HasDynamicTypes() {
			return cty.EmptyObjectVal
		}
		return cty.MapValEmpty(ety)
	default:
		return cty.NullVal(cty.DynamicPseudoType)
	}
}

// ImpliedType returns the attribute's value type: NestedType's implied
// type for a nested attribute, Type otherwise.
func (a *Attribute) ImpliedType() cty.Type {
	if a.NestedType != nil {
		return a.NestedType.ImpliedType()
	}
	return a.Type
}

// ImpliedType returns the type of a nested attribute's value: an object
// for single nesting, a list, set or map of objects for the others. Lists
// and maps of objects with dynamic parts become cty.DynamicPseudoType, as
// for blocks. Optional attributes of the object are plain attributes here
// (decoding uses optional attributes, see DecoderSpec).
func (o *Object) ImpliedType() cty.Type {
	if o == nil {
		return cty.EmptyObject
	}
	atys := make(map[string]cty.Type, len(o.Attributes))
	for name, a := range o.Attributes {
		atys[name] = a.ImpliedType()
	}
	ety := cty.Object(atys)
	return o.Nesting.collectionOf(ety)
}

// collectionOf is the type of a value nested with mode m whose elements
// are ety: the object itself for single and group, a list, set or map of
// it otherwise. Lists and maps of types with dynamic parts are
// cty.DynamicPseudoType, since their elements may differ in type (decoded
// as tuples and objects).
func (m NestingMode) collectionOf(ety cty.Type) cty.Type {
	switch m {
	case NestingSingle, NestingGroup:
		return ety
	case NestingList:
		if ety.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.List(ety)
	case NestingSet:
		return cty.Set(ety)
	case NestingMap:
		if ety.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.Map(ety)
	default:
		return cty.DynamicPseudoType
	}
}
