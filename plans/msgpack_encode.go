package plans

import (
	"errors"
	"sync/atomic"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/msgpack"

	"github.com/plankit/plankit/internal/fastmsgpack"
)

var errMarkedValue = errors.New("the value is marked; plans store unmarked values with sensitive paths beside them")

// useCtyEncoder puts go-cty's msgpack.Marshal back in place of
// fastmsgpack.Marshal (which writes the same bytes with fewer
// allocations), for TestMarshalMatchesCtyEncoder and
// BenchmarkMarshal100kCtyEncoder.
var useCtyEncoder atomic.Bool

// marshalMsgpack is v's msgpack encoding as type ty.
func marshalMsgpack(v cty.Value, ty cty.Type) ([]byte, error) {
	if useCtyEncoder.Load() {
		return msgpack.Marshal(v, ty)
	}
	return fastmsgpack.Marshal(v, ty)
}

// marshalValue is v's msgpack bytes, as encodeValue makes them.
func marshalValue(v cty.Value) ([]byte, error) {
	b, err := marshalMsgpack(v, v.Type())
	if err != nil {
		if v.ContainsMarked() {
			return nil, errMarkedValue
		}
		return nil, err
	}
	return b, nil
}
