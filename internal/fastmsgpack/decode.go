package fastmsgpack

import (
	"github.com/zclconf/go-cty/cty"
)

// Decode decodes msgpack bytes of type ty as go-cty's msgpack.Unmarshal
// does, calling the same cty constructors in the same order, for the forms
// plans and provider responses are made of: nil, strings, booleans,
// integers, unknowns without refinements or refined only as not null,
// objects, lists, sets, maps, tuples and dynamic values of a primitive
// type. It reads straight from b, without the generic decoder, reader and
// error path the library keeps per value. ok is false for anything else,
// and for anything the library would refuse or read differently (floats,
// big numbers as strings, binary strings, other refinements, objects of
// the wrong size): the caller then decodes with msgpack.Unmarshal, which
// gives the value or its error. TestDecodeMatchesCty,
// TestDecodeRandomMatchesCty and FuzzDecodeMatchesCty hold the two to the
// same values. Trailing bytes are ignored, as the library does. Hostile
// bytes give ok false, never a panic, and allocations stay proportional
// to len(b).
func Decode(b []byte, ty cty.Type) (v cty.Value, ok bool) {
	defer func() {
		if recover() != nil { // a constructor refused; the library will say why
			v, ok = cty.NilVal, false
		}
	}()
	d := fastMsgpack{b: b}
	return d.value(ty, 0)
}

// fastMsgpackMaxDepth bounds the nesting the fast decoder follows; deeper
// values go to the library.
const fastMsgpackMaxDepth = 64

type fastMsgpack struct{ b []byte }

// value reads a value of type ty: an unknown (extension), a dynamic
// value, a null, a primitive or a collection, each by its own method.
func (d *fastMsgpack) value(ty cty.Type, depth int) (cty.Value, bool) {
	if len(d.b) == 0 || depth > fastMsgpackMaxDepth {
		return cty.NilVal, false
	}
	c := d.b[0]
	if c == 0xd4 || (c >= 0xd5 && c <= 0xd8) || (c >= 0xc7 && c <= 0xc9) {
		return d.unknown(ty)
	}
	if ty == cty.DynamicPseudoType {
		return d.dynamic(depth)
	}
	if c == 0xc0 {
		d.b = d.b[1:]
		return cty.NullVal(ty), true
	}
	switch {
	case ty == cty.String:
		s, ok := d.str()
		if !ok {
			return cty.NilVal, false
		}
		return cty.StringVal(s), true
	case ty == cty.Bool:
		switch c {
		case 0xc2, 0xc3:
			d.b = d.b[1:]
			return cty.BoolVal(c == 0xc3), true
		}
		return cty.NilVal, false
	case ty == cty.Number:
		return d.number()
	case ty.IsObjectType():
		return d.object(ty, depth)
	case ty.IsListType(), ty.IsSetType():
		return d.listOrSet(ty, depth)
	case ty.IsTupleType():
		return d.tuple(ty, depth)
	case ty.IsMapType():
		return d.mapValue(ty, depth)
	}
	return cty.NilVal, false
}

// unknown reads an extension: the unknown values the fast path knows
// (none other than a fixext1, or an ext8 of refinements meaning "not
// null"); any other extension, another refinement, goes to the library.
func (d *fastMsgpack) unknown(ty cty.Type) (cty.Value, bool) {
	switch {
	case d.b[0] == 0xd4: // fixext1: an unknown value without refinements
		if len(d.b) < 3 {
			return cty.NilVal, false
		}
		d.b = d.b[3:]
		return cty.UnknownVal(ty), true
	case d.b[0] == 0xc7 && len(d.b) >= 6 && d.b[1] == 3 && d.b[2] == 0x0c && d.b[3] == 0x81 && d.b[4] == 0x01 && d.b[5] == 0xc2:
		// ext8 of type 0x0c holding {1: false}: an unknown known not to
		// be null, the one refinement plans are full of (a dynamic
		// value's refinements are dropped, as the library does)
		d.b = d.b[6:]
		if ty == cty.DynamicPseudoType {
			return cty.UnknownVal(ty), true
		}
		return cty.UnknownVal(ty).Refine().NotNull().NewValue(), true
	}
	return cty.NilVal, false
}

// object reads an object of type ty: a map of exactly its attributes.
func (d *fastMsgpack) object(ty cty.Type, depth int) (cty.Value, bool) {
	n, ok := d.mapLen()
	if !ok {
		return cty.NilVal, false
	}
	if n == 0 {
		return cty.ObjectVal(nil), true
	}
	atys := ty.AttributeTypes()
	if n != len(atys) {
		return cty.NilVal, false
	}
	vals := make(map[string]cty.Value, n)
	for range n {
		key, ok := d.str()
		if !ok {
			return cty.NilVal, false
		}
		aty, exists := atys[key]
		if !exists {
			return cty.NilVal, false
		}
		if vals[key], ok = d.value(aty, depth+1); !ok {
			return cty.NilVal, false
		}
	}
	return cty.ObjectVal(vals), true
}

// listOrSet reads a list or a set of type ty from an array.
func (d *fastMsgpack) listOrSet(ty cty.Type, depth int) (cty.Value, bool) {
	n, ok := d.arrayLen()
	if !ok {
		return cty.NilVal, false
	}
	ety := ty.ElementType()
	if n == 0 {
		if ty.IsListType() {
			return cty.ListValEmpty(ety), true
		}
		return cty.SetValEmpty(ety), true
	}
	vals, ok := d.values(n, func(int) cty.Type { return ety }, depth)
	if !ok {
		return cty.NilVal, false
	}
	if ty.IsListType() {
		return cty.ListVal(vals), true
	}
	return cty.SetVal(vals), true
}

// tuple reads a tuple of type ty from an array of its length.
func (d *fastMsgpack) tuple(ty cty.Type, depth int) (cty.Value, bool) {
	n, ok := d.arrayLen()
	if !ok {
		return cty.NilVal, false
	}
	if n == 0 {
		return cty.TupleVal(nil), true
	}
	etys := ty.TupleElementTypes()
	if n != len(etys) {
		return cty.NilVal, false
	}
	vals, ok := d.values(n, func(i int) cty.Type { return etys[i] }, depth)
	if !ok {
		return cty.NilVal, false
	}
	return cty.TupleVal(vals), true
}

// mapValue reads a map of type ty.
func (d *fastMsgpack) mapValue(ty cty.Type, depth int) (cty.Value, bool) {
	n, ok := d.mapLen()
	if !ok {
		return cty.NilVal, false
	}
	ety := ty.ElementType()
	if n == 0 {
		return cty.MapValEmpty(ety), true
	}
	vals := make(map[string]cty.Value, n)
	for range n {
		key, ok := d.str()
		if !ok {
			return cty.NilVal, false
		}
		if vals[key], ok = d.value(ety, depth+1); !ok {
			return cty.NilVal, false
		}
	}
	return cty.MapVal(vals), true
}

// values reads n elements, the i-th of type ety(i).
func (d *fastMsgpack) values(n int, ety func(int) cty.Type, depth int) ([]cty.Value, bool) {
	vals := make([]cty.Value, 0, n)
	for i := range n {
		v, ok := d.value(ety(i), depth+1)
		if !ok {
			return nil, false
		}
		vals = append(vals, v)
	}
	return vals, true
}

// dynamic reads a value of a type given with it: [type JSON, value]. The
// primitive types' JSON is recognised here; any other goes to the
// library.
func (d *fastMsgpack) dynamic(depth int) (cty.Value, bool) {
	switch d.b[0] {
	case 0xc0: // nil: a null of no particular type
		d.b = d.b[1:]
		return cty.NullVal(cty.DynamicPseudoType), true
	case 0x92: // a fixarray of two
	default:
		return cty.NilVal, false // other lengths: the library's error
	}
	d.b = d.b[1:]
	if len(d.b) < 2 || d.b[0] != 0xc4 { // bin8, as the library writes the type
		return cty.NilVal, false
	}
	n := int(d.b[1])
	if len(d.b) < 2+n {
		return cty.NilVal, false
	}
	var ty cty.Type
	switch string(d.b[2 : 2+n]) {
	case `"string"`:
		ty = cty.String
	case `"number"`:
		ty = cty.Number
	case `"bool"`:
		ty = cty.Bool
	default:
		return cty.NilVal, false
	}
	d.b = d.b[2+n:]
	return d.value(ty, depth+1)
}

// str reads a msgpack string (fixstr, str8, str16, str32).
func (d *fastMsgpack) str() (string, bool) {
	if len(d.b) == 0 {
		return "", false
	}
	c := d.b[0]
	var n, h int
	switch {
	case c >= 0xa0 && c <= 0xbf:
		n, h = int(c&0x1f), 1
	case c == 0xd9 && len(d.b) >= 2:
		n, h = int(d.b[1]), 2
	case c == 0xda && len(d.b) >= 3:
		n, h = int(bigEndian(d.b[1:3])), 3
	case c == 0xdb && len(d.b) >= 5:
		n, h = int(bigEndian(d.b[1:5])), 5
	default:
		return "", false
	}
	if n < 0 || len(d.b)-h < n {
		return "", false
	}
	s := string(d.b[h : h+n])
	d.b = d.b[h+n:]
	return s, true
}

// number reads an integer: NumberIntVal for the signed forms and
// NumberUIntVal for the unsigned ones, as the library does.
func (d *fastMsgpack) number() (cty.Value, bool) {
	c := d.b[0]
	if c <= 0x7f || c >= 0xe0 { // positive and negative fixint
		d.b = d.b[1:]
		return cty.NumberIntVal(int64(int8(c))), true
	}
	size := 0
	switch c {
	case 0xcc, 0xd0:
		size = 1
	case 0xcd, 0xd1:
		size = 2
	case 0xce, 0xd2:
		size = 4
	case 0xcf, 0xd3:
		size = 8
	default:
		return cty.NilVal, false // floats and numbers as strings
	}
	if len(d.b) < 1+size {
		return cty.NilVal, false
	}
	u := bigEndian(d.b[1 : 1+size])
	d.b = d.b[1+size:]
	if c >= 0xd0 { // signed
		var i int64
		switch size {
		case 1:
			i = int64(int8(u))
		case 2:
			i = int64(int16(u))
		case 4:
			i = int64(int32(u))
		case 8:
			i = int64(u)
		}
		return cty.NumberIntVal(i), true
	}
	return cty.NumberUIntVal(u), true
}

// arrayLen reads an array header (fixarray, array16, array32).
func (d *fastMsgpack) arrayLen() (int, bool) {
	return d.length(0x90, 0xdc, 0xdd)
}

// mapLen reads a map header (fixmap, map16, map32).
func (d *fastMsgpack) mapLen() (int, bool) {
	return d.length(0x80, 0xde, 0xdf)
}

func (d *fastMsgpack) length(fix, c16, c32 byte) (int, bool) {
	c := d.b[0]
	var n, h int
	switch {
	case c >= fix && c <= fix+0x0f:
		n, h = int(c-fix), 1
	case c == c16 && len(d.b) >= 3:
		n, h = int(bigEndian(d.b[1:3])), 3
	case c == c32 && len(d.b) >= 5:
		n, h = int(bigEndian(d.b[1:5])), 5
	default:
		return 0, false
	}
	// Every element takes at least a byte: a longer count than the bytes
	// left is malformed, and the library, reading the elements, says so.
	// Refusing it here keeps hostile counts from sizing allocations.
	if n > len(d.b)-h {
		return 0, false
	}
	d.b = d.b[h:]
	return n, true
}
