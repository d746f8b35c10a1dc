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
		has = blockHasSensitive(schema)
		sensitiveSchemas.Store(schema, has)
	}
	if has.(bool) {
		return schema
	}
	return nil
}

func blockHasSensitive(b *configschema.Block) bool {
	for _, a := range b.Attributes {
		if attributeHasSensitive(a) {
			return true
		}
	}
	for _, nb := range b.BlockTypes {
		if blockHasSensitive(&nb.Block) {
			return true
		}
	}
	return false
}

func attributeHasSensitive(a *configschema.Attribute) bool {
	if a.Sensitive {
		return true
	}
	if a.NestedType != nil {
		for _, na := range a.NestedType.Attributes {
			if attributeHasSensitive(na) {
				return true
			}
		}
	}
	return false
}
