package plans

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/lang/marks"
	"github.com/plankit/plankit/providers/configschema"
)

// Marked returns Before and After marked sensitive wherever the change
// records it and, when schema is not nil, wherever the schema declares a
// sensitive attribute: the values a renderer must redact. cty.NilVal comes
// back as a null of unknown type. O(size of the values).
func (c Change) Marked(schema *configschema.Block) (before, after cty.Value) {
	return markSensitive(c.Before, c.BeforeSensitivePaths, schema), markSensitive(c.After, c.AfterSensitivePaths, schema)
}

func markSensitive(v cty.Value, paths []cty.Path, schema *configschema.Block) cty.Value {
	if v == cty.NilVal {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	if schema != nil && v.IsKnown() && !v.IsNull() && declaresSensitive(schema) {
		paths = append(append([]cty.Path(nil), paths...), schema.SensitivePaths(v)...)
	}
	return marks.MarkSensitivePaths(v, paths)
}

// declaresSensitive reports whether a schema has a sensitive attribute
// anywhere (nested attributes and blocks included). Most schemas have
// none, and this walk of the schema costs less than SensitivePaths' walk
// of the value, which allocates at every level. O(size of the schema).
func declaresSensitive(b *configschema.Block) bool {
	for _, a := range b.Attributes {
		if attributeDeclaresSensitive(a) {
			return true
		}
	}
	for _, nb := range b.BlockTypes {
		if declaresSensitive(&nb.Block) {
			return true
		}
	}
	return false
}

func attributeDeclaresSensitive(a *configschema.Attribute) bool {
	if a.Sensitive {
		return true
	}
	if a.NestedType != nil {
		for _, na := range a.NestedType.Attributes {
			if attributeDeclaresSensitive(na) {
				return true
			}
		}
	}
	return false
}
