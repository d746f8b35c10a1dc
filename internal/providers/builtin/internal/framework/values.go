package framework

import (
	"math/big"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/configschema"
)

// With returns obj with the given attributes replaced.
func With(obj cty.Value, attrs map[string]cty.Value) cty.Value {
	m := obj.AsValueMap()
	for k, v := range attrs {
		m[k] = v
	}
	return cty.ObjectVal(m)
}

// Int returns v as int64; ok is false when v is null, unknown or not an
// integer in range.
func Int(v cty.Value) (int64, bool) {
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.Number {
		return 0, false
	}
	bf := v.AsBigFloat()
	if !bf.IsInt() {
		return 0, false
	}
	i, acc := bf.Int64()
	return i, acc == big.Exact
}

// Str returns v's string, or "" when null or unknown.
func Str(v cty.Value) string {
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}

// Known reports whether v is set to a known value.
func Known(v cty.Value) bool { return !v.IsNull() && v.IsKnown() }

// ApplyDefaults sets each defaulted attribute that config leaves null.
func ApplyDefaults(planned, config cty.Value, defaults map[string]cty.Value) cty.Value {
	if len(defaults) == 0 {
		return planned
	}
	set := map[string]cty.Value{}
	for name, def := range defaults {
		if config.GetAttr(name).IsNull() {
			set[name] = def
		}
	}
	return With(planned, set)
}

// UnknownComputed makes every computed-only attribute unknown: the
// create-like plan of a replacement.
func UnknownComputed(schema *configschema.Block, planned cty.Value) cty.Value {
	set := map[string]cty.Value{}
	for name, a := range schema.Attributes {
		if a.ComputedOnly() {
			set[name] = cty.UnknownVal(a.Type)
		}
	}
	return With(planned, set)
}
