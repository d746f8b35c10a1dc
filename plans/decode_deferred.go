package plans

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans/internal/planproto"
)

// planResourceChangesField is the field number of Plan.resource_changes.
const planResourceChangesField = 7

// DeferredValues decodes, on request, the Before and After values of the
// resource changes of a plan read by UnmarshalDeferred. Load may be
// called from several goroutines at once.
type DeferredValues struct {
	types decodedTypes
	rcs   []*ResourceInstanceChange // the plan's Changes.Resources, in archive order
	encs  []encodedChange           // their encoded values, same order
}

// encodedChange is the encoded Before and After of a resource change,
// kept without the protobuf messages they came in (which are many small
// objects the garbage collector would otherwise trace until the end).
type encodedChange struct{ before, after encodedValue }

// encodedValue is a DynamicValue's content; set is false where there was
// none (cty.NilVal).
type encodedValue struct {
	msgpack []byte
	typ     uint32
	set     bool
}

func encodedValueOf(dv *planproto.DynamicValue) encodedValue {
	if dv == nil {
		return encodedValue{}
	}
	return encodedValue{msgpack: dv.Msgpack, typ: dv.Type, set: true}
}

// Len is the number of resource changes.
func (v *DeferredValues) Len() int { return len(v.rcs) }

// Load returns a copy of the i-th resource change of the plan, in the
// order UnmarshalDeferred gave them, with its Before and After values
// decoded. The copy shares everything else with the plan's change. An
// undecodable value gives the error Unmarshal gives for it. O(size of the
// values).
func (v *DeferredValues) Load(i int) (*ResourceInstanceChange, error) {
	rc := *v.rcs[i]
	enc := &v.encs[i]
	var err error
	if rc.Before, err = v.value(enc.before); err == nil {
		rc.After, err = v.value(enc.after)
		if err != nil {
			err = fmt.Errorf("after value: %w", err)
		}
	} else {
		err = fmt.Errorf("before value: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("resource change %s%s: %w", rc.Addr, deposedSuffix(rc.DeposedKey), err)
	}
	return &rc, nil
}

// value is decoder.value of ev; a null of a static type (the before value of
// every create, the after value of every delete), which msgpack encodes
// as the one byte 0xc0, is made without a msgpack decoder.
func (v *DeferredValues) value(ev encodedValue) (cty.Value, error) {
	switch {
	case !ev.set:
		return cty.NilVal, nil
	case len(ev.msgpack) == 1 && ev.msgpack[0] == 0xc0 && int64(ev.typ) < int64(len(v.types)):
		if ty := v.types[ev.typ]; ty != cty.DynamicPseudoType {
			return cty.NullVal(ty), nil
		}
	}
	return v.types.decodeValue(ev.msgpack, ev.typ)
}

// UnmarshalDeferred is Unmarshal for a caller that looks at the resource
// changes one at a time (the human rendering): everything is decoded
// and checked as Unmarshal does, except that the Before and After values
// of p.Changes.Resources are left cty.NilVal, to be decoded by
// vals.Load(i) when needed (an undecodable value is reported by Load,
// not here). The resource changes' encodings are parsed on every core;
// so a 100,000-change plan is ready for its first change to be shown
// after a fraction of what decoding every value costs, and its values
// need never be in memory all at once. O(size of the plan) without the
// values.
func UnmarshalDeferred(b []byte) (p *Plan, vals *DeferredValues, info FormatInfo, err error) {
	info, err = ReadFormatInfo(b)
	if err != nil {
		return nil, nil, info, err
	}
	if err := CheckFormatInfo(info); err != nil {
		return nil, nil, info, err
	}
	// The resource changes are taken out of the encoding, to be parsed in
	// parallel; the rest of the plan is parsed as one message. A repeated
	// message field's occurrences are its elements in order, so the two
	// parts together are what one proto.Unmarshal reads.
	var pp planproto.Plan
	rest, raws, split := splitResourceChanges(b)
	if !split {
		rest = b // malformed framing: let proto.Unmarshal report it
	}
	if err := proto.Unmarshal(rest, &pp); err != nil {
		return nil, nil, info, fmt.Errorf("the plan is not a valid plan encoding: %w", err)
	}
	types, err := decodeTypes(pp.Types)
	if err != nil {
		return nil, nil, info, err
	}
	d := &decoder{types: types, providers: map[string]addrs.Provider{}}
	prcs := pp.ResourceChanges
	pp.ResourceChanges = nil
	if p, err = d.plan(&pp); err != nil {
		return nil, nil, info, err
	}
	if split {
		prcs = make([]*planproto.ResourceInstanceChange, len(raws))
		block := make([]planproto.ResourceInstanceChange, len(raws))
		err = d.decodeEach(len(raws), func(_ *decoder, i int) error {
			if err := proto.Unmarshal(raws[i], &block[i]); err != nil {
				return fmt.Errorf("the plan is not a valid plan encoding: resource change %d: %w", i, err)
			}
			prcs[i] = &block[i]
			return nil
		})
		if err != nil {
			return nil, nil, info, err
		}
	}
	dd := *d
	dd.deferValues = true
	if p.Changes.Resources, err = dd.resourceChanges(prcs); err != nil {
		return nil, nil, info, err
	}
	encs := make([]encodedChange, len(prcs))
	for i, prc := range prcs {
		// resourceChanges refused a change without one.
		encs[i] = encodedChange{encodedValueOf(prc.Change.Before), encodedValueOf(prc.Change.After)}
	}
	return p, &DeferredValues{types: types, rcs: p.Changes.Resources, encs: encs}, info, nil
}

// splitResourceChanges returns the encoding b without its
// resource_changes fields, and their contents in order. ok is false when
// b's top-level framing is malformed.
func splitResourceChanges(b []byte) (rest []byte, raws [][]byte, ok bool) {
	rest = make([]byte, 0, 4096)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, nil, false
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return nil, nil, false
		}
		if num == planResourceChangesField && typ == protowire.BytesType {
			v, k := protowire.ConsumeBytes(b[n:])
			if k != m {
				return nil, nil, false
			}
			raws = append(raws, v)
		} else {
			// Any other wire type of field 7 is kept here, where
			// proto.Unmarshal treats it as it would in the whole.
			rest = append(rest, b[:n+m]...)
		}
		b = b[n+m:]
	}
	return rest, raws, true
}
