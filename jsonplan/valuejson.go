package jsonplan

import (
	"fmt"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/internal/numtext"
)

// The appenders below write a cty.Value's JSON straight into a byte
// slice, walking the value once: no rebuilt value without its unknowns,
// no mirror value of booleans, no reflection. They give the bytes
// go-cty's ctyjson.Marshal gives for the values the JSON plan format
// describes (see values_ref_test.go for the rebuild-then-marshal model
// they are checked against). Marks are ignored except where they are the
// question (sensitivity). Each is O(size of v) and allocates only for
// numbers that are not small integers and for strings that need escaping.

// appendValue appends the JSON of a value as before/after/values hold
// it: unknown object attributes and map elements are left out, unknown
// sequence elements are null, and a nil, null or wholly unknown value is
// null.
func appendValue(b []byte, v cty.Value) ([]byte, error) {
	if v == cty.NilVal {
		return append(b, "null"...), nil
	}
	v, _ = v.Unmark()
	if !v.IsKnown() {
		return append(b, "null"...), nil
	}
	return appendKnown(b, v)
}

// appendKnown appends a known (but perhaps null) value; its parts may be
// marked or unknown.
func appendKnown(b []byte, v cty.Value) ([]byte, error) {
	if v.IsNull() {
		return append(b, "null"...), nil
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return appendJSONString(b, v.AsString()), nil
	case ty == cty.Bool:
		if v.True() {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case ty == cty.Number:
		return appendNumber(b, v)
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		b = append(b, '[')
		first := true
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			if !first {
				b = append(b, ',')
			}
			first = false
			ev, _ = ev.Unmark()
			if !ev.IsKnown() {
				b = append(b, "null"...)
				continue
			}
			var err error
			if b, err = appendKnown(b, ev); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case ty.IsObjectType():
		b = append(b, '{')
		first := true
		var buf [16]string
		for _, name := range sortedAttributes(ty, buf[:0]) {
			ev, _ := v.GetAttr(name).Unmark()
			if !ev.IsKnown() {
				continue
			}
			var err error
			if b, err = appendMember(b, !first, name, ev); err != nil {
				return b, err
			}
			first = false
		}
		return append(b, '}'), nil
	case ty.IsMapType():
		b = append(b, '{')
		first := true
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			ev, _ = ev.Unmark()
			if !ev.IsKnown() {
				continue
			}
			var err error
			if b, err = appendMember(b, !first, k.AsString(), ev); err != nil {
				return b, err
			}
			first = false
		}
		return append(b, '}'), nil
	}
	return b, fmt.Errorf("cannot write a value of type %s as JSON", ty.FriendlyName())
}

// appendMember appends one "name":value member of an object or map,
// after a comma unless it is the first; ev is known and unmarked.
func appendMember(b []byte, comma bool, name string, ev cty.Value) ([]byte, error) {
	if comma {
		b = append(b, ',')
	}
	b = appendJSONString(b, name)
	b = append(b, ':')
	return appendKnown(b, ev)
}

// appendNumber writes a number as ctyjson does (decimal, no exponent);
// integers that fit an int64 take the allocation-free path.
func appendNumber(b []byte, v cty.Value) ([]byte, error) {
	if v.RawEquals(cty.PositiveInfinity) || v.RawEquals(cty.NegativeInfinity) {
		return b, fmt.Errorf("cannot write infinity as JSON")
	}
	return numtext.Append(b, v.AsBigFloat()), nil
}

// appendUnknownBools appends after_unknown: v's structure with true at
// every unknown part, false at known leaves, and the false entries of
// objects and maps left out. A nil value is false.
func appendUnknownBools(b []byte, v cty.Value) []byte {
	if v == cty.NilVal {
		return append(b, "false"...)
	}
	return appendBools(b, v, false)
}

// appendSensitiveBools appends before_sensitive/after_sensitive/
// sensitive_values: v's structure with true at every part marked
// sensitive; an unknown collection, object or tuple is [] or {} (nothing
// can be said of its parts yet). A nil value is false.
func appendSensitiveBools(b []byte, v cty.Value) []byte {
	if v == cty.NilVal {
		return append(b, "false"...)
	}
	return appendBools(b, v, true)
}

// appendBools is the walk of both: sensitive chooses the question (the
// sensitive mark, or being unknown) and the empty form of unknown
// structures.
func appendBools(b []byte, v cty.Value, sensitive bool) []byte {
	v, m := v.Unmark()
	if sensitive {
		if _, ok := m[marks.Sensitive]; ok {
			return append(b, "true"...)
		}
	} else if !v.IsKnown() {
		return append(b, "true"...)
	}
	ty := v.Type()
	seq := ty.IsListType() || ty.IsSetType() || ty.IsTupleType()
	obj := ty.IsMapType() || ty.IsObjectType()
	if !v.IsKnown() {
		switch {
		case seq:
			return append(b, "[]"...)
		case obj:
			return append(b, "{}"...)
		}
		return append(b, "false"...)
	}
	if v.IsNull() {
		return append(b, "false"...)
	}
	switch {
	case seq:
		b = append(b, '[')
		first := true
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendBools(b, ev, sensitive)
		}
		return append(b, ']')
	case obj:
		b = append(b, '{')
		first := true
		entry := func(name string, ev cty.Value) {
			mark := len(b)
			if !first {
				b = append(b, ',')
			}
			b = appendJSONString(b, name)
			b = append(b, ':')
			at := len(b)
			b = appendBools(b, ev, sensitive)
			if string(b[at:]) == "false" {
				b = b[:mark] // false entries are left out
				return
			}
			first = false
		}
		if ty.IsObjectType() {
			var buf [16]string
			for _, name := range sortedAttributes(ty, buf[:0]) {
				entry(name, v.GetAttr(name))
			}
		} else {
			for it := v.ElementIterator(); it.Next(); {
				k, ev := it.Element()
				entry(k.AsString(), ev)
			}
		}
		return append(b, '}')
	}
	return append(b, "false"...)
}

// sortedAttributes appends the attribute names of object type ty to buf
// in the order cty iterates them (sorted), without the cty string values
// an ElementIterator makes for every name.
func sortedAttributes(ty cty.Type, buf []string) []string {
	for name := range ty.AttributeTypes() {
		buf = append(buf, name)
	}
	slices.Sort(buf)
	return buf
}
