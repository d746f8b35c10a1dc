package jsonplan

// The encoder this package used before the appenders of valuejson.go:
// rebuild the value without its unknowns (or a mirror of booleans), then
// marshal it with ctyjson. Kept as the model the appenders are checked
// against (TestAppendersMatchReference, FuzzAppendersMatchReference).

import (
	"encoding/json"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/providers"
)

// refMarshalValue encodes a known value as JSON; unknowns inside are left out
// (object attributes) or become null (sequence elements), as the JSON plan
// format expects next to after_unknown. A nil or null value gives "null".
// O(size of v).
func refMarshalValue(v cty.Value) (json.RawMessage, error) {
	if v == cty.NilVal {
		return json.RawMessage("null"), nil
	}
	v, _ = v.UnmarkDeep()
	v = refOmitUnknowns(v)
	if v == cty.NilVal || v.IsNull() {
		return json.RawMessage("null"), nil
	}
	return ctyjson.Marshal(v, v.Type())
}

// refOmitUnknowns drops unknown object attributes and map elements and turns
// unknown sequence elements into nulls; a wholly unknown value gives NilVal.
func refOmitUnknowns(v cty.Value) cty.Value {
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
			ev = refOmitUnknowns(ev)
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
			if ev = refOmitUnknowns(ev); ev != cty.NilVal {
				vals[k.AsString()] = ev
			}
		}
		return cty.ObjectVal(vals)
	}
	return v
}

// refUnknownAsBool mirrors v's structure with true at every unknown leaf:
// known leaves are false, and false entries of objects and maps are left
// out ("after_unknown").
func refUnknownAsBool(v cty.Value) cty.Value {
	if v == cty.NilVal {
		return cty.False
	}
	v, _ = v.UnmarkDeep()
	return refAsBool(v, func(x cty.Value) bool { return !x.IsKnown() }, false)
}

// refSensitiveAsBool mirrors v's structure with true at every value marked
// sensitive ("before_sensitive", "after_sensitive", "sensitive_values").
// An unknown collection, object or tuple is [] or {} (nothing can be said
// of its parts yet), and kept in its parent, as Terraform writes it.
func refSensitiveAsBool(v cty.Value) cty.Value {
	if v == cty.NilVal {
		return cty.False
	}
	return refAsBool(v, func(x cty.Value) bool { return x.HasMark(marks.Sensitive) }, true)
}

// refAsBool is the shared walk of unknownAsBool and sensitiveAsBool;
// emptyUnknown makes an unknown structured value [] or {} instead of
// false. O(size).
func refAsBool(v cty.Value, leaf func(cty.Value) bool, emptyUnknown bool) cty.Value {
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
			vals = append(vals, refAsBool(ev, leaf, emptyUnknown))
		}
		if len(vals) == 0 {
			return cty.EmptyTupleVal
		}
		return cty.TupleVal(vals)
	case ty.IsMapType() || ty.IsObjectType():
		vals := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if b := refAsBool(ev, leaf, emptyUnknown); !b.RawEquals(cty.False) {
				vals[k.AsString()] = b
			}
		}
		return cty.ObjectVal(vals)
	}
	return cty.False
}

// refMarshalBools encodes the result of unknownAsBool/sensitiveAsBool.
func refMarshalBools(v cty.Value) json.RawMessage {
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return json.RawMessage("false")
	}
	return b
}

// valueGen makes a cty.Value from fuzz bytes: first a type, then a value
// of it with unknowns, nulls and sensitive marks at any depth.
type valueGen struct{ data []byte }

func (g *valueGen) next() byte {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return b
}

var genStrings = []string{"", "a", "b c", "<&>", "\"q\"\\", "naïve", "line\u2028sep", "\x01\x1f\t\n\r\b\f", "\xff\xfe", "ü", "0"}

var genNumbers = []string{"0", "-1", "7", "1.5", "-0.25", "1e30", "123456789012345678901234567890", "9223372036854775807", "-9223372036854775808", "0.1"}

func (g *valueGen) typ(depth int) cty.Type {
	k := g.next() % 9
	if depth > 3 {
		k %= 3
	}
	switch k {
	case 0:
		return cty.String
	case 1:
		return cty.Number
	case 2:
		return cty.Bool
	case 3:
		return cty.List(g.typ(depth + 1))
	case 4:
		return cty.Set(g.typ(depth + 1))
	case 5:
		return cty.Map(g.typ(depth + 1))
	case 6:
		return cty.Object(map[string]cty.Type{"a": g.typ(depth + 1), "b<": g.typ(depth + 1)})
	case 7:
		return cty.Tuple([]cty.Type{g.typ(depth + 1), g.typ(depth + 1)})
	}
	return cty.DynamicPseudoType
}

func (g *valueGen) value(ty cty.Type) cty.Value {
	c := g.next()
	var v cty.Value
	switch {
	case c%7 == 1:
		v = cty.UnknownVal(ty)
	case c%7 == 2 || ty == cty.DynamicPseudoType:
		v = cty.NullVal(ty)
	case ty == cty.String:
		v = cty.StringVal(genStrings[int(g.next())%len(genStrings)])
	case ty == cty.Number:
		v = cty.MustParseNumberVal(genNumbers[int(g.next())%len(genNumbers)])
	case ty == cty.Bool:
		v = cty.BoolVal(g.next()%2 == 0)
	case ty.IsObjectType():
		attrs := map[string]cty.Value{}
		for name, at := range ty.AttributeTypes() {
			attrs[name] = g.value(at)
		}
		v = cty.ObjectVal(attrs)
	case ty.IsTupleType():
		var elems []cty.Value
		for _, et := range ty.TupleElementTypes() {
			elems = append(elems, g.value(et))
		}
		v = cty.TupleVal(elems)
	default:
		n := int(g.next() % 4)
		et := ty.ElementType()
		switch {
		case n == 0 && ty.IsListType():
			v = cty.ListValEmpty(et)
		case n == 0 && ty.IsSetType():
			v = cty.SetValEmpty(et)
		case n == 0:
			v = cty.MapValEmpty(et)
		case ty.IsMapType():
			elems := map[string]cty.Value{}
			for i := range n {
				elems[genStrings[(i*3+int(g.next()))%len(genStrings)]] = g.value(et)
			}
			v = cty.MapVal(elems)
		default:
			var elems []cty.Value
			for range n {
				elems = append(elems, g.value(et))
			}
			if ty.IsListType() {
				v = cty.ListVal(elems)
			} else {
				v = cty.SetVal(elems)
			}
		}
	}
	if g.next()%5 == 0 {
		v = v.Mark(marks.Sensitive)
	}
	return v
}

// checkAppenders compares the appenders with the reference encoder on v.
func checkAppenders(t *testing.T, v cty.Value) {
	t.Helper()
	want, wantErr := refMarshalValue(v)
	got, gotErr := marshalValue(v)
	if (wantErr != nil) != (gotErr != nil) || string(want) != string(got) {
		t.Errorf("value %#v:\n got %s (%v)\nwant %s (%v)", v, got, gotErr, want, wantErr)
	}
	if w, g := refMarshalBools(refUnknownAsBool(v)), unknownBoolsJSON(v); string(w) != string(g) {
		t.Errorf("after_unknown of %#v:\n got %s\nwant %s", v, g, w)
	}
	if w, g := refMarshalBools(refSensitiveAsBool(v)), sensitiveBoolsJSON(v); string(w) != string(g) {
		t.Errorf("sensitive of %#v:\n got %s\nwant %s", v, g, w)
	}
	// The one-walk form of all three.
	val, unknown, sens, err := valueJSON(v, true)
	if (wantErr != nil) != (err != nil) {
		t.Errorf("valueJSON of %#v: err %v, want %v", v, err, wantErr)
	} else if wantErr == nil {
		if w := refMarshalBools(refUnknownAsBool(v)); string(val) != string(want) || string(unknown) != string(w) || string(sens) != string(refMarshalBools(refSensitiveAsBool(v))) {
			t.Errorf("valueJSON of %#v:\n got %s %s %s\nwant %s %s %s", v, val, unknown, sens, want, w, refMarshalBools(refSensitiveAsBool(v)))
		}
	}
	if _, u, _, _ := valueJSON(v, false); u != nil {
		t.Errorf("valueJSON without after_unknown gave %s", u)
	}
}

// TestAppendersMatchReference: the one-pass appenders write what the
// rebuild-and-marshal encoder wrote, for every value of variedPlan and
// for values made from a spread of seeds.
func TestAppendersMatchReference(t *testing.T) {
	p := variedPlan(t)
	for _, rc := range append(p.Changes.Resources, p.DriftedResources...) {
		schema := providers.ResourceSchema(p.ProviderSchemas, rc.ProviderAddr.Provider, rc.Addr.Resource.Resource)
		before, after := rc.Change.Marked(schema)
		checkAppenders(t, before)
		checkAppenders(t, after)
	}
	checkAppenders(t, cty.NilVal)
	checkAppenders(t, cty.PositiveInfinity)
	for seed := range 2000 {
		data := make([]byte, 64)
		x := uint32(seed)*2654435761 + 1
		for i := range data {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			data[i] = byte(x)
		}
		g := &valueGen{data: data}
		checkAppenders(t, g.value(g.typ(0)))
	}
}

func FuzzAppendersMatchReference(f *testing.F) {
	f.Add([]byte{6, 3, 0, 3, 3, 1, 2, 4})
	f.Add([]byte{3, 6, 0, 1, 0, 9, 0, 2, 5, 1, 5})
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &valueGen{data: data}
		checkAppenders(t, g.value(g.typ(0)))
	})
}
