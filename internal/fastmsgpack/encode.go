// Package fastmsgpack encodes and decodes cty values as msgpack exactly as
// go-cty's cty/msgpack package does, without its per-call encoder and
// decoder state, for the hot paths of plankit: provider calls
// (providers/plugin) and plan archives (plans). The encoder writes the
// very bytes msgpack.Marshal writes; the decoder gives the very values
// msgpack.Unmarshal gives for the forms it knows and declines the rest,
// which the caller then hands to the library.
package fastmsgpack

import (
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"sort"
	"sync"

	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// Marshal is msgpack.Marshal(v, ty): the same bytes, or the same error.
// Values of exactly the structure of ty take Append's path; any other
// (marked values, values cty converts, values it refuses) go to cty's
// encoder whole. The result has exactly its length as capacity.
func Marshal(v cty.Value, ty cty.Type) ([]byte, error) {
	bp := scratch.Get().(*[]byte)
	b, err := Append((*bp)[:0], v, ty)
	if err != nil {
		scratch.Put(bp)
		return ctymsgpack.Marshal(v, ty)
	}
	out := make([]byte, len(b))
	copy(out, b)
	if cap(b) <= maxScratch {
		*bp = b
		scratch.Put(bp)
	}
	return out, nil
}

// maxScratch is the largest buffer Marshal keeps for the next call.
const maxScratch = 64 << 10

var scratch = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// Append appends the msgpack encoding of v as type ty to buf, the
// same bytes cty's msgpack.Marshal writes, without its per-call encoder,
// per-attribute-name values and type conformance walk: most of the
// allocations of encoding a value. It handles what known configuration and
// state values hold (nulls, strings, bools, integers, objects, maps,
// lists, sets, tuples) and hands every other sub-value (unknown values
// with their refinements, dynamically-typed values, non-integer numbers)
// to cty's encoder, appending its output: msgpack values concatenate.
// ErrNoFastPath means v does not have exactly the structure of ty (or is
// marked): the caller then uses cty's encoder for the whole value, which
// converts or reports it. On any error, buf's contents past its
// original length are undefined.
func Append(buf []byte, v cty.Value, ty cty.Type) ([]byte, error) {
	if v.IsMarked() {
		return nil, ErrNoFastPath
	}
	if ty == cty.DynamicPseudoType || !v.IsKnown() {
		return appendDynamicOrUnknown(buf, v, ty)
	}
	if v.IsNull() {
		return append(buf, Nil), nil
	}
	vt := v.Type()
	switch {
	case ty.IsPrimitiveType():
		if vt != ty {
			return nil, ErrNoFastPath
		}
		return appendPrimitive(buf, v, ty)
	case ty.IsObjectType():
		if !vt.IsObjectType() {
			return nil, ErrNoFastPath
		}
		return appendObject(buf, v, ty)
	case ty.IsMapType():
		if !vt.IsMapType() {
			return nil, ErrNoFastPath
		}
		return appendMap(buf, v, ty)
	case ty.IsListType() || ty.IsSetType():
		if (ty.IsListType() && !vt.IsListType()) || (ty.IsSetType() && !vt.IsSetType()) {
			return nil, ErrNoFastPath
		}
		return appendElements(buf, v, ty)
	case ty.IsTupleType():
		if !vt.IsTupleType() || len(vt.TupleElementTypes()) != len(ty.TupleElementTypes()) {
			return nil, ErrNoFastPath
		}
		return appendTuple(buf, v, ty)
	}
	return nil, ErrNoFastPath
}

// appendDynamicOrUnknown is Append of a value of a dynamic type, or of an
// unknown: the forms written here, and cty's encoder for the rest.
func appendDynamicOrUnknown(buf []byte, v cty.Value, ty cty.Type) ([]byte, error) {
	switch vt := v.Type(); {
	case ty == cty.DynamicPseudoType && vt == cty.DynamicPseudoType && !v.IsKnown():
		return append(buf, 0xd4, 0, 0), nil // cty.DynamicVal
	case ty == cty.DynamicPseudoType && vt == cty.DynamicPseudoType:
		return append(buf, Nil), nil // a null of no type
	case ty == cty.DynamicPseudoType && primitiveTypeJSON(vt) != "":
		// cty's dynamicVal: [type JSON as binary, value as its type]
		js := primitiveTypeJSON(vt)
		buf = append(append(buf, 0x92, 0xc4, byte(len(js))), js...)
		return Append(buf, v, vt)
	case ty != cty.DynamicPseudoType && unrefined(v):
		// cty's compact encoding of an unknown with no refinements
		// (cty/msgpack's unknownValBytes): a fixext1 of type 0.
		return append(buf, 0xd4, 0, 0), nil
	case ty != cty.DynamicPseudoType && onlyNotNull(v, ty):
		// An ext8 of 3 bytes, of cty's type 0x0c (unknown with
		// refinements): the map {1 (nullness): false}.
		return append(buf, 0xc7, 3, 0x0c, 0x81, 0x01, 0xc2), nil
	}
	b, err := ctymsgpack.Marshal(v, ty)
	if err != nil {
		return nil, err
	}
	return append(buf, b...), nil
}

// appendPrimitive is Append of a known, non-null string, bool or number
// of type ty; a number that is not an integer goes to cty's encoder.
func appendPrimitive(buf []byte, v cty.Value, ty cty.Type) ([]byte, error) {
	switch ty {
	case cty.String:
		s := v.AsString()
		return append(appendStrLen(buf, len(s)), s...), nil
	case cty.Bool:
		if v.True() {
			return append(buf, 0xc3), nil
		}
		return append(buf, 0xc2), nil
	}
	if i, acc := v.AsBigFloat().Int64(); acc == big.Exact {
		return appendInt(buf, i), nil
	}
	b, err := ctymsgpack.Marshal(v, ty)
	if err != nil {
		return nil, err
	}
	return append(buf, b...), nil
}

// appendObject is Append of a known, non-null object: a map of its
// attributes in name order, which must be exactly ty's.
func appendObject(buf []byte, v cty.Value, ty cty.Type) ([]byte, error) {
	vt := v.Type()
	atys := ty.AttributeTypes()
	if len(vt.AttributeTypes()) != len(atys) {
		return nil, ErrNoFastPath
	}
	var small [16]string
	names := small[:0]
	for name := range atys {
		if !vt.HasAttribute(name) {
			return nil, ErrNoFastPath
		}
		names = append(names, name)
	}
	sort.Strings(names)
	buf = appendCollLen(buf, len(names), 0x80, 0xde, 0xdf)
	var err error
	for _, name := range names {
		buf = append(appendStrLen(buf, len(name)), name...)
		if buf, err = Append(buf, v.GetAttr(name), atys[name]); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// appendMap is Append of a known, non-null map.
func appendMap(buf []byte, v cty.Value, ty cty.Type) ([]byte, error) {
	buf = appendCollLen(buf, v.LengthInt(), 0x80, 0xde, 0xdf)
	ety := ty.ElementType()
	var err error
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		if k.IsMarked() {
			return nil, ErrNoFastPath
		}
		s := k.AsString()
		buf = append(appendStrLen(buf, len(s)), s...)
		if buf, err = Append(buf, ev, ety); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// appendElements is Append of a known, non-null list or set: an array.
func appendElements(buf []byte, v cty.Value, ty cty.Type) ([]byte, error) {
	buf = appendCollLen(buf, v.LengthInt(), 0x90, 0xdc, 0xdd)
	ety := ty.ElementType()
	var err error
	for it := v.ElementIterator(); it.Next(); {
		_, ev := it.Element()
		if buf, err = Append(buf, ev, ety); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// appendTuple is Append of a known, non-null tuple of ty's length.
func appendTuple(buf []byte, v cty.Value, ty cty.Type) ([]byte, error) {
	etys := ty.TupleElementTypes()
	buf = appendCollLen(buf, len(etys), 0x90, 0xdc, 0xdd)
	var err error
	for i, ety := range etys {
		if buf, err = Append(buf, v.Index(cty.NumberIntVal(int64(i))), ety); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// ErrNoFastPath is Append's error for a value it does not encode itself.
var ErrNoFastPath = errors.New("value needs cty's msgpack encoder")

// Nil is msgpack's nil, the encoding of every null of a static type.
const Nil = 0xc0

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
	return noPrefixOrLength(rng)
}

// noPrefixOrLength reports whether rng, not of a number type, has neither
// a string prefix nor collection length bounds.
func noPrefixOrLength(rng cty.ValueRange) bool {
	tc := rng.TypeConstraint()
	switch {
	case tc == cty.String:
		return rng.StringPrefix() == ""
	case tc.IsCollectionType():
		return rng.LengthLowerBound() == 0 && rng.LengthUpperBound() == math.MaxInt
	}
	return true
}

// primitiveTypeJSON is the JSON cty writes for the primitive type ty
// (cty.Type.MarshalJSON), or "" for any other type.
func primitiveTypeJSON(ty cty.Type) string {
	switch ty {
	case cty.String:
		return `"string"`
	case cty.Number:
		return `"number"`
	case cty.Bool:
		return `"bool"`
	}
	return ""
}

// onlyNotNull reports whether the unknown v, of exactly the type ty,
// carries the one refinement "not null" and no other that cty's msgpack
// encoding writes (no string prefix, no collection length bounds;
// numbers, whose bounds are encoded as numbers, are left to cty).
func onlyNotNull(v cty.Value, ty cty.Type) bool {
	rng := v.Range()
	tc := rng.TypeConstraint()
	if !rng.DefinitelyNotNull() || tc == cty.Number || !tc.Equals(ty) {
		return false
	}
	return noPrefixOrLength(rng)
}
