package providers

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/providers/configschema"
)

// decodeStateFast decodes a stored object's attributes JSON into the
// schema's implied type in one pass over raw: unknown attributes are
// skipped while reading rather than pruned into a re-encoded copy, and
// values are built straight from the bytes rather than through
// encoding/json tokens and a decoder per nested value (the general path,
// pruneJSON then cty's json.Unmarshal, allocates a multiple of the size
// of raw; a re-plan decodes every object in the state this way).
//
// It gives exactly what the general path gives, or ok=false: on anything
// it does not handle the same way, however rare or malformed (escaped or
// repeated keys, strings standing for numbers or bools, collections of
// dynamic types, syntax errors), and the caller then takes the general
// path, which also words every error. O(len(raw)), no allocation beyond
// the values.
func decodeStateFast(schema *configschema.Block, raw []byte) (v cty.Value, ok bool) {
	defer func() {
		if recover() != nil { // a cty constructor refused a value: let the general path decide
			v, ok = cty.NilVal, false
		}
	}()
	d := fastDecoder{b: raw}
	d.space()
	if d.peek() != '{' {
		return cty.NilVal, false
	}
	v, ok = d.block(schema)
	d.space()
	if !ok || d.i != len(d.b) {
		return cty.NilVal, false
	}
	return v, true
}

// fastDecoder reads JSON from b at i. Its methods report ok=false as soon
// as the input leaves what decodeStateFast handles.
type fastDecoder struct {
	b []byte
	i int
}

func (d *fastDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, 0 at the end.
func (d *fastDecoder) peek() byte {
	d.space()
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

// lit consumes the literal word (null, true, false) if it is next.
func (d *fastDecoder) lit(word string) bool {
	d.space()
	if len(d.b)-d.i >= len(word) && string(d.b[d.i:d.i+len(word)]) == word {
		d.i += len(word)
		return true
	}
	return false
}

// members calls each for every key of the object at i (which must start
// with '{'), with i at the key's value; each must consume the value.
func (d *fastDecoder) members(each func(key string) bool) bool {
	if d.peek() != '{' {
		return false
	}
	d.i++
	if d.peek() == '}' {
		d.i++
		return true
	}
	for {
		key, ok := d.plainString()
		if !ok || d.peek() != ':' {
			return false
		}
		d.i++
		if !each(key) {
			return false
		}
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			return true
		default:
			return false
		}
	}
}

// elements calls each for every element of the array at i.
func (d *fastDecoder) elements(each func() bool) bool {
	if d.peek() != '[' {
		return false
	}
	d.i++
	if d.peek() == ']' {
		d.i++
		return true
	}
	for {
		if !each() {
			return false
		}
		switch d.peek() {
		case ',':
			d.i++
		case ']':
			d.i++
			return true
		default:
			return false
		}
	}
}

// plainString reads a string with no escapes, no control characters and
// valid UTF-8; anything else is left to the general path (keys) or to
// encoding/json (string values, see str).
func (d *fastDecoder) plainString() (string, bool) {
	if d.peek() != '"' {
		return "", false
	}
	start := d.i + 1
	for j := start; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			s := d.b[start:j]
			if !utf8.Valid(s) {
				return "", false
			}
			d.i = j + 1
			return string(s), true
		case c == '\\' || c < 0x20:
			return "", false
		}
	}
	return "", false
}

// str reads any string value as encoding/json decodes it.
func (d *fastDecoder) str() (string, bool) {
	if s, ok := d.plainString(); ok {
		return s, true
	}
	start := d.i
	if !d.skipString() {
		return "", false
	}
	var s string
	if json.Unmarshal(d.b[start:d.i], &s) != nil {
		return "", false
	}
	return s, true
}

// skipString skips a string value, checking its syntax.
func (d *fastDecoder) skipString() bool {
	if d.peek() != '"' {
		return false
	}
	for j := d.i + 1; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			d.i = j + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			j++
			if j >= len(d.b) {
				return false
			}
			switch d.b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(d.b) {
					return false
				}
				for _, h := range d.b[j+1 : j+5] {
					if !isHex(h) {
						return false
					}
				}
				j += 4
			default:
				return false
			}
		}
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// number reads a number literal in JSON's grammar and returns its text.
func (d *fastDecoder) number() (string, bool) {
	d.space()
	b, j := d.b, d.i
	digits := func() bool {
		k := j
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
		return j > k
	}
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case !digits():
		return "", false
	}
	if j < len(b) && b[j] == '.' {
		j++
		if !digits() {
			return "", false
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if !digits() {
			return "", false
		}
	}
	s := string(b[d.i:j])
	d.i = j
	return s, true
}

// skip skips any value, checking its syntax.
func (d *fastDecoder) skip() bool {
	switch c := d.peek(); {
	case c == '{':
		return d.members(func(string) bool { return d.skip() })
	case c == '[':
		return d.elements(d.skip)
	case c == '"':
		return d.skipString()
	case c == '-' || '0' <= c && c <= '9':
		_, ok := d.number()
		return ok
	default:
		return d.lit("null") || d.lit("true") || d.lit("false")
	}
}

// block reads an object of schema's attributes and nested blocks,
// skipping keys the schema does not have, as pruneJSON drops them.
func (d *fastDecoder) block(schema *configschema.Block) (cty.Value, bool) {
	vals := make(map[string]cty.Value, len(schema.Attributes)+len(schema.BlockTypes))
	ok := d.members(func(key string) bool {
		if _, dup := vals[key]; dup {
			return false // the general path keeps the last; leave it to that
		}
		if a, ok := schema.Attributes[key]; ok {
			v, ok := d.value(a.ImpliedType())
			vals[key] = v
			return ok
		}
		if nb, ok := schema.BlockTypes[key]; ok {
			v, ok := d.nestedBlock(nb)
			vals[key] = v
			return ok
		}
		return d.skip()
	})
	if !ok {
		return cty.NilVal, false
	}
	for name, a := range schema.Attributes {
		if _, ok := vals[name]; !ok {
			vals[name] = cty.NullVal(a.ImpliedType())
		}
	}
	for name, nb := range schema.BlockTypes {
		if _, ok := vals[name]; !ok {
			vals[name] = cty.NullVal(nb.ImpliedType())
		}
	}
	return cty.ObjectVal(vals), true
}

// nestedBlock reads a nested block's value by its nesting mode.
func (d *fastDecoder) nestedBlock(nb *configschema.NestedBlock) (cty.Value, bool) {
	ty := nb.ImpliedType()
	if ty == cty.DynamicPseudoType || ty.IsCollectionType() && ty.ElementType().HasDynamicTypes() {
		return d.value(ty) // not pruned by the general path either
	}
	if d.lit("null") {
		return cty.NullVal(ty), true
	}
	switch nb.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		return d.block(&nb.Block)
	case configschema.NestingList, configschema.NestingSet:
		var elems []cty.Value
		if !d.elements(func() bool {
			v, ok := d.block(&nb.Block)
			elems = append(elems, v)
			return ok
		}) {
			return cty.NilVal, false
		}
		return collection(ty, elems, nil), true
	case configschema.NestingMap:
		elems := map[string]cty.Value{}
		if !d.members(func(key string) bool {
			if _, dup := elems[key]; dup {
				return false
			}
			v, ok := d.block(&nb.Block)
			elems[key] = v
			return ok
		}) {
			return cty.NilVal, false
		}
		return collection(ty, nil, elems), true
	}
	return cty.NilVal, false
}

// collection builds a list, set or map of type ty, empty ones included.
func collection(ty cty.Type, list []cty.Value, m map[string]cty.Value) cty.Value {
	ety := ty.ElementType()
	switch {
	case ty.IsListType() && len(list) == 0:
		return cty.ListValEmpty(ety)
	case ty.IsListType():
		return cty.ListVal(list)
	case ty.IsSetType() && len(list) == 0:
		return cty.SetValEmpty(ety)
	case ty.IsSetType():
		return cty.SetVal(list)
	case len(m) == 0:
		return cty.MapValEmpty(ety)
	default:
		return cty.MapVal(m)
	}
}

// value reads a value of type ty as cty's json.Unmarshal does.
func (d *fastDecoder) value(ty cty.Type) (cty.Value, bool) {
	if d.lit("null") {
		return cty.NullVal(ty), true
	}
	switch {
	case ty == cty.DynamicPseudoType:
		return d.dynamic()
	case ty == cty.String:
		s, ok := d.str()
		return cty.StringVal(s), ok
	case ty == cty.Number:
		s, ok := d.number()
		if !ok {
			return cty.NilVal, false
		}
		v, err := cty.ParseNumberVal(s)
		return v, err == nil
	case ty == cty.Bool:
		if d.lit("true") {
			return cty.True, true
		}
		return cty.False, d.lit("false")
	case ty.IsCollectionType():
		return d.collectionValue(ty)
	case ty.IsTupleType():
		return d.tuple(ty)
	case ty.IsObjectType():
		return d.object(ty)
	}
	return cty.NilVal, false
}

// collectionValue reads a list, set or map of type ty; not one whose
// elements may differ in type.
func (d *fastDecoder) collectionValue(ty cty.Type) (cty.Value, bool) {
	ety := ty.ElementType()
	if ety.HasDynamicTypes() {
		return cty.NilVal, false
	}
	if ty.IsMapType() {
		m := map[string]cty.Value{}
		ok := d.members(func(key string) bool {
			if _, dup := m[key]; dup {
				return false
			}
			v, ok := d.value(ety)
			m[key] = v
			return ok
		})
		return collection(ty, nil, m), ok
	}
	var list []cty.Value
	ok := d.elements(func() bool {
		v, ok := d.value(ety)
		list = append(list, v)
		return ok
	})
	if !ok {
		return cty.NilVal, false
	}
	return collection(ty, list, nil), true
}

// tuple reads a tuple of type ty, of exactly its length.
func (d *fastDecoder) tuple(ty cty.Type) (cty.Value, bool) {
	etys := ty.TupleElementTypes()
	vals := make([]cty.Value, 0, len(etys))
	ok := d.elements(func() bool {
		if len(vals) == len(etys) {
			return false
		}
		v, ok := d.value(etys[len(vals)])
		vals = append(vals, v)
		return ok
	})
	if !ok || len(vals) != len(etys) {
		return cty.NilVal, false
	}
	if len(vals) == 0 {
		return cty.EmptyTupleVal, true
	}
	return cty.TupleVal(vals), true
}

// object reads an object of type ty: no attribute outside it, none
// twice, and the missing ones null.
func (d *fastDecoder) object(ty cty.Type) (cty.Value, bool) {
	atys := ty.AttributeTypes()
	vals := make(map[string]cty.Value, len(atys))
	ok := d.members(func(key string) bool {
		aty, known := atys[key]
		if _, dup := vals[key]; dup || !known {
			return false
		}
		v, ok := d.value(aty)
		vals[key] = v
		return ok
	})
	if !ok {
		return cty.NilVal, false
	}
	for name, aty := range atys {
		if _, ok := vals[name]; !ok {
			vals[name] = cty.NullVal(aty)
		}
	}
	return cty.ObjectVal(vals), true
}

// dynamic reads cty's {"value": ..., "type": ...} form, in either order.
func (d *fastDecoder) dynamic() (cty.Value, bool) {
	var ty cty.Type
	valStart, valEnd := -1, -1
	ok := d.members(func(key string) bool {
		switch key {
		case "type":
			if ty != cty.NilType {
				return false
			}
			var ok bool
			ty, ok = d.typ()
			return ok
		case "value":
			if valStart >= 0 {
				return false
			}
			d.space()
			valStart = d.i
			ok := d.skip()
			valEnd = d.i
			return ok
		}
		return false
	})
	if !ok || ty == cty.NilType || valStart < 0 {
		return cty.NilVal, false
	}
	sub := fastDecoder{b: d.b[:valEnd], i: valStart}
	v, ok := sub.value(ty)
	return v, ok && sub.i == valEnd
}

// typ reads a type in cty's JSON form; the primitive types, by far the
// most common, without going through encoding/json.
func (d *fastDecoder) typ() (cty.Type, bool) {
	start := d.i
	if s, ok := d.plainString(); ok {
		switch s {
		case "string":
			return cty.String, true
		case "number":
			return cty.Number, true
		case "bool":
			return cty.Bool, true
		case "dynamic":
			return cty.DynamicPseudoType, true
		}
		d.i = start
	}
	d.space()
	start = d.i
	if !d.skip() {
		return cty.NilType, false
	}
	ty, err := ctyjson.UnmarshalType(d.b[start:d.i])
	return ty, err == nil
}
