package plans

import (
	"errors"
	"runtime"
	"sync/atomic"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/msgpack"

	"github.com/plankit/plankit/internal/fastmsgpack"
	"github.com/plankit/plankit/internal/ordered"
	"github.com/plankit/plankit/plans/internal/planproto"
)

// parallelEncodeMin is the number of resource changes from which their
// values' msgpack encodings (most of Marshal's work) are made on every
// core; below it a goroutine costs more than it saves.
// parallelEncodeMinDefault is parallelEncodeMin, a variable for the tests.
const parallelEncodeMinDefault = 2048

var parallelEncodeMin = parallelEncodeMinDefault

// encodeBatch is how many changes one worker encodes at a time.
const encodeBatch = 256

// preEncoded is a change's values encoded ahead of the (sequential)
// translation into protobuf messages, which gives each type its index in
// the order the values come.
type preEncoded struct {
	before, after marshalledValue
	// afterIsBefore: a no-op whose after value equals its before value;
	// the after value was not encoded (change shares the before message).
	afterIsBefore bool
}

// marshalledValue is marshalValue's result for one value (nothing for
// cty.NilVal, which is not recorded).
type marshalledValue struct {
	b   []byte
	err error
}

var errMarkedValue = errors.New("the value is marked; plans store unmarked values with sensitive paths beside them")

// useCtyEncoder puts go-cty's msgpack.Marshal back in place of
// fastmsgpack.Marshal (which writes the same bytes with fewer
// allocations), for TestMarshalMatchesCtyEncoder and
// BenchmarkMarshal100kCtyEncoder. Atomic: the parallel encoder's workers
// read it while a test may set it.
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

// preEncode encodes c's values as change will use them.
func preEncode(c *Change) (p preEncoded) {
	if !isNilVal(c.Before) {
		p.before.b, p.before.err = marshalValue(c.Before)
	}
	if c.Action == NoOp && !isNilVal(c.Before) && c.After.RawEquals(c.Before) {
		p.afterIsBefore = true
		return p
	}
	if !isNilVal(c.After) {
		p.after.b, p.after.err = marshalValue(c.After)
	}
	return p
}

// resourceChangesParallel is resourceChanges for many changes: the values
// are encoded on every core, in batches, and the messages built from them
// in order on this goroutine, so the types get the indexes, and the
// errors are the ones, a single loop gives.
func (e *encoder) resourceChangesParallel(rcs []*ResourceInstanceChange) ([]*planproto.ResourceInstanceChange, error) {
	out := make([]*planproto.ResourceInstanceChange, 0, len(rcs))
	done := 0 // changes already translated
	err := ordered.Batches(len(rcs), encodeBatch, runtime.GOMAXPROCS(0),
		func(lo, hi int) []preEncoded {
			pre := make([]preEncoded, hi-lo)
			for i := lo; i < hi; i++ {
				pre[i-lo] = preEncode(&rcs[i].Change)
			}
			return pre
		},
		func(pre []preEncoded) error {
			for j := range pre {
				rc := rcs[done+j]
				prc, err := e.resourceChangeWith(rc, &pre[j])
				if err != nil {
					return resourceChangeErr(rc, err)
				}
				out = append(out, prc)
			}
			done += len(pre)
			return nil
		})
	if err != nil {
		return nil, err
	}
	return out, nil
}
