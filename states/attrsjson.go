package states

import (
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/internal/jsonstr"
	"github.com/plankit/plankit/internal/numtext"
	"github.com/plankit/plankit/providers/configschema"
)

// marshalAttrs returns exactly what ctyjson.Marshal(val, ty) returns,
// errors included. Every object the apply stores goes through it, so the
// common values — known, unmarked, without capsules or non-ASCII attribute
// names — are written here in one walk straight
// into a pooled buffer, without go-cty's per-string encoding/json call, its
// normalised cty string per attribute name, its sorted name slice per
// object and its bytes.Buffer; anything else is left to ctyjson.Marshal.
// The result is a copy at its exact size: it stays in the state for the
// rest of the run. attrsjson_test.go checks it against ctyjson.Marshal.
func marshalAttrs(val cty.Value, ty cty.Type) ([]byte, error) {
	if !configschema.Conforms(val.Type(), ty) {
		return ctyjson.Marshal(val, ty) // its error
	}
	bp := attrsBufs.Get().(*[]byte)
	b, ok := appendAttrsJSON((*bp)[:0], val, ty)
	var out []byte
	if ok {
		out = append(make([]byte, 0, len(b)), b...)
	}
	if cap(b) <= 64<<10 {
		*bp = b[:0]
		attrsBufs.Put(bp)
	}
	if !ok {
		return ctyjson.Marshal(val, ty)
	}
	return out, nil
}

var attrsBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// appendAttrsJSON appends v, of type t (v's type conforms to it), as
// ctyjson's marshal writes it. ok is false, with b in any state, for what
// it leaves to ctyjson: marks, unknowns, capsules, infinities and
// attribute names that are not ASCII (ctyjson normalises them).
func appendAttrsJSON(b []byte, v cty.Value, t cty.Type) (_ []byte, ok bool) {
	if v.IsMarked() || !v.IsKnown() {
		return b, false
	}
	if t == cty.DynamicPseudoType && v.Type() != cty.DynamicPseudoType {
		return appendDynamicJSON(b, v)
	}
	if v.IsNull() {
		return append(b, "null"...), true
	}
	switch {
	case t.IsPrimitiveType():
		return appendPrimitiveJSON(b, v, t)
	case t.IsListType(), t.IsSetType():
		return appendElementsJSON(b, v, t.ElementType(), nil)
	case t.IsTupleType():
		return appendElementsJSON(b, v, cty.NilType, t.TupleElementTypes())
	case t.IsMapType():
		return appendMapJSON(b, v, t.ElementType())
	case t.IsObjectType():
		return appendObjectJSON(b, v, t.AttributeTypes())
	}
	return b, false
}

// appendDynamicJSON writes a value of an attribute typed "any" with its
// type, so that it can be decoded.
func appendDynamicJSON(b []byte, v cty.Value) (_ []byte, ok bool) {
	vt := v.Type()
	tj, err := typeJSON(vt)
	if err != nil {
		return b, false
	}
	b = append(b, `{"value":`...)
	if b, ok = appendAttrsJSON(b, v, vt); !ok {
		return b, false
	}
	b = append(b, `,"type":`...)
	b = append(b, tj...)
	return append(b, '}'), true
}

// appendPrimitiveJSON writes a known, non-null string, number or bool.
// Infinities have no JSON form.
func appendPrimitiveJSON(b []byte, v cty.Value, t cty.Type) (_ []byte, ok bool) {
	switch t {
	case cty.String:
		return jsonstr.Append(b, v.AsString()), true
	case cty.Number:
		if v.RawEquals(cty.PositiveInfinity) || v.RawEquals(cty.NegativeInfinity) {
			return b, false
		}
		return numtext.Append(b, v.AsBigFloat()), true
	case cty.Bool:
		if v.True() {
			return append(b, "true"...), true
		}
		return append(b, "false"...), true
	}
	return b, false
}

// appendElementsJSON writes a list or set (elements of type ety) or a
// tuple (element types etys) as an array.
func appendElementsJSON(b []byte, v cty.Value, ety cty.Type, etys []cty.Type) (_ []byte, ok bool) {
	b = append(b, '[')
	i := 0
	for it := v.ElementIterator(); it.Next(); {
		if i > 0 {
			b = append(b, ',')
		}
		_, ev := it.Element()
		if etys != nil {
			ety = etys[i]
		}
		if b, ok = appendAttrsJSON(b, ev, ety); !ok {
			return b, false
		}
		i++
	}
	return append(b, ']'), true
}

// appendMapJSON writes a map as an object, in the map's key order.
func appendMapJSON(b []byte, v cty.Value, ety cty.Type) (_ []byte, ok bool) {
	b = append(b, '{')
	first := true
	for it := v.ElementIterator(); it.Next(); {
		if !first {
			b = append(b, ',')
		}
		first = false
		ek, ev := it.Element()
		b = jsonstr.Append(b, ek.AsString())
		b = append(b, ':')
		if b, ok = appendAttrsJSON(b, ev, ety); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// appendObjectJSON writes an object with its attributes sorted by name;
// not for names that are not ASCII (ctyjson normalises them).
func appendObjectJSON(b []byte, v cty.Value, atys map[string]cty.Type) (_ []byte, ok bool) {
	var buf [16]string
	names := buf[:0]
	for k := range atys {
		for i := 0; i < len(k); i++ {
			if k[i] >= utf8.RuneSelf {
				return b, false
			}
		}
		names = append(names, k)
	}
	sort.Strings(names)
	b = append(b, '{')
	for i, k := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonstr.Append(b, k)
		b = append(b, ':')
		if b, ok = appendAttrsJSON(b, v.GetAttr(k), atys[k]); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// typeJSON is ctyjson.MarshalType(t), without its allocations for the
// primitive types.
func typeJSON(t cty.Type) ([]byte, error) {
	switch t {
	case cty.String:
		return []byte(`"string"`), nil
	case cty.Number:
		return []byte(`"number"`), nil
	case cty.Bool:
		return []byte(`"bool"`), nil
	}
	return ctyjson.MarshalType(t)
}
