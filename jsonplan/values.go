package jsonplan

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/zclconf/go-cty/cty"
)

// marshalValue encodes a value as before/after/values hold it: unknowns
// inside are left out (object attributes and map elements) or become
// null (sequence elements), as the JSON plan format expects next to
// after_unknown; a nil, null or wholly unknown value gives "null".
// O(size of v).
func marshalValue(v cty.Value) (json.RawMessage, error) {
	sp := scratch()
	b, err := appendValue((*sp)[:0], v)
	return keep(sp, b), err
}

// unknownBoolsJSON is after_unknown: v's structure with true at every
// unknown leaf; known leaves are false, and false entries of objects and
// maps are left out.
func unknownBoolsJSON(v cty.Value) json.RawMessage {
	sp := scratch()
	return keep(sp, appendUnknownBools((*sp)[:0], v))
}

// sensitiveBoolsJSON is before_sensitive, after_sensitive and
// sensitive_values: v's structure with true at every value marked
// sensitive. An unknown collection, object or tuple is [] or {} (nothing
// can be said of its parts yet), and kept in its parent, as Terraform
// writes it.
func sensitiveBoolsJSON(v cty.Value) json.RawMessage {
	sp := scratch()
	return keep(sp, appendSensitiveBools((*sp)[:0], v))
}

// The small documents most values and markers are, shared (capacity
// limited, so an append copies): a value's JSON costs no allocation when
// it is one of them and one exact-size allocation otherwise.
var (
	rawNull       = json.RawMessage("null")[:4:4]
	rawFalse      = json.RawMessage("false")[:5:5]
	rawTrue       = json.RawMessage("true")[:4:4]
	rawEmptyObj   = json.RawMessage("{}")[:2:2]
	rawEmptyArray = json.RawMessage("[]")[:2:2]
)

var scratchPool = sync.Pool{New: func() any { return new([]byte) }}

// scratch is a buffer from the pool; keep gives it back.
func scratch() *[]byte {
	return scratchPool.Get().(*[]byte)
}

// keep returns the JSON in b (written into *sp) as a RawMessage of its
// own, or a shared small one, and gives the buffer back to the pool.
func keep(sp *[]byte, b []byte) json.RawMessage {
	var out json.RawMessage
	switch string(b) {
	case "null":
		out = rawNull
	case "false":
		out = rawFalse
	case "true":
		out = rawTrue
	case "{}":
		out = rawEmptyObj
	case "[]":
		out = rawEmptyArray
	default:
		out = bytes.Clone(b)
	}
	if cap(b) <= 1<<20 { // a huge value's buffer is not kept for later
		*sp = b[:0]
		scratchPool.Put(sp)
	}
	return out
}
