package configschema

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestDeclaresSensitive: a sensitive attribute is found at any depth, in
// nested attributes and nested blocks; a schema without one has none.
func TestDeclaresSensitive(t *testing.T) {
	plain := &Block{Attributes: map[string]*Attribute{"a": {Type: cty.String, Optional: true}}}
	for name, c := range map[string]struct {
		b    *Block
		want bool
	}{
		"none":  {plain, false},
		"empty": {&Block{}, false},
		"top":   {&Block{Attributes: map[string]*Attribute{"a": {Type: cty.String, Sensitive: true}}}, true},
		"nested attribute": {&Block{Attributes: map[string]*Attribute{"n": {NestedType: &Object{
			Nesting: NestingList, Attributes: map[string]*Attribute{"p": {Type: cty.String, Sensitive: true}}}}}}, true},
		"nested block": {&Block{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingSet,
			Block: Block{BlockTypes: map[string]*NestedBlock{"c": {Nesting: NestingSingle, Block: Block{
				Attributes: map[string]*Attribute{"p": {Type: cty.String, Sensitive: true}}}}}}}}}, true},
		"plain nested block": {&Block{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingList, Block: *plain}}}, false},
	} {
		if got := c.b.DeclaresSensitive(); got != c.want {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
}
