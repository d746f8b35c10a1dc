package jsonplan

import (
	"encoding/json"

	"github.com/zclconf/go-cty/cty"
)

// marshalValue encodes a value as before/after/values hold it: unknowns
// inside are left out (object attributes and map elements) or become
// null (sequence elements), as the JSON plan format expects next to
// after_unknown; a nil, null or wholly unknown value gives "null".
// O(size of v).
func marshalValue(v cty.Value) (json.RawMessage, error) {
	return appendValue(make([]byte, 0, 256), v)
}

// unknownBoolsJSON is after_unknown: v's structure with true at every
// unknown leaf; known leaves are false, and false entries of objects and
// maps are left out.
func unknownBoolsJSON(v cty.Value) json.RawMessage {
	return appendUnknownBools(make([]byte, 0, 64), v)
}

// sensitiveBoolsJSON is before_sensitive, after_sensitive and
// sensitive_values: v's structure with true at every value marked
// sensitive. An unknown collection, object or tuple is [] or {} (nothing
// can be said of its parts yet), and kept in its parent, as Terraform
// writes it.
func sensitiveBoolsJSON(v cty.Value) json.RawMessage {
	return appendSensitiveBools(make([]byte, 0, 64), v)
}
