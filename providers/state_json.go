package providers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/providers/configschema"
)

// DecodeStateJSON decodes a resource object's "attributes" JSON (as stored
// in a v4 state file) into a value of schema.ImpliedType(). Attributes the
// schema no longer has are dropped at every nesting level, as providers do
// when their schema loses an attribute; attributes missing from the JSON
// decode as null (empty collections for nested blocks). Dynamically-typed
// attributes use cty's {"value":...,"type":...} JSON form. Built-in
// providers use it for UpgradeResourceState. O(len(raw)).
//
// A malformed dynamic value can make cty's decoder panic (a tuple type
// longer than its value, found by fuzzing); that panic becomes an error.
func DecodeStateJSON(schema *configschema.Block, raw []byte) (_ cty.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("decoding stored attributes: malformed value: %v", r)
		}
	}()
	if schema == nil {
		schema = &configschema.Block{}
	}
	if v, ok := decodeStateFast(schema, raw); ok {
		return fillEmptyBlocks(schema, v), nil
	}
	return decodeStateGeneral(schema, raw)
}

// decodeStateGeneral is DecodeStateJSON's general path: the JSON pruned
// of what the schema no longer has, then decoded by cty. It takes
// whatever decodeStateFast leaves, and words every error.
func decodeStateGeneral(schema *configschema.Block, raw []byte) (cty.Value, error) {
	cleaned, err := pruneJSON(schema, raw)
	if err != nil {
		return cty.NilVal, err
	}
	v, err := ctyjson.Unmarshal(cleaned, schema.ImpliedType())
	if err != nil {
		var pe cty.PathError
		if errors.As(err, &pe) && len(pe.Path) > 0 {
			return cty.NilVal, fmt.Errorf("decoding stored attributes: %s: %w", configschema.FormatPath(pe.Path), err)
		}
		return cty.NilVal, fmt.Errorf("decoding stored attributes: %w", err)
	}
	if v.IsNull() {
		return cty.NilVal, fmt.Errorf("decoding stored attributes: object is null")
	}
	return fillEmptyBlocks(schema, v), nil
}

// pruneJSON re-encodes raw, an object, keeping only the keys b knows.
func pruneJSON(b *configschema.Block, raw []byte) ([]byte, error) {
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&obj); err != nil {
		return nil, fmt.Errorf("decoding stored attributes: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("decoding stored attributes: trailing data after the object")
	}
	if obj == nil {
		return nil, fmt.Errorf("decoding stored attributes: expected a JSON object, got null")
	}
	out := make(map[string]json.RawMessage, len(obj))
	for k, v := range obj {
		if _, ok := b.Attributes[k]; ok {
			out[k] = v
			continue
		}
		nb, ok := b.BlockTypes[k]
		if !ok {
			continue // attribute removed from the schema
		}
		pruned, err := pruneBlockJSON(nb, v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = pruned
	}
	return json.Marshal(out)
}

func pruneBlockJSON(nb *configschema.NestedBlock, raw json.RawMessage) (json.RawMessage, error) {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return raw, nil
	}
	if nb.Block.ImpliedType().HasDynamicTypes() && (nb.Nesting == configschema.NestingList || nb.Nesting == configschema.NestingMap) {
		return raw, nil // {"value","type"} form: leave to ctyjson
	}
	switch nb.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		return pruneJSON(&nb.Block, raw)
	case configschema.NestingList, configschema.NestingSet:
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return nil, err
		}
		for i, e := range elems {
			p, err := pruneJSON(&nb.Block, e)
			if err != nil {
				return nil, err
			}
			elems[i] = p
		}
		return json.Marshal(elems)
	case configschema.NestingMap:
		var elems map[string]json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return nil, err
		}
		for k, e := range elems {
			p, err := pruneJSON(&nb.Block, e)
			if err != nil {
				return nil, err
			}
			elems[k] = p
		}
		return json.Marshal(elems)
	}
	return raw, nil
}

// fillEmptyBlocks replaces null nested-block collections (absent from old
// JSON) by empty ones, since configuration never decodes them as null.
func fillEmptyBlocks(b *configschema.Block, v cty.Value) cty.Value {
	if len(b.BlockTypes) == 0 || v.IsNull() || !v.IsKnown() {
		return v
	}
	m := v.AsValueMap()
	for name, nb := range b.BlockTypes {
		bv := m[name]
		switch {
		case bv.IsNull() && nb.Nesting != configschema.NestingSingle:
			m[name] = nb.EmptyValue()
		case nb.Nesting == configschema.NestingSingle || nb.Nesting == configschema.NestingGroup:
			m[name] = fillEmptyBlocks(&nb.Block, bv)
		}
	}
	return cty.ObjectVal(m)
}
