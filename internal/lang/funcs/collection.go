// Package funcs holds the Terraform-specific functions that go-cty's stdlib
// does not provide, or provides with different semantics. Each file holds
// one family; lang.Scope assembles them with stdlib into the function table.
//
// Unknown and marked arguments follow the cty function contract unless a
// parameter opts in: an unknown argument makes the result unknown of the
// return type, and marks on arguments are carried to the result.
package funcs

import (
	"errors"
	"sort"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// LengthFunc returns the number of elements of a collection or structural
// value, or the number of characters (grapheme clusters) of a string.
// Tuples and objects have a known length even when their value is unknown.
var LengthFunc = function.New(&function.Spec{
	Description: "Returns the length of a string, collection, tuple or object.",
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
		AllowUnknown:     true,
		AllowMarked:      true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty == cty.String || ty.IsCollectionType() || ty.IsTupleType() || ty.IsObjectType() || ty == cty.DynamicPseudoType:
			return cty.Number, nil
		default:
			return cty.Number, function.NewArgErrorf(0, "argument must be a string, a collection type, or a structural type")
		}
	},
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull().NumberRangeLowerBound(cty.Zero, true)
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		v, m := args[0].Unmark()
		ty := v.Type()
		switch {
		case ty == cty.DynamicPseudoType:
			return cty.UnknownVal(cty.Number).WithMarks(m), nil
		case ty.IsTupleType():
			return cty.NumberIntVal(int64(len(ty.TupleElementTypes()))).WithMarks(m), nil
		case ty.IsObjectType():
			return cty.NumberIntVal(int64(len(ty.AttributeTypes()))).WithMarks(m), nil
		case ty == cty.String:
			n, err := stdlib.Strlen(v)
			return n.WithMarks(m), err
		default:
			return v.Length().WithMarks(m), nil
		}
	},
})

// IndexFunc returns the position of the first element of a list or tuple
// equal to the given value. O(n) equality tests.
var IndexFunc = function.New(&function.Spec{
	Description: "Finds the element index for a given value in a list.",
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if !(ty.IsListType() || ty.IsTupleType()) {
			return cty.NilType, function.NewArgErrorf(0, "argument must be a list or tuple")
		}
		return cty.Number, nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		if args[0].LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot search an empty list")
		}
		for it := args[0].ElementIterator(); it.Next(); {
			i, v := it.Element()
			eq, err := stdlib.Equal(v, args[1])
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return i, nil
			}
		}
		return cty.NilVal, errors.New("item not found")
	},
})

// SumFunc adds up a list, set or tuple of numbers. O(n).
var SumFunc = function.New(&function.Spec{
	Description: "Returns the total sum of the elements of a list, set or tuple of numbers.",
	Params:      []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if !(ty.IsListType() || ty.IsSetType() || ty.IsTupleType()) {
			return cty.NilType, function.NewArgErrorf(0, "argument must be a list, set, or tuple of numbers")
		}
		return cty.Number, nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		if args[0].LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum an empty list")
		}
		total := cty.Zero
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			if v.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, "argument must be a list, set, or tuple of numbers, without null elements")
			}
			n, err := convert.Convert(v, cty.Number)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "argument must be a list, set, or tuple of numbers: %s", err)
			}
			if !n.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			total = total.Add(n)
		}
		return total, nil
	},
})

// AllTrueFunc reports whether every element of a list of bools is true.
// A null element counts as false; an unknown element met before any false
// one makes the result unknown. The empty list gives true.
var AllTrueFunc = function.New(&function.Spec{
	Description: "Returns true if all elements in a given collection are true or \"true\".",
	Params:      []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:        function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			if !v.IsKnown() {
				return cty.UnknownVal(cty.Bool), nil
			}
			if v.IsNull() || v.False() {
				return cty.False, nil
			}
		}
		return cty.True, nil
	},
})

// AnyTrueFunc reports whether any element of a list of bools is true. Null
// elements count as false; the result is unknown only if no element is true
// and some element is unknown. The empty list gives false.
var AnyTrueFunc = function.New(&function.Spec{
	Description: "Returns true if any element in a given collection is true or \"true\".",
	Params:      []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:        function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		unknown := false
		for it := args[0].ElementIterator(); it.Next(); {
			_, v := it.Element()
			switch {
			case !v.IsKnown():
				unknown = true
			case v.IsNull():
			case v.True():
				return cty.True, nil
			}
		}
		if unknown {
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.False, nil
	},
})

// OneFunc returns the single element of a zero- or one-element list, set or
// tuple, or null when it is empty; more elements are an error.
var OneFunc = function.New(&function.Spec{
	Description: "Returns either the first element of a one-element list, or null if given a zero-element list.",
	Params:      []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty.IsListType() || ty.IsSetType():
			return ty.ElementType(), nil
		case ty.IsTupleType():
			etys := ty.TupleElementTypes()
			switch len(etys) {
			case 0:
				return cty.DynamicPseudoType, nil
			case 1:
				return etys[0], nil
			}
		}
		return cty.NilType, function.NewArgErrorf(0, "must be a list, set, or tuple value with either zero or one elements")
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		v := args[0]
		if v.IsNull() {
			// A null list has no elements: same as empty, as a
			// conditional "one(x[*])" over a null object expects.
			return cty.NullVal(retType), nil
		}
		switch v.LengthInt() {
		case 0:
			return cty.NullVal(retType), nil
		case 1:
			it := v.ElementIterator()
			it.Next()
			_, e := it.Element()
			return e, nil
		}
		return cty.NilVal, function.NewArgErrorf(0, "must be a list, set, or tuple value with either zero or one elements")
	},
})

// TransposeFunc swaps the keys and values of a map of lists of strings:
// every string in a list becomes a key whose list holds the original keys,
// sorted. O(total elements × log).
var TransposeFunc = function.New(&function.Spec{
	Description: "Takes a map of lists of strings and swaps the keys and values.",
	Params:      []function.Parameter{{Name: "values", Type: cty.Map(cty.List(cty.String))}},
	Type:        function.StaticReturnType(cty.Map(cty.List(cty.String))),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		out := map[string][]string{}
		for it := args[0].ElementIterator(); it.Next(); {
			k, list := it.Element()
			if list.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, "lists must not be null")
			}
			if !list.IsWhollyKnown() {
				return cty.UnknownVal(retType), nil
			}
			for lit := list.ElementIterator(); lit.Next(); {
				_, s := lit.Element()
				if s.IsNull() {
					return cty.NilVal, function.NewArgErrorf(0, "list elements must not be null")
				}
				out[s.AsString()] = append(out[s.AsString()], k.AsString())
			}
		}
		if len(out) == 0 {
			return cty.MapValEmpty(cty.List(cty.String)), nil
		}
		m := make(map[string]cty.Value, len(out))
		for k, vs := range out {
			sort.Strings(vs)
			elems := make([]cty.Value, len(vs))
			for i, s := range vs {
				elems[i] = cty.StringVal(s)
			}
			m[k] = cty.ListVal(elems)
		}
		return cty.MapVal(m), nil
	},
})

// MatchkeysFunc returns the elements of values whose corresponding element
// in keys (same index) is in searchset. O(n×m) equality tests.
var MatchkeysFunc = function.New(&function.Spec{
	Description: "Constructs a new list by taking a subset of elements from one list whose indexes match the corresponding indexes of values in another list.",
	Params: []function.Parameter{
		{Name: "values", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "keys", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "searchset", Type: cty.List(cty.DynamicPseudoType)},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()})
		if ty == cty.NilType {
			return cty.NilType, errors.New("keys and searchset must be of the same type")
		}
		return args[0].Type(), nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		if args[0].LengthInt() != args[1].LengthInt() {
			return cty.NilVal, errors.New("length of keys and values should be equal")
		}
		var out []cty.Value
		for i, kit := 0, args[1].ElementIterator(); kit.Next(); i++ {
			_, key := kit.Element()
			for sit := args[2].ElementIterator(); sit.Next(); {
				_, s := sit.Element()
				eq, err := stdlib.Equal(key, s)
				if err != nil {
					return cty.NilVal, err
				}
				if !eq.IsKnown() {
					return cty.UnknownVal(retType), nil
				}
				if eq.True() {
					out = append(out, args[0].Index(cty.NumberIntVal(int64(i))))
					break
				}
			}
		}
		if len(out) == 0 {
			return cty.ListValEmpty(retType.ElementType()), nil
		}
		return cty.ListVal(out), nil
	},
})

// CoalesceFunc returns the first argument that is neither null nor an
// empty string, as Terraform does (stdlib's version skips only nulls). The
// arguments are converted to a common type first; an unknown argument met
// before a usable one makes the result unknown.
var CoalesceFunc = function.New(&function.Spec{
	Description: "Returns the first of the given arguments that isn't null or an empty string.",
	Params:      []function.Parameter{},
	VarParam: &function.Parameter{
		Name:             "vals",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		types := make([]cty.Type, len(args))
		for i, a := range args {
			types[i] = a.Type()
		}
		ty, convs := convert.UnifyUnsafe(types)
		if ty == cty.NilType {
			return cty.NilType, errors.New("all arguments must have the same type")
		}
		for i, conv := range convs {
			if conv == nil {
				continue
			}
			if _, err := conv(args[i]); err != nil {
				return cty.NilType, function.NewArgError(i, err)
			}
		}
		return ty, nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		for i, a := range args {
			v, err := convert.Convert(a, retType)
			if err != nil {
				return cty.NilVal, function.NewArgError(i, err)
			}
			if !v.IsKnown() {
				return cty.UnknownVal(retType), nil
			}
			if v.IsNull() || (retType == cty.String && v.AsString() == "") {
				continue
			}
			return v, nil
		}
		return cty.NilVal, errors.New("no non-null, non-empty-string arguments")
	},
})

// LookupFunc returns map[key], or the default when the key is absent. As in
// Terraform the default may be omitted (the historical two-argument form):
// then a missing key is an error, like map[key]. Marks on the map and the
// key carry to the result; an unknown map gives an unknown result.
var LookupFunc = function.New(&function.Spec{
	Description: "Returns the value of the element with the given key from a map or object, or the default when there is no such element.",
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true},
		{Name: "key", Type: cty.String, AllowMarked: true},
	},
	VarParam: &function.Parameter{Name: "default", Type: cty.DynamicPseudoType, AllowMarked: true, AllowNull: true, AllowUnknown: true, AllowDynamicType: true},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) > 3 {
			return cty.NilType, function.NewArgErrorf(3, "lookup takes two or three arguments: a map, a key and an optional default")
		}
		hasDefault := len(args) == 3
		ty := args[0].Type()
		switch {
		case ty.IsObjectType():
			if !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			key, _ := args[1].Unmark()
			if ty.HasAttribute(key.AsString()) {
				return ty.AttributeType(key.AsString()), nil
			}
			if hasDefault {
				return args[2].Type(), nil
			}
			return cty.NilType, function.NewArgErrorf(1, "the object has no attribute %q; give a default as the third argument", key.AsString())
		case ty.IsMapType():
			if hasDefault {
				if _, err := convert.Convert(args[2], ty.ElementType()); err != nil {
					return cty.NilType, function.NewArgErrorf(2, "the default value must have the same type as the map elements")
				}
			}
			return ty.ElementType(), nil
		case ty == cty.DynamicPseudoType:
			return cty.DynamicPseudoType, nil
		}
		return cty.NilType, function.NewArgErrorf(0, "lookup() requires a map as the first argument")
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		m, mapMarks := args[0].Unmark()
		key, keyMarks := args[1].Unmark()
		if !m.IsWhollyKnown() || !key.IsKnown() {
			return cty.UnknownVal(retType).WithMarks(mapMarks, keyMarks), nil
		}
		k := key.AsString()
		switch {
		case m.Type().IsObjectType() && m.Type().HasAttribute(k):
			return m.GetAttr(k).WithMarks(mapMarks, keyMarks), nil
		case m.Type().IsMapType() && m.HasIndex(cty.StringVal(k)).True():
			return m.Index(cty.StringVal(k)).WithMarks(mapMarks, keyMarks), nil
		case len(args) < 3:
			// The key may be sensitive: do not quote it then.
			if len(keyMarks) > 0 {
				return cty.NilVal, function.NewArgErrorf(1, "the map has no element for the given key; give a default as the third argument")
			}
			return cty.NilVal, function.NewArgErrorf(1, "the map has no element for key %q; give a default as the third argument", k)
		}
		def, err := convert.Convert(args[2], retType)
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(2, "the default value must have the same type as the map elements: %s", err)
		}
		return def.WithMarks(mapMarks, keyMarks), nil
	},
})
