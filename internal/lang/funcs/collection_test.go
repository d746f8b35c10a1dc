package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestLength(t *testing.T) {
	runCases(t, LengthFunc, []callCase{
		{name: "list", args: []cty.Value{strs("a", "b")}, want: cty.NumberIntVal(2)},
		{name: "empty list", args: []cty.Value{cty.ListValEmpty(cty.String)}, want: cty.Zero},
		{name: "string graphemes", args: []cty.Value{cty.StringVal("héllo👍🏽")}, want: cty.NumberIntVal(6)},
		{name: "map", args: []cty.Value{cty.MapVal(map[string]cty.Value{"a": cty.True})}, want: cty.NumberIntVal(1)},
		{name: "object", args: []cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.True, "b": cty.False})}, want: cty.NumberIntVal(2)},
		{name: "unknown tuple is known", args: []cty.Value{cty.UnknownVal(cty.Tuple([]cty.Type{cty.String}))}, want: cty.NumberIntVal(1)},
		{name: "unknown list", args: []cty.Value{cty.UnknownVal(cty.List(cty.String))}, want: cty.UnknownVal(cty.Number)},
		{name: "list with unknown element", args: []cty.Value{cty.ListVal([]cty.Value{cty.UnknownVal(cty.String)})}, want: cty.NumberIntVal(1)},
		{name: "dynamic", args: []cty.Value{cty.DynamicVal}, want: cty.UnknownVal(cty.Number)},
		{name: "sensitive", args: []cty.Value{sens(strs("a"))}, want: sens(cty.NumberIntVal(1))},
		{name: "sensitive element stays inside", args: []cty.Value{cty.ListVal([]cty.Value{sens(cty.StringVal("a"))})}, want: cty.NumberIntVal(1)},
		{name: "null", args: []cty.Value{cty.NullVal(cty.List(cty.String))}, err: "must not be null"},
		{name: "number", args: []cty.Value{cty.NumberIntVal(1)}, err: "must be a string, a collection type, or a structural type"},
	})
}

func TestIndex(t *testing.T) {
	runCases(t, IndexFunc, []callCase{
		{name: "found", args: []cty.Value{strs("a", "b", "c"), cty.StringVal("b")}, want: cty.NumberIntVal(1)},
		{name: "tuple", args: []cty.Value{cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(1)}), cty.NumberIntVal(1)}, want: cty.NumberIntVal(1)},
		{name: "missing", args: []cty.Value{strs("a"), cty.StringVal("z")}, err: "item not found"},
		{name: "empty", args: []cty.Value{cty.ListValEmpty(cty.String), cty.StringVal("z")}, err: "cannot search an empty list"},
		{name: "unknown element first", args: []cty.Value{cty.ListVal([]cty.Value{cty.UnknownVal(cty.String), cty.StringVal("b")}), cty.StringVal("b")}, want: cty.UnknownVal(cty.Number)},
		{name: "unknown list", args: []cty.Value{cty.UnknownVal(cty.List(cty.String)), cty.StringVal("b")}, want: cty.UnknownVal(cty.Number)},
		{name: "sensitive value", args: []cty.Value{strs("a", "b"), sens(cty.StringVal("b"))}, want: sens(cty.NumberIntVal(1))},
		{name: "not a list", args: []cty.Value{cty.StringVal("a"), cty.StringVal("a")}, err: "must be a list or tuple"},
	})
}

func TestSum(t *testing.T) {
	runCases(t, SumFunc, []callCase{
		{name: "list", args: []cty.Value{nums(1, 2, 3)}, want: cty.NumberIntVal(6)},
		{name: "set", args: []cty.Value{cty.SetVal([]cty.Value{cty.NumberFloatVal(1.5), cty.NumberIntVal(2)})}, want: cty.NumberFloatVal(3.5)},
		{name: "tuple of number strings", args: []cty.Value{cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.StringVal("2")})}, want: cty.NumberIntVal(3)},
		{name: "empty", args: []cty.Value{cty.ListValEmpty(cty.Number)}, err: "cannot sum an empty list"},
		{name: "null element", args: []cty.Value{cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NullVal(cty.Number)})}, err: "without null elements"},
		{name: "not numbers", args: []cty.Value{strs("a")}, err: "list, set, or tuple of numbers"},
		{name: "unknown element", args: []cty.Value{cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.UnknownVal(cty.Number)})}, want: cty.UnknownVal(cty.Number)},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.List(cty.Number))}, want: cty.UnknownVal(cty.Number)},
		{name: "sensitive element", args: []cty.Value{cty.ListVal([]cty.Value{cty.NumberIntVal(1), sens(cty.NumberIntVal(2))})}, want: sens(cty.NumberIntVal(3))},
		{name: "not a collection", args: []cty.Value{cty.NumberIntVal(1)}, err: "must be a list, set, or tuple"},
	})
}

func bools(vs ...cty.Value) cty.Value { return cty.ListVal(vs) }

func TestAllTrue(t *testing.T) {
	runCases(t, AllTrueFunc, []callCase{
		{name: "all true", args: []cty.Value{bools(cty.True, cty.True)}, want: cty.True},
		{name: "one false", args: []cty.Value{bools(cty.True, cty.False)}, want: cty.False},
		{name: "empty", args: []cty.Value{cty.ListValEmpty(cty.Bool)}, want: cty.True},
		{name: "null is false", args: []cty.Value{bools(cty.True, cty.NullVal(cty.Bool))}, want: cty.False},
		{name: "unknown", args: []cty.Value{bools(cty.True, cty.UnknownVal(cty.Bool))}, want: cty.UnknownVal(cty.Bool)},
		{name: "false before unknown", args: []cty.Value{bools(cty.False, cty.UnknownVal(cty.Bool))}, want: cty.False},
		{name: "sensitive", args: []cty.Value{bools(cty.True, sens(cty.True))}, want: sens(cty.True)},
		{name: "not bools", args: []cty.Value{strs("x")}, err: "bool"},
	})
}

func TestAnyTrue(t *testing.T) {
	runCases(t, AnyTrueFunc, []callCase{
		{name: "one true", args: []cty.Value{bools(cty.False, cty.True)}, want: cty.True},
		{name: "none", args: []cty.Value{bools(cty.False, cty.False)}, want: cty.False},
		{name: "empty", args: []cty.Value{cty.ListValEmpty(cty.Bool)}, want: cty.False},
		{name: "null skipped", args: []cty.Value{bools(cty.NullVal(cty.Bool), cty.False)}, want: cty.False},
		{name: "unknown and false", args: []cty.Value{bools(cty.UnknownVal(cty.Bool), cty.False)}, want: cty.UnknownVal(cty.Bool)},
		{name: "unknown and true", args: []cty.Value{bools(cty.UnknownVal(cty.Bool), cty.True)}, want: cty.True},
		{name: "sensitive", args: []cty.Value{sens(bools(cty.True))}, want: sens(cty.True)},
	})
}

func TestOne(t *testing.T) {
	runCases(t, OneFunc, []callCase{
		{name: "one", args: []cty.Value{strs("a")}, want: cty.StringVal("a")},
		{name: "empty list", args: []cty.Value{cty.ListValEmpty(cty.String)}, want: cty.NullVal(cty.String)},
		{name: "empty tuple", args: []cty.Value{cty.EmptyTupleVal}, want: cty.NullVal(cty.DynamicPseudoType)},
		{name: "set", args: []cty.Value{cty.SetVal([]cty.Value{cty.True})}, want: cty.True},
		{name: "tuple", args: []cty.Value{cty.TupleVal([]cty.Value{cty.NumberIntVal(3)})}, want: cty.NumberIntVal(3)},
		{name: "two", args: []cty.Value{strs("a", "b")}, err: "either zero or one elements"},
		{name: "long tuple", args: []cty.Value{cty.TupleVal([]cty.Value{cty.True, cty.True})}, err: "either zero or one elements"},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.List(cty.String))}, want: cty.UnknownVal(cty.String)},
		{name: "sensitive", args: []cty.Value{sens(strs("a"))}, want: sens(cty.StringVal("a"))},
		{name: "not a collection", args: []cty.Value{cty.StringVal("a")}, err: "must be a list, set, or tuple"},
	})
}

func TestTranspose(t *testing.T) {
	in := cty.MapVal(map[string]cty.Value{
		"a": strs("1", "2"),
		"b": strs("2", "3"),
	})
	want := cty.MapVal(map[string]cty.Value{
		"1": strs("a"),
		"2": strs("a", "b"),
		"3": strs("b"),
	})
	runCases(t, TransposeFunc, []callCase{
		{name: "basic", args: []cty.Value{in}, want: want},
		{name: "empty", args: []cty.Value{cty.MapValEmpty(cty.List(cty.String))}, want: cty.MapValEmpty(cty.List(cty.String))},
		{name: "unknown list", args: []cty.Value{cty.MapVal(map[string]cty.Value{"a": cty.UnknownVal(cty.List(cty.String))})}, want: cty.UnknownVal(cty.Map(cty.List(cty.String)))},
		{name: "null element", args: []cty.Value{cty.MapVal(map[string]cty.Value{"a": cty.ListVal([]cty.Value{cty.NullVal(cty.String)})})}, err: "must not be null"},
		{name: "sensitive", args: []cty.Value{sens(in)}, want: sens(want)},
	})
}

func TestMatchkeys(t *testing.T) {
	runCases(t, MatchkeysFunc, []callCase{
		{name: "basic", args: []cty.Value{strs("i-1", "i-2", "i-3"), strs("us-a", "us-b", "us-a"), strs("us-a")}, want: strs("i-1", "i-3")},
		{name: "none", args: []cty.Value{strs("i-1"), strs("x"), strs("y")}, want: cty.ListValEmpty(cty.String)},
		{name: "length mismatch", args: []cty.Value{strs("i-1"), strs("a", "b"), strs("a")}, err: "length of keys and values should be equal"},
		{name: "unknown key", args: []cty.Value{strs("i-1"), cty.ListVal([]cty.Value{cty.UnknownVal(cty.String)}), strs("a")}, want: cty.UnknownVal(cty.List(cty.String))},
		{name: "sensitive values", args: []cty.Value{sens(strs("i-1")), strs("a"), strs("a")}, want: sens(strs("i-1"))},
	})
}

func TestCoalesce(t *testing.T) {
	s := cty.StringVal
	runCases(t, CoalesceFunc, []callCase{
		{name: "first", args: []cty.Value{s("a"), s("b")}, want: s("a")},
		{name: "skips empty string", args: []cty.Value{s(""), s("b")}, want: s("b")},
		{name: "skips null", args: []cty.Value{cty.NullVal(cty.String), s("b")}, want: s("b")},
		{name: "unifies", args: []cty.Value{cty.NullVal(cty.Number), cty.NumberIntVal(1), s("x")}, want: s("1")},
		{name: "numbers", args: []cty.Value{cty.NullVal(cty.Number), cty.NumberIntVal(2)}, want: cty.NumberIntVal(2)},
		{name: "none", args: []cty.Value{s(""), cty.NullVal(cty.String)}, err: "no non-null, non-empty-string arguments"},
		{name: "mixed types", args: []cty.Value{strs("a"), s("b")}, err: "all arguments must have the same type"},
		{name: "unknown first", args: []cty.Value{cty.UnknownVal(cty.String), s("b")}, want: cty.UnknownVal(cty.String)},
		{name: "unknown after usable", args: []cty.Value{s("a"), cty.UnknownVal(cty.String)}, want: s("a")},
		{name: "sensitive", args: []cty.Value{sens(s("")), s("b")}, want: sens(s("b"))},
	})
}

func TestLookup(t *testing.T) {
	s := cty.StringVal
	m := cty.MapVal(map[string]cty.Value{"a": s("ay"), "b": s("bee")})
	o := cty.ObjectVal(map[string]cty.Value{"a": s("ay"), "n": cty.NumberIntVal(1)})
	runCases(t, LookupFunc, []callCase{
		{name: "found", args: []cty.Value{m, s("a"), s("what?")}, want: s("ay")},
		{name: "default", args: []cty.Value{m, s("c"), s("what?")}, want: s("what?")},
		{name: "two arguments found", args: []cty.Value{m, s("b")}, want: s("bee")},
		{name: "two arguments missing", args: []cty.Value{m, s("c")}, err: `no element for key "c"`},
		{name: "object attribute", args: []cty.Value{o, s("n")}, want: cty.NumberIntVal(1)},
		{name: "object default", args: []cty.Value{o, s("z"), cty.True}, want: cty.True},
		{name: "object missing", args: []cty.Value{o, s("z")}, err: `no attribute "z"`},
		{name: "default converts", args: []cty.Value{m, s("c"), cty.NumberIntVal(3)}, want: s("3")},
		{name: "null default", args: []cty.Value{m, s("c"), cty.NullVal(cty.String)}, want: cty.NullVal(cty.String)},
		{name: "bad default type", args: []cty.Value{m, s("c"), cty.EmptyObjectVal}, err: "same type as the map elements"},
		{name: "four arguments", args: []cty.Value{m, s("a"), s("x"), s("y")}, err: "two or three arguments"},
		{name: "not a map", args: []cty.Value{s("x"), s("a")}, err: "requires a map"},
		{name: "unknown map", args: []cty.Value{cty.UnknownVal(cty.Map(cty.String)), s("a")}, want: cty.UnknownVal(cty.String)},
		{name: "unknown key", args: []cty.Value{m, cty.UnknownVal(cty.String), s("x")}, want: cty.UnknownVal(cty.String)},
		{name: "unknown default unused", args: []cty.Value{m, s("a"), cty.UnknownVal(cty.String)}, want: s("ay")},
		{name: "sensitive map", args: []cty.Value{sens(m), s("a")}, want: sens(s("ay"))},
		{name: "sensitive key", args: []cty.Value{m, sens(s("a"))}, want: sens(s("ay"))},
		{name: "sensitive key missing not quoted", args: []cty.Value{m, sens(s("secret"))}, err: "no element for the given key"},
		{name: "sensitive default", args: []cty.Value{m, s("c"), sens(s("d"))}, want: sens(s("d"))},
		{name: "null map", args: []cty.Value{cty.NullVal(cty.Map(cty.String)), s("a")}, err: "must not be null"},
	})
}
