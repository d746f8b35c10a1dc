package plans

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"

	"github.com/plankit/plankit/internal/fastmsgpack"
	"github.com/plankit/plankit/internal/safecty"
)

// typeTable assigns each distinct value type of a plan an index, so that
// the encoded plan holds each type's JSON once however many values share it.
// A plan of n changes of k resource types costs O(n) Equals checks against a
// few recently used types plus k JSON encodings, instead of n.
type typeTable struct {
	jsons  [][]byte
	byJSON map[string]uint32
	recent []typeSlot // most recently used first
}

type typeSlot struct {
	ty  cty.Type
	idx uint32
}

const recentTypes = 8

func newTypeTable() *typeTable {
	return &typeTable{byJSON: map[string]uint32{}}
}

// index returns ty's index, adding it when new.
func (t *typeTable) index(ty cty.Type) (uint32, error) {
	for i, s := range t.recent {
		if s.ty.Equals(ty) {
			if i > 0 {
				copy(t.recent[1:i+1], t.recent[:i])
				t.recent[0] = s
			}
			return s.idx, nil
		}
	}
	js, err := ctyjson.MarshalType(ty)
	if err != nil {
		return 0, fmt.Errorf("cannot encode type %s: %w", ty.FriendlyName(), err)
	}
	idx, ok := t.byJSON[string(js)]
	if !ok {
		idx = uint32(len(t.jsons))
		t.jsons = append(t.jsons, js)
		t.byJSON[string(js)] = idx
	}
	if len(t.recent) < recentTypes {
		t.recent = append(t.recent, typeSlot{})
	}
	copy(t.recent[1:], t.recent[:len(t.recent)-1])
	t.recent[0] = typeSlot{ty: ty, idx: idx}
	return idx, nil
}

// encodeValue returns v's msgpack bytes and type index. v must be unmarked
// and not cty.NilVal. The msgpack encoder already refuses marks at every
// depth, so marks are looked for (an O(size) walk) only when it fails, to
// say what to do instead.
func (t *typeTable) encodeValue(v cty.Value) ([]byte, uint32, error) {
	b, err := marshalValue(v)
	if err != nil {
		return nil, 0, err
	}
	idx, err := t.index(v.Type())
	if err != nil {
		return nil, 0, err
	}
	return b, idx, nil
}

// decodedTypes is the reading side of a typeTable: each type parsed once.
type decodedTypes []cty.Type

func decodeTypes(jsons [][]byte) (decodedTypes, error) {
	out := make(decodedTypes, len(jsons))
	for i, js := range jsons {
		ty, err := safecty.UnmarshalType(js)
		if err != nil {
			return nil, fmt.Errorf("type %d of the type table: %w", i, err)
		}
		out[i] = ty
	}
	return out, nil
}

// decodeValue reads msgpack bytes of the type at idx. Hostile bytes give an
// error, never a panic.
func (d decodedTypes) decodeValue(b []byte, idx uint32) (v cty.Value, err error) {
	if int64(idx) >= int64(len(d)) {
		return cty.NilVal, fmt.Errorf("type index %d is outside the type table (%d types)", idx, len(d))
	}
	if err := fastmsgpack.CheckBounds(b); err != nil {
		return cty.NilVal, fmt.Errorf("malformed value: %w", err)
	}
	if v, ok := fastmsgpack.Decode(b, d[idx]); ok {
		return v, nil
	}
	defer func() {
		if r := recover(); r != nil {
			v, err = cty.NilVal, fmt.Errorf("malformed value: %v", r)
		}
	}()
	return msgpack.Unmarshal(b, d[idx])
}

// isNilVal reports whether v is cty.NilVal, the zero Value ("no value").
func isNilVal(v cty.Value) bool {
	return v.Type() == cty.NilType
}
