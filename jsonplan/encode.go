package jsonplan

import (
	"encoding/json"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/jsonstr"
	"github.com/plankit/plankit/providers"
)

// encoder writes this package's struct model (planJSON and the types in
// it) as JSON, byte for byte as encoding/json.Marshal writes the same
// structs — field order, omitempty, sorted map keys, HTML-safe string
// escaping, compacted json.RawMessage — with two differences that let
// show -json stream:
//
//   - a value whose type implements streamer writes itself through the
//     encoder (the resource lists, made and written one entry at a time);
//   - a json.RawMessage that is already compact and needs no escaping is
//     copied as it is, instead of being re-scanned by encoding/json.
//
// Output collects in buf and goes to w whenever it passes flushAt, so
// memory stays at one resource's JSON however large the plan; with a nil
// w everything stays in buf (Marshal). A struct field added to the model
// with a json tag is written like encoding/json would without any change
// here; a type this encoder does not know is handed to encoding/json.
type encoder struct {
	buf     []byte
	w       io.Writer
	schemas map[addrs.Provider]*providers.GetProviderSchemaResponse
}

// flushAt is the buffered output size at which the encoder writes to w.
const flushAt = 64 << 10

// streamer is a part of the model that writes its own JSON (always a
// slice type, so omitempty leaves it out when empty).
type streamer interface {
	streamJSON(e *encoder) error
}

// flush writes the buffered output to w once it is large enough; force
// writes whatever there is.
func (e *encoder) flush(force bool) error {
	if e.w == nil || len(e.buf) == 0 || (!force && len(e.buf) < flushAt) {
		return nil
	}
	_, err := e.w.Write(e.buf)
	e.buf = e.buf[:0]
	return err
}

// encode appends the JSON of a model value.
func (e *encoder) encode(v any) error {
	return e.value(reflect.ValueOf(v))
}

var (
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	streamerType   = reflect.TypeFor[streamer]()
	marshalerType  = reflect.TypeFor[json.Marshaler]()
)

func (e *encoder) value(v reflect.Value) error {
	if !v.IsValid() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	t := v.Type()
	switch kindOf(t) {
	case rawKind:
		return e.raw(v.Bytes())
	case streamerKind:
		if v.Kind() == reflect.Slice && v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return v.Interface().(streamer).streamJSON(e)
	case marshalerKind:
		return e.fallback(v)
	}
	switch v.Kind() {
	case reflect.String:
		e.buf = appendJSONString(e.buf, v.String())
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return e.value(v.Elem())
	case reflect.Struct:
		return e.structValue(v)
	case reflect.Slice:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		if t.Elem().Kind() == reflect.Uint8 {
			return e.fallback(v) // base64, as encoding/json writes []byte
		}
		return e.array(v)
	case reflect.Array:
		return e.array(v)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return e.fallback(v)
		}
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return e.mapValue(v)
	default:
		return e.fallback(v)
	}
	return nil
}

// How a type is written, apart from its reflect.Kind.
const (
	plainKind = iota
	rawKind
	streamerKind
	marshalerKind
)

var kindCache sync.Map // reflect.Type -> int

// kindOf tells json.RawMessage, streamers and other json.Marshalers from
// the rest, once per type (Implements is not cheap).
func kindOf(t reflect.Type) int {
	if k, ok := kindCache.Load(t); ok {
		return k.(int)
	}
	k := plainKind
	switch {
	case t == rawMessageType:
		k = rawKind
	case t.Implements(streamerType):
		k = streamerKind
	case t.Implements(marshalerType):
		k = marshalerKind
	}
	kindCache.Store(t, k)
	return k
}

// fallback hands a value this encoder does not write itself to
// encoding/json.
func (e *encoder) fallback(v reflect.Value) error {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return err
	}
	e.buf = append(e.buf, b...)
	return nil
}

func (e *encoder) array(v reflect.Value) error {
	e.buf = append(e.buf, '[')
	for i := range v.Len() {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.value(v.Index(i)); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, ']')
	return nil
}

func (e *encoder) mapValue(v reflect.Value) error {
	keys := v.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	e.buf = append(e.buf, '{')
	for i, k := range keys {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendJSONString(e.buf, k.String())
		e.buf = append(e.buf, ':')
		if err := e.value(v.MapIndex(k)); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}

func (e *encoder) structValue(v reflect.Value) error {
	fs := fieldsOf(v.Type())
	if fs == nil {
		return e.fallback(v)
	}
	e.buf = append(e.buf, '{')
	if _, err := e.fields(v, fs, true); err != nil {
		return err
	}
	e.buf = append(e.buf, '}')
	return nil
}

// fields appends some of the fields of struct v, first telling whether
// none has been written before; it returns whether that is still so.
func (e *encoder) fields(v reflect.Value, fs []field, first bool) (bool, error) {
	for _, f := range fs {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmpty(fv) {
			continue
		}
		if !first {
			e.buf = append(e.buf, ',')
		}
		first = false
		e.buf = append(e.buf, f.key...)
		if err := e.value(fv); err != nil {
			return first, err
		}
	}
	return first, nil
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// raw appends a json.RawMessage: as it is when it is already compact and
// HTML-safe (everything this package makes), else through encoding/json,
// which compacts and escapes it (state attributes read from a file).
func (e *encoder) raw(b []byte) error {
	if b == nil {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	if len(b) > 0 && compactSafe(b) {
		e.buf = append(e.buf, b...)
		return nil
	}
	out, err := json.Marshal(json.RawMessage(b))
	if err != nil {
		return err
	}
	e.buf = append(e.buf, out...)
	return nil
}

// compactSafe reports whether JSON text b has no whitespace outside
// strings and nothing encoding/json would escape (<, >, &, and the
// U+2028/U+2029 separators, whose UTF-8 starts with 0xE2; other 0xE2
// characters are treated the same, which only costs the slow path).
// It does not validate: the text comes from this package's own encoders
// or a state file that was parsed already. O(len(b)).
func compactSafe(b []byte) bool {
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case c == '<' || c == '>' || c == '&' || c == 0xE2:
			return false
		case inString:
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return false
		}
	}
	return true
}

// field is one JSON field of a struct: its index, its `"key":` prefix and
// whether omitempty applies.
type field struct {
	index     int
	key       string
	omitEmpty bool
}

var fieldCache sync.Map // reflect.Type -> []field

// fieldsOf lists the JSON fields of a struct type as encoding/json finds
// them in the json tags: exported fields, "-" left out, in declaration
// order. A struct with an embedded field (whose fields encoding/json
// would promote) gives nil: it is left to encoding/json whole.
func fieldsOf(t reflect.Type) []field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]field)
	}
	fs := []field{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			fs = nil
			break
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		omit := false
		for opts != "" {
			var o string
			o, opts, _ = strings.Cut(opts, ",")
			omit = omit || o == "omitempty"
		}
		fs = append(fs, field{index: i, key: string(appendJSONString(nil, name)) + ":", omitEmpty: omit})
	}
	fieldCache.Store(t, fs)
	return fs
}

// appendJSONString appends s as encoding/json writes a string.
func appendJSONString(b []byte, s string) []byte { return jsonstr.Append(b, s) }
