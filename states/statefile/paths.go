package statefile

import (
	"encoding/json"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/plankit/plankit/internal/safecty"
)

// marshalPaths encodes attribute paths in Terraform 1.x's
// "sensitive_attributes" format: a list of paths, each a list of
// {"type":"get_attr","value":NAME} or
// {"type":"index","value":{"value":KEY,"type":KEYTYPE}} steps. No paths
// encode as [], as Terraform writes.
func marshalPaths(paths []cty.Path) (json.RawMessage, error) {
	out := make([][]pathStepV4, 0, len(paths))
	for _, p := range paths {
		steps := make([]pathStepV4, 0, len(p))
		for _, s := range p {
			step, err := marshalStep(s)
			if err != nil {
				return nil, err
			}
			steps = append(steps, step)
		}
		out = append(out, steps)
	}
	return json.Marshal(out)
}

func marshalStep(s cty.PathStep) (pathStepV4, error) {
	switch s := s.(type) {
	case cty.GetAttrStep:
		name, _ := json.Marshal(s.Name)
		return pathStepV4{Type: "get_attr", Value: name}, nil
	case cty.IndexStep:
		key, err := ctyjson.Marshal(s.Key, s.Key.Type())
		if err != nil {
			return pathStepV4{}, fmt.Errorf("cannot encode path index %#v: %w", s.Key, err)
		}
		ty, err := ctyjson.MarshalType(s.Key.Type())
		if err != nil {
			return pathStepV4{}, err
		}
		v, err := json.Marshal(indexValueV4{Value: key, Type: ty})
		if err != nil {
			return pathStepV4{}, err
		}
		return pathStepV4{Type: "index", Value: v}, nil
	}
	return pathStepV4{}, fmt.Errorf("unsupported path step %T", s)
}

// unmarshalPaths decodes the "sensitive_attributes" format marshalPaths
// writes. An absent field decodes as no paths.
func unmarshalPaths(raw json.RawMessage) ([]cty.Path, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var in [][]pathStepV4
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("sensitive_attributes must be a list of paths, each a list of steps: %w", err)
	}
	out := make([]cty.Path, 0, len(in))
	for _, steps := range in {
		p := make(cty.Path, 0, len(steps))
		for _, st := range steps {
			step, err := unmarshalStep(st)
			if err != nil {
				return nil, err
			}
			p = append(p, step)
		}
		out = append(out, p)
	}
	return out, nil
}

func unmarshalStep(st pathStepV4) (cty.PathStep, error) {
	switch st.Type {
	case "get_attr":
		var name string
		if err := json.Unmarshal(st.Value, &name); err != nil {
			return nil, fmt.Errorf("a get_attr path step needs a string value: %w", err)
		}
		return cty.GetAttrStep{Name: name}, nil
	case "index":
		var iv indexValueV4
		if err := json.Unmarshal(st.Value, &iv); err != nil {
			return nil, fmt.Errorf(`an index path step needs a {"value","type"} object: %w`, err)
		}
		ty, err := safecty.UnmarshalType(iv.Type)
		if err != nil {
			return nil, fmt.Errorf("invalid index path step type: %w", err)
		}
		if ty != cty.String && ty != cty.Number {
			return nil, fmt.Errorf("an index path step key must be a string or a number, not %s", ty.FriendlyName())
		}
		key, err := safecty.Unmarshal(iv.Value, ty)
		if err != nil {
			return nil, fmt.Errorf("invalid index path step key: %w", err)
		}
		if key.IsNull() {
			return nil, fmt.Errorf("an index path step key must not be null")
		}
		return cty.IndexStep{Key: key}, nil
	}
	return nil, fmt.Errorf("unknown path step type %q: want get_attr or index", st.Type)
}
