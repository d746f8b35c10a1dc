package jsonplan

import (
	"sync"

	"github.com/plankit/plankit/providers/configschema"
)

var sensitiveSchemas sync.Map // *configschema.Block -> bool

// sensitiveSchema returns schema when it declares a sensitive attribute
// anywhere (nested attributes and blocks included) and nil when it
// declares none, which is what plans.Change.Marked and SensitivePaths
// need to know: a nil schema adds no marks, and skips a walk of every
// value that could not find any. Remembered per schema, which the plan
// shares between all instances of a resource type.
func sensitiveSchema(schema *configschema.Block) *configschema.Block {
	if schema == nil {
		return nil
	}
	has, ok := sensitiveSchemas.Load(schema)
	if !ok {
		has = schema.DeclaresSensitive()
		sensitiveSchemas.Store(schema, has)
	}
	if has.(bool) {
		return schema
	}
	return nil
}
