// Package configschema describes the shape of provider, resource and data
// source configuration: attributes, nested blocks and how they nest. A schema
// converts to its cty type (ImpliedType), to an hcldec.Spec that decodes and
// validates a configuration body (DecoderSpec), and answers questions about
// values of that type (SensitivePaths, AttributeByPath, ValidateValue).
//
// The model follows plugin protocol 6 closely so that a gRPC client can
// translate provider schemas one-to-one.
package configschema

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
)

// Block is a configuration block: a set of named attributes and named nested
// block types. The zero Block (or nil) describes an empty object.
type Block struct {
	Attributes  map[string]*Attribute
	BlockTypes  map[string]*NestedBlock
	Description string
	Deprecated  bool
}

// Attribute is one argument of a block.
//
// Exactly one of Required, Optional, Computed (alone) or Optional+Computed
// is a valid combination; InternalValidate checks that.
type Attribute struct {
	// Type is the attribute's value type; cty.DynamicPseudoType accepts any.
	// For a nested attribute (NestedType set) it is cty.NilType or equal
	// to NestedType.ImpliedType(); read it through ImpliedType.
	Type cty.Type
	// NestedType, if set, makes this a protocol 6 nested attribute: an
	// object (or collection of objects) whose own attributes have their
	// own flags, sensitivity included.
	NestedType  *Object
	Description string

	// Required means configuration must set the attribute (non-null).
	Required bool
	// Optional means configuration may set the attribute.
	Optional bool
	// Computed means the provider may decide the value. Computed without
	// Optional means configuration may not set it at all.
	Computed bool
	// Sensitive values are redacted from plan output and logs.
	Sensitive  bool
	Deprecated bool
	// WriteOnly values are sent to the provider but never stored in a plan
	// or state (they are null there).
	WriteOnly bool
}

// Object is the type of a nested attribute: attributes (which may nest in
// turn) and how they nest. Nesting is NestingSingle, NestingList,
// NestingSet or NestingMap; MinItems/MaxItems of zero mean no bound.
type Object struct {
	Attributes map[string]*Attribute
	Nesting    NestingMode
	MinItems   int
	MaxItems   int
}

// NestedBlock is a block type nested inside a Block, with its nesting mode
// and (for collections) item count bounds. MinItems/MaxItems of zero mean no
// bound.
type NestedBlock struct {
	Block
	Nesting  NestingMode
	MinItems int
	MaxItems int
}

// NestingMode says how many blocks of a type may appear and how they
// combine into a value.
type NestingMode int

const (
	nestingInvalid NestingMode = iota
	// NestingSingle is at most one block; its value is an object, null when
	// absent.
	NestingSingle
	// NestingGroup is at most one block; when absent its value is the
	// block's EmptyValue rather than null.
	NestingGroup
	// NestingList is a sequence of blocks, ordered as written: a list of
	// objects (a tuple when the block has dynamically-typed attributes).
	NestingList
	// NestingSet is an unordered set of blocks: a set of objects.
	NestingSet
	// NestingMap is blocks with one label each, keyed by that label: a map
	// of objects (an object when the block has dynamically-typed attributes).
	NestingMap
)

// String returns the protocol name of the nesting mode.
func (m NestingMode) String() string {
	switch m {
	case NestingSingle:
		return "single"
	case NestingGroup:
		return "group"
	case NestingList:
		return "list"
	case NestingSet:
		return "set"
	case NestingMap:
		return "map"
	default:
		return fmt.Sprintf("NestingMode(%d)", int(m))
	}
}

// ComputedOnly reports whether configuration may not set the attribute.
func (a *Attribute) ComputedOnly() bool {
	return a.Computed && !a.Optional && !a.Required
}
