package configschema

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/tfdiags"
)

// This file holds what nested attributes (Attribute.NestedType, plugin
// protocol 6) need beyond ImpliedType: decoding, validation and
// sensitivity. A nested attribute is written as an expression (an object,
// or a list, set or map of objects), not as blocks; inside it, each
// attribute keeps its own Required/Optional/Computed/Sensitive flags.

// specType is the type configuration converts a nested attribute's value
// to: like ImpliedType, but every attribute that is not Required is an
// optional object attribute, so configuration may leave it out (it
// decodes as null).
func (o *Object) specType() cty.Type {
	if o == nil {
		return cty.EmptyObject
	}
	atys := make(map[string]cty.Type, len(o.Attributes))
	var optional []string
	for name, a := range o.Attributes {
		atys[name] = a.specType()
		if !a.Required {
			optional = append(optional, name)
		}
	}
	slices.Sort(optional)
	ety := cty.ObjectWithOptionalAttrs(atys, optional)
	return o.Nesting.collectionOf(ety)
}

func (a *Attribute) specType() cty.Type {
	if a.NestedType != nil {
		return a.NestedType.specType()
	}
	return a.Type
}

// nestedDecoderSpec decodes a nested attribute: the expression converts to
// specType (which reports wrong types and missing required attributes),
// then validateConfigValue reports computed-only attributes that are set
// and item counts out of bounds.
func (a *Attribute) nestedDecoderSpec(name string) hcldec.Spec {
	spec := &hcldec.AttrSpec{Name: name, Type: a.NestedType.specType(), Required: a.Required}
	return &hcldec.ValidateSpec{
		Wrapped: spec,
		Func: func(v cty.Value) hcl.Diagnostics {
			var diags hcl.Diagnostics
			if a.ComputedOnly() && !v.IsNull() {
				return hcl.Diagnostics{{
					Severity: hcl.DiagError,
					Summary:  "Value for unconfigurable attribute",
					Detail:   fmt.Sprintf("Can't configure a value for %q: its value will be decided automatically by the provider. Remove this argument.", name),
				}}
			}
			a.NestedType.validateConfigValue(v, cty.GetAttrPath(name), &diags)
			return diags
		},
	}
}

// validateConfigValue checks a configured nested value: no computed-only
// attribute set, item counts within MinItems/MaxItems, recursively.
func (o *Object) validateConfigValue(v cty.Value, path cty.Path, diags *hcl.Diagnostics) {
	o.forEachObject(v, path, diags, func(obj cty.Value, p cty.Path) {
		for _, name := range slices.Sorted(maps.Keys(o.Attributes)) {
			a := o.Attributes[name]
			av := obj.GetAttr(name)
			ap := append(p.Copy(), cty.GetAttrStep{Name: name})
			if a.ComputedOnly() && !av.IsNull() {
				*diags = append(*diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Value for unconfigurable attribute",
					Detail:   fmt.Sprintf("Can't configure a value for %q: its value will be decided automatically by the provider.", FormatPath(ap)),
				})
			}
			if a.NestedType != nil {
				a.NestedType.validateConfigValue(av, ap, diags)
			}
		}
	})
}

// forEachObject calls f for every known, non-null object of a nested
// value (the value itself for single nesting, each element otherwise),
// after checking the item count bounds of a collection.
func (o *Object) forEachObject(v cty.Value, path cty.Path, diags *hcl.Diagnostics, f func(obj cty.Value, p cty.Path)) {
	if v.IsNull() || !v.IsKnown() {
		return
	}
	if o.Nesting == NestingSingle || o.Nesting == NestingGroup {
		if v.Type().IsObjectType() {
			f(v, path)
		}
		return
	}
	if !v.CanIterateElements() {
		return
	}
	n := v.LengthInt()
	name := FormatPath(path)
	if o.MinItems > 0 && n < o.MinItems {
		*diags = append(*diags, tfdiags.WithPath(
			tfdiags.Errorf("Insufficient items", "Attribute %s needs at least %d items; found %d.", name, o.MinItems, n), path))
	}
	if o.MaxItems > 0 && n > o.MaxItems {
		*diags = append(*diags, tfdiags.WithPath(
			tfdiags.Errorf("Too many items", "Attribute %s allows at most %d items; found %d.", name, o.MaxItems, n), path))
	}
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		if ev.IsNull() || !ev.IsKnown() || !ev.Type().IsObjectType() {
			continue
		}
		f(ev, append(path.Copy(), cty.IndexStep{Key: k}))
	}
}

// validateValue checks a nested value against the schema: required
// attributes set and item counts within bounds, recursively (the type was
// checked by the caller).
func (o *Object) validateValue(v cty.Value, path cty.Path, diags *hcl.Diagnostics) {
	o.forEachObject(v, path, diags, func(obj cty.Value, p cty.Path) {
		for _, name := range slices.Sorted(maps.Keys(o.Attributes)) {
			a := o.Attributes[name]
			av := obj.GetAttr(name)
			ap := append(p.Copy(), cty.GetAttrStep{Name: name})
			if a.Required && av.IsNull() {
				*diags = append(*diags, tfdiags.WithPath(
					tfdiags.Errorf("Missing required argument", "The argument %q is required, but no definition was found.", FormatPath(ap)), ap))
			}
			if a.NestedType != nil {
				a.NestedType.validateValue(av, ap, diags)
			}
		}
	})
}

// sensitivePaths appends the paths of sensitive attributes inside a
// nested value: every non-null attribute marked Sensitive, in every
// object of the value.
func (o *Object) sensitivePaths(v cty.Value, path cty.Path, out *[]cty.Path) {
	var ignored hcl.Diagnostics
	o.forEachObject(v, path, &ignored, func(obj cty.Value, p cty.Path) {
		for _, name := range slices.Sorted(maps.Keys(o.Attributes)) {
			a := o.Attributes[name]
			if !obj.Type().HasAttribute(name) {
				continue
			}
			ap := append(p.Copy(), cty.GetAttrStep{Name: name})
			if a.Sensitive {
				*out = append(*out, ap)
				continue
			}
			if a.NestedType != nil {
				a.NestedType.sensitivePaths(obj.GetAttr(name), ap, out)
			}
		}
	})
}

// internalValidate checks a nested attribute type for provider bugs.
func (o *Object) internalValidate(prefix string, errs *[]error) {
	switch o.Nesting {
	case NestingSingle:
		if o.MinItems > 1 || o.MaxItems > 1 {
			*errs = append(*errs, fmt.Errorf("%s: single nesting allows MinItems and MaxItems of 0 or 1 only", prefix))
		}
	case NestingList, NestingSet, NestingMap:
		if o.MinItems < 0 || o.MaxItems < 0 || (o.MaxItems > 0 && o.MinItems > o.MaxItems) {
			*errs = append(*errs, fmt.Errorf("%s: inconsistent MinItems/MaxItems", prefix))
		}
	default:
		*errs = append(*errs, fmt.Errorf("%s: invalid nested attribute nesting mode %s", prefix, o.Nesting))
	}
	b := &Block{Attributes: o.Attributes}
	b.internalValidate(prefix+".", errs)
}
