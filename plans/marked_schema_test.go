package plans

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/configschema"
)

// TestDeclaresSensitive: a sensitive attribute is found at any depth, in
// nested attributes and nested blocks; a schema without one has none.
func TestDeclaresSensitive(t *testing.T) {
	plain := &configschema.Block{Attributes: map[string]*configschema.Attribute{"a": {Type: cty.String, Optional: true}}}
	for name, c := range map[string]struct {
		b    *configschema.Block
		want bool
	}{
		"none":  {plain, false},
		"empty": {&configschema.Block{}, false},
		"top":   {&configschema.Block{Attributes: map[string]*configschema.Attribute{"a": {Type: cty.String, Sensitive: true}}}, true},
		"nested attribute": {&configschema.Block{Attributes: map[string]*configschema.Attribute{"n": {NestedType: &configschema.Object{
			Nesting: configschema.NestingList, Attributes: map[string]*configschema.Attribute{"p": {Type: cty.String, Sensitive: true}}}}}}, true},
		"nested block": {&configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{"b": {Nesting: configschema.NestingSet,
			Block: configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{"c": {Nesting: configschema.NestingSingle, Block: configschema.Block{
				Attributes: map[string]*configschema.Attribute{"p": {Type: cty.String, Sensitive: true}}}}}}}}}, true},
		"plain nested block": {&configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{"b": {Nesting: configschema.NestingList, Block: *plain}}}, false},
	} {
		if got := declaresSensitive(c.b); got != c.want {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
}
