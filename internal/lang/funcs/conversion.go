package funcs

import (
	"strconv"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/plankit/plankit/internal/lang/marks"
)

// MakeToFunc builds an explicit conversion function such as tostring or
// tolist. Unlike stdlib.MakeToFunc it lets marks through to the conversion,
// so tomap({a = sensitive(x), b = y}) keeps only "a" sensitive rather than
// marking the whole map; unknown values convert to unknown of the wanted
// type.
func MakeToFunc(wantTy cty.Type) function.Function {
	return function.New(&function.Spec{
		Description: "Converts the given value to " + wantTy.FriendlyNameForConstraint() + ", or raises an error if that conversion is impossible.",
		Params: []function.Parameter{{
			Name:             "v",
			Type:             cty.DynamicPseudoType,
			AllowNull:        true,
			AllowUnknown:     true,
			AllowDynamicType: true,
			AllowMarked:      true,
		}},
		Type: func(args []cty.Value) (cty.Type, error) {
			gotTy := args[0].Type()
			if gotTy.Equals(wantTy) {
				return wantTy, nil
			}
			// A tuple whose elements all have one type converts to a list
			// or set of that type; go-cty finds the same by unifying every
			// element type with a sort quadratic in their number (minutes
			// for toset() of a million strings), even to check that the
			// conversion exists.
			if ty, ok := uniformTupleCollection(gotTy, wantTy); ok {
				return ty, nil
			}
			conv := convert.GetConversionUnsafe(gotTy, wantTy)
			if conv == nil {
				switch {
				case gotTy.IsTupleType() && wantTy.IsTupleType(), gotTy.IsObjectType() && wantTy.IsObjectType():
					return cty.NilType, function.NewArgErrorf(0, "incompatible type for conversion: %s", convert.MismatchMessage(gotTy, wantTy))
				default:
					return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to %s", gotTy.FriendlyName(), wantTy.FriendlyNameForConstraint())
				}
			}
			if !wantTy.HasDynamicTypes() {
				return wantTy, nil
			}
			// "list of any" and friends: the element type comes from the
			// value, so work it out by converting an unknown of the type.
			out, err := convert.Convert(cty.UnknownVal(gotTy), wantTy)
			if err != nil {
				return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to %s: %s", gotTy.FriendlyName(), wantTy.FriendlyNameForConstraint(), err)
			}
			return out.Type(), nil
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			ret, err := convert.Convert(args[0], retType)
			if err == nil {
				return ret, nil
			}
			// Never quote the value itself: it may be sensitive.
			gotTy := args[0].Type()
			switch {
			case gotTy == cty.String && wantTy == cty.Bool:
				return cty.NilVal, function.NewArgErrorf(0, `cannot convert %s to bool; only the strings "true" or "false" are allowed`, quoteUnlessSensitive(args[0]))
			case gotTy == cty.String && wantTy == cty.Number:
				return cty.NilVal, function.NewArgErrorf(0, `cannot convert %s to number; given string must be a decimal representation of a number`, quoteUnlessSensitive(args[0]))
			default:
				return cty.NilVal, function.NewArgErrorf(0, "cannot convert %s to %s: %s", gotTy.FriendlyName(), wantTy.FriendlyNameForConstraint(), err)
			}
		},
	})
}

// quoteUnlessSensitive quotes a known, non-sensitive string for an error
// message, and otherwise names only what it is.
func quoteUnlessSensitive(v cty.Value) string {
	if v.HasMark(marks.Sensitive) {
		return "sensitive string"
	}
	if !v.IsKnown() || v.IsNull() {
		return "string"
	}
	return strconv.Quote(v.AsString())
}

// SensitiveFunc marks its argument Sensitive, whatever it is (unknown and
// null included), keeping any marks it already had.
var SensitiveFunc = function.New(&function.Spec{
	Description: "Treats the given value as sensitive.",
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowNull:        true,
		AllowMarked:      true,
		AllowDynamicType: true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		return args[0].Type(), nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return args[0].Mark(marks.Sensitive), nil
	},
})

// NonsensitiveFunc removes the Sensitive mark from its argument itself, as
// Terraform does: marks on nested elements stay. A value that was not
// sensitive passes through unchanged.
var NonsensitiveFunc = function.New(&function.Spec{
	Description: "Removes the sensitive marking from the given value.",
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowNull:        true,
		AllowMarked:      true,
		AllowDynamicType: true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		return args[0].Type(), nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		v, m := args[0].Unmark()
		delete(m, marks.Sensitive)
		return v.WithMarks(m), nil
	},
})

// IsSensitiveFunc reports whether its argument is marked Sensitive. An
// unknown value that is not (yet) marked gives an unknown bool, because the
// value it becomes may be.
var IsSensitiveFunc = function.New(&function.Spec{
	Description: "Determines whether the given value is marked as sensitive.",
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowNull:        true,
		AllowMarked:      true,
		AllowDynamicType: true,
	}},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		switch {
		case args[0].HasMark(marks.Sensitive):
			return cty.True, nil
		case !args[0].IsKnown():
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.False, nil
	},
})

// uniformTupleCollection returns, for a tuple type whose elements all have
// one type T without dynamic parts and a wanted list or set of any, the
// list or set of T. O(elements).
func uniformTupleCollection(got, want cty.Type) (cty.Type, bool) {
	if !got.IsTupleType() || !(want.IsListType() || want.IsSetType()) || want.ElementType() != cty.DynamicPseudoType {
		return cty.NilType, false
	}
	elems := got.TupleElementTypes()
	if len(elems) == 0 || elems[0].HasDynamicTypes() {
		return cty.NilType, false
	}
	for _, e := range elems[1:] {
		if !e.Equals(elems[0]) {
			return cty.NilType, false
		}
	}
	if want.IsSetType() {
		return cty.Set(elems[0]), true
	}
	return cty.List(elems[0]), true
}

// EphemeralAsNullFunc returns its argument with every part that carries the
// Ephemeral mark replaced by a null of the same type (other marks stay),
// so a value mixing ephemeral and ordinary parts can be stored. O(size of
// the value).
var EphemeralAsNullFunc = function.New(&function.Spec{
	Description: "Returns the given value with every ephemeral part replaced by null.",
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowNull:        true,
		AllowMarked:      true,
		AllowDynamicType: true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		return args[0].Type(), nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return EphemeralAsNull(args[0]), nil
	},
})

// EphemeralAsNull is what ephemeralasnull() does: v with each ephemeral part
// null, keeping the other marks of what remains.
func EphemeralAsNull(v cty.Value) cty.Value {
	if !marks.Contains(v, marks.Ephemeral) {
		return v
	}
	u, pvms := marks.UnmarkPaths(v)
	var nulled []cty.Path
	kept := pvms[:0:0]
	for _, pvm := range pvms {
		if _, ok := pvm.Marks[marks.Ephemeral]; ok {
			nulled = append(nulled, pvm.Path)
			rest := cty.ValueMarks{}
			for m := range pvm.Marks {
				if m != marks.Ephemeral {
					rest[m] = struct{}{}
				}
			}
			if len(rest) == 0 {
				continue
			}
			pvm = cty.PathValueMarks{Path: pvm.Path, Marks: rest}
		}
		kept = append(kept, pvm)
	}
	out, _ := cty.Transform(u, func(p cty.Path, v cty.Value) (cty.Value, error) {
		for _, n := range nulled {
			if p.Equals(n) {
				return cty.NullVal(v.Type()), nil
			}
		}
		return v, nil
	})
	// A mark recorded below a part now null has no place left and is
	// dropped; a nulled part's other marks (sensitive) stay on the null.
	return marks.MarkPaths(out, kept)
}
