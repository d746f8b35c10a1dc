package plans

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/lang/marks"
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
	if schema != nil && v.IsKnown() && !v.IsNull() && schema.DeclaresSensitive() {
		paths = append(append([]cty.Path(nil), paths...), schema.SensitivePaths(v)...)
	}
	return marks.MarkSensitivePaths(v, paths)
}
