package plugin

import (
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// appendMsgpack appends the msgpack encoding of v as type ty to buf, the
// same bytes cty's msgpack.Marshal writes, without its per-call encoder,
// per-attribute-name values and type conformance walk: most of the
// allocations of a provider call. It handles what known configuration and
// state values hold (nulls, strings, bools, integers, objects, maps,
// lists, sets, tuples) and hands every other sub-value (unknown values
// with their refinements, dynamically-typed values, non-integer numbers)
// to cty's encoder, appending its output: msgpack values concatenate.
// errNoFastPath means v does not have exactly the structure of ty (or is
// marked): encodeValue then uses cty's encoder for the whole value, which
// converts or reports it.
func appendMsgpack(buf []byte, v cty.Value, ty cty.Type) ([]byte, error) {
	if v.IsMarked() {
		return nil, errNoFastPath
	}
	if ty != cty.DynamicPseudoType && !v.IsKnown() && unrefined(v) {
		// cty's compact encoding of an unknown with no refinements
		// (cty/msgpack's unknownValBytes): a fixext1 of type 0.
		return append(buf, 0xd4, 0, 0), nil
	}
	if ty == cty.DynamicPseudoType || !v.IsKnown() {
		b, err := ctymsgpack.Marshal(v, ty)
		if err != nil {
			return nil, err
		}
		return append(buf, b...), nil
	}
	if v.IsNull() {
		return append(buf, msgpackNil), nil
	}
	vt := v.Type()
	switch {
	case ty == cty.String:
		if vt != cty.String {
			return nil, errNoFastPath
		}
		s := v.AsString()
		return append(appendStrLen(buf, len(s)), s...), nil
	case ty == cty.Bool:
		if vt != cty.Bool {
			return nil, errNoFastPath
		}
		if v.True() {
			return append(buf, 0xc3), nil
		}
		return append(buf, 0xc2), nil
	case ty == cty.Number:
		if vt != cty.Number {
			return nil, errNoFastPath
		}
		if i, acc := v.AsBigFloat().Int64(); acc == big.Exact {
			return appendInt(buf, i), nil
		}
		b, err := ctymsgpack.Marshal(v, ty)
		if err != nil {
			return nil, err
		}
		return append(buf, b...), nil
	case ty.IsObjectType():
		if !vt.IsObjectType() {
			return nil, errNoFastPath
		}
		atys := ty.AttributeTypes()
		if len(vt.AttributeTypes()) != len(atys) {
			return nil, errNoFastPath
		}
		var small [16]string
		names := small[:0]
		for name := range atys {
			if !vt.HasAttribute(name) {
				return nil, errNoFastPath
			}
			names = append(names, name)
		}
		sort.Strings(names)
		buf = appendCollLen(buf, len(names), 0x80, 0xde, 0xdf)
		var err error
		for _, name := range names {
			buf = append(appendStrLen(buf, len(name)), name...)
			if buf, err = appendMsgpack(buf, v.GetAttr(name), atys[name]); err != nil {
				return nil, err
			}
		}
		return buf, nil
	case ty.IsMapType():
		if !vt.IsMapType() {
			return nil, errNoFastPath
		}
		buf = appendCollLen(buf, v.LengthInt(), 0x80, 0xde, 0xdf)
		ety := ty.ElementType()
		var err error
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if k.IsMarked() {
				return nil, errNoFastPath
			}
			s := k.AsString()
			buf = append(appendStrLen(buf, len(s)), s...)
			if buf, err = appendMsgpack(buf, ev, ety); err != nil {
				return nil, err
			}
		}
		return buf, nil
	case ty.IsListType() || ty.IsSetType():
		if (ty.IsListType() && !vt.IsListType()) || (ty.IsSetType() && !vt.IsSetType()) {
			return nil, errNoFastPath
		}
		buf = appendCollLen(buf, v.LengthInt(), 0x90, 0xdc, 0xdd)
		ety := ty.ElementType()
		var err error
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			if buf, err = appendMsgpack(buf, ev, ety); err != nil {
				return nil, err
			}
		}
		return buf, nil
	case ty.IsTupleType():
		etys := ty.TupleElementTypes()
		if !vt.IsTupleType() || len(vt.TupleElementTypes()) != len(etys) {
			return nil, errNoFastPath
		}
		buf = appendCollLen(buf, len(etys), 0x90, 0xdc, 0xdd)
		var err error
		for i, ety := range etys {
			if buf, err = appendMsgpack(buf, v.Index(cty.NumberIntVal(int64(i))), ety); err != nil {
				return nil, err
			}
		}
		return buf, nil
	}
	return nil, errNoFastPath
}

var errNoFastPath = errors.New("value needs cty's msgpack encoder")

// appendStrLen appends a msgpack string header: fixstr, str8, str16 or
// str32, the smallest that fits, as cty's encoder writes it.
func appendStrLen(buf []byte, n int) []byte {
	switch {
	case n < 32:
		return append(buf, 0xa0|byte(n))
	case n < 256:
		return append(buf, 0xd9, byte(n))
	case n <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(buf, 0xda), uint16(n))
	}
	return binary.BigEndian.AppendUint32(append(buf, 0xdb), uint32(n))
}

// appendCollLen appends a map (0x80, 0xde, 0xdf) or array (0x90, 0xdc,
// 0xdd) header.
func appendCollLen(buf []byte, n int, fix, c16, c32 byte) []byte {
	switch {
	case n < 16:
		return append(buf, fix|byte(n))
	case n <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(buf, c16), uint16(n))
	}
	return binary.BigEndian.AppendUint32(append(buf, c32), uint32(n))
}

// appendInt appends n in msgpack's most compact integer form, as cty's
// encoder (compact ints) writes it.
func appendInt(buf []byte, n int64) []byte {
	if n >= 0 {
		u := uint64(n)
		switch {
		case u <= math.MaxInt8:
			return append(buf, byte(u))
		case u <= math.MaxUint8:
			return append(buf, 0xcc, byte(u))
		case u <= math.MaxUint16:
			return binary.BigEndian.AppendUint16(append(buf, 0xcd), uint16(u))
		case u <= math.MaxUint32:
			return binary.BigEndian.AppendUint32(append(buf, 0xce), uint32(u))
		}
		return binary.BigEndian.AppendUint64(append(buf, 0xcf), u)
	}
	switch {
	case n >= -32:
		return append(buf, byte(n))
	case n >= math.MinInt8:
		return append(buf, 0xd0, byte(n))
	case n >= math.MinInt16:
		return binary.BigEndian.AppendUint16(append(buf, 0xd1), uint16(n))
	case n >= math.MinInt32:
		return binary.BigEndian.AppendUint32(append(buf, 0xd2), uint32(n))
	}
	return binary.BigEndian.AppendUint64(append(buf, 0xd3), uint64(n))
}

// unrefined reports whether the unknown v carries no refinement that
// cty's msgpack encoding writes: not known to be non-null, and no string
// prefix or collection length bounds. Unknown numbers are left to cty
// (their bounds are encoded as numbers).
func unrefined(v cty.Value) bool {
	rng := v.Range()
	tc := rng.TypeConstraint()
	if tc == cty.DynamicPseudoType {
		return true
	}
	if rng.DefinitelyNotNull() || tc == cty.Number {
		return false
	}
	switch {
	case tc == cty.String:
		return rng.StringPrefix() == ""
	case tc.IsCollectionType():
		return rng.LengthLowerBound() == 0 && rng.LengthUpperBound() == math.MaxInt
	}
	return true
}
