package jsonplan

import (
	"encoding/json"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/lang/marks"
)

// marshalValue encodes a known value as JSON; unknowns inside are left out
// (object attributes) or become null (sequence elements), as the JSON plan
// format expects next to after_unknown. A nil or null value gives "null".
// O(size of v).
func marshalValue(v cty.Value) (json.RawMessage, error) {
	if v == cty.NilVal {
		return json.RawMessage("null"), nil
	}
	v, _ = v.UnmarkDeep()
	v = omitUnknowns(v)
	if v == cty.NilVal || v.IsNull() {
		return json.RawMessage("null"), nil
	}
	return ctyjson.Marshal(v, v.Type())
}

// omitUnknowns drops unknown object attributes and map elements and turns
// unknown sequence elements into nulls; a wholly unknown value gives NilVal.
func omitUnknowns(v cty.Value) cty.Value {
	if !v.IsKnown() {
		return cty.NilVal
	}
	ty := v.Type()
	switch {
	case v.IsNull() || ty.IsPrimitiveType():
		return v
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		var vals []cty.Value
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			ev = omitUnknowns(ev)
			if ev == cty.NilVal {
				ev = cty.NullVal(cty.DynamicPseudoType)
			}
			vals = append(vals, ev)
		}
		if len(vals) == 0 {
			return cty.EmptyTupleVal
		}
		return cty.TupleVal(vals)
	case ty.IsMapType() || ty.IsObjectType():
		vals := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if ev = omitUnknowns(ev); ev != cty.NilVal {
				vals[k.AsString()] = ev
			}
		}
		return cty.ObjectVal(vals)
	}
	return v
}

// unknownAsBool mirrors v's structure with true at every unknown leaf:
// known leaves are false, and false entries of objects and maps are left
// out ("after_unknown").
func unknownAsBool(v cty.Value) cty.Value {
	if v == cty.NilVal {
		return cty.False
	}
	v, _ = v.UnmarkDeep()
	return asBool(v, func(x cty.Value) bool { return !x.IsKnown() }, false)
}

// sensitiveAsBool mirrors v's structure with true at every value marked
// sensitive ("before_sensitive", "after_sensitive", "sensitive_values").
// An unknown collection, object or tuple is [] or {} (nothing can be said
// of its parts yet), and kept in its parent, as Terraform writes it.
func sensitiveAsBool(v cty.Value) cty.Value {
	if v == cty.NilVal {
		return cty.False
	}
	return asBool(v, func(x cty.Value) bool { return x.HasMark(marks.Sensitive) }, true)
}

// asBool is the shared walk of unknownAsBool and sensitiveAsBool;
// emptyUnknown makes an unknown structured value [] or {} instead of
// false. O(size).
func asBool(v cty.Value, leaf func(cty.Value) bool, emptyUnknown bool) cty.Value {
	if leaf(v) {
		return cty.True
	}
	v, _ = v.Unmark()
	ty := v.Type()
	if !v.IsKnown() && emptyUnknown {
		switch {
		case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
			return cty.EmptyTupleVal
		case ty.IsMapType() || ty.IsObjectType():
			return cty.EmptyObjectVal
		}
	}
	if !v.IsKnown() || v.IsNull() || ty.IsPrimitiveType() || ty == cty.DynamicPseudoType {
		return cty.False
	}
	switch {
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		var vals []cty.Value
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			vals = append(vals, asBool(ev, leaf, emptyUnknown))
		}
		if len(vals) == 0 {
			return cty.EmptyTupleVal
		}
		return cty.TupleVal(vals)
	case ty.IsMapType() || ty.IsObjectType():
		vals := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if b := asBool(ev, leaf, emptyUnknown); !b.RawEquals(cty.False) {
				vals[k.AsString()] = b
			}
		}
		return cty.ObjectVal(vals)
	}
	return cty.False
}

// marshalBools encodes the result of unknownAsBool/sensitiveAsBool.
func marshalBools(v cty.Value) json.RawMessage {
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return json.RawMessage("false")
	}
	return b
}
