package objchange

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/configschema"
)

// proposedNewAttribute is one attribute of the proposed new object:
//   - write-only: null (its value travels in Config only, never in a plan
//     or state);
//   - computed and null in config: the prior value, unknown without one;
//   - a nested attribute set in config: merged with the prior value
//     object by object, like nested blocks;
//   - otherwise the configured value.
func proposedNewAttribute(a *configschema.Attribute, prior cty.Value, priorKnown bool, name string, cv cty.Value) cty.Value {
	switch {
	case a.WriteOnly:
		return cty.NullVal(a.ImpliedType())
	case a.Computed && cv.IsNull():
		if priorKnown {
			return prior.GetAttr(name)
		}
		return cty.UnknownVal(a.ImpliedType())
	case a.NestedType != nil && cv.IsKnown() && !cv.IsNull():
		pv := cty.NullVal(a.ImpliedType())
		if priorKnown {
			pv = prior.GetAttr(name)
		}
		return proposedNewNested(a.NestedType, pv, cv)
	default:
		return cv
	}
}

// nestedObject merges one object of a nested attribute.
func nestedObject(o *configschema.Object, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	priorKnown := !prior.IsNull() && prior.IsKnown()
	out := make(map[string]cty.Value, len(o.Attributes))
	for name, a := range o.Attributes {
		out[name] = proposedNewAttribute(a, prior, priorKnown, name, config.GetAttr(name))
	}
	return cty.ObjectVal(out)
}

// proposedNewNested merges a configured (known, non-null) nested value
// with its prior value: single objects directly, list elements by index,
// map elements by key, set elements with a prior element whose configured
// attributes are equal.
func proposedNewNested(o *configschema.Object, prior, config cty.Value) cty.Value {
	priorKnown := !prior.IsNull() && prior.IsKnown()
	ty := config.Type()
	switch {
	case o.Nesting == configschema.NestingSingle || o.Nesting == configschema.NestingGroup:
		return nestedObject(o, prior, config)
	case ty.IsListType() || ty.IsTupleType():
		if config.LengthInt() == 0 {
			return config
		}
		elems := make([]cty.Value, 0, config.LengthInt())
		for it := config.ElementIterator(); it.Next(); {
			k, cv := it.Element()
			pv := cty.NullVal(cv.Type())
			if priorKnown && (prior.Type().IsListType() || prior.Type().IsTupleType()) {
				if ok := prior.HasIndex(k); ok.IsKnown() && ok.True() {
					pv = prior.Index(k)
				}
			}
			elems = append(elems, nestedObject(o, pv, cv))
		}
		if ty.IsTupleType() {
			return cty.TupleVal(elems)
		}
		return cty.ListVal(elems)
	case ty.IsMapType() || ty.IsObjectType():
		if config.LengthInt() == 0 {
			return config
		}
		elems := make(map[string]cty.Value, config.LengthInt())
		for it := config.ElementIterator(); it.Next(); {
			k, cv := it.Element()
			pv := cty.NullVal(cv.Type())
			if priorKnown && (prior.Type().IsMapType() || prior.Type().IsObjectType()) {
				if ok := prior.HasIndex(k); ok.IsKnown() && ok.True() {
					pv = prior.Index(k)
				}
			}
			elems[k.AsString()] = nestedObject(o, pv, cv)
		}
		if ty.IsObjectType() {
			return cty.ObjectVal(elems)
		}
		return cty.MapVal(elems)
	case ty.IsSetType():
		if config.LengthInt() == 0 {
			return config
		}
		var priors []cty.Value
		if priorKnown && prior.Type().IsSetType() {
			priors = prior.AsValueSlice()
		}
		used := make([]bool, len(priors))
		block := &configschema.Block{Attributes: o.Attributes}
		elems := make([]cty.Value, 0, config.LengthInt())
		for it := config.ElementIterator(); it.Next(); {
			_, cv := it.Element()
			pv := cty.NullVal(cv.Type())
			for i, p := range priors {
				if !used[i] && sameConfigured(block, p, cv) {
					used[i], pv = true, p
					break
				}
			}
			elems = append(elems, nestedObject(o, pv, cv))
		}
		return cty.SetVal(elems)
	default:
		return config
	}
}
