package terraform

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/configschema"
)

// TestHasSensitiveNestedAttribute: a schema whose only sensitive attribute
// sits inside a nested attribute still gets its values marked.
func TestHasSensitiveNestedAttribute(t *testing.T) {
	b := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"name": {Type: cty.String, Optional: true},
		"creds": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingList, Attributes: map[string]*configschema.Attribute{
			"user": {Type: cty.String, Optional: true},
			"deep": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSingle, Attributes: map[string]*configschema.Attribute{
				"password": {Type: cty.String, Optional: true, Sensitive: true},
			}}},
		}}},
	}}
	if !hasSensitive(b) {
		t.Error("hasSensitive = false for a sensitive attribute inside nested attributes")
	}
	delete(b.Attributes, "creds")
	if hasSensitive(b) {
		t.Error("hasSensitive = true without sensitive attributes")
	}
}
