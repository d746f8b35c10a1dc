package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/lang/marks"
)

func TestMakeToFunc(t *testing.T) {
	s := cty.StringVal
	obj := cty.ObjectVal(map[string]cty.Value{"a": sens(s("x")), "b": s("y")})
	t.Run("tostring", func(t *testing.T) {
		runCases(t, MakeToFunc(cty.String), []callCase{
			{name: "number", args: []cty.Value{cty.NumberIntVal(5)}, want: s("5")},
			{name: "bool", args: []cty.Value{cty.True}, want: s("true")},
			{name: "null", args: []cty.Value{cty.NullVal(cty.Number)}, want: cty.NullVal(cty.String)},
			{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.Number)}, want: cty.UnknownVal(cty.String)},
			{name: "dynamic", args: []cty.Value{cty.DynamicVal}, want: cty.UnknownVal(cty.String)},
			{name: "sensitive", args: []cty.Value{sens(cty.NumberIntVal(5))}, want: sens(s("5"))},
			{name: "list", args: []cty.Value{strs("a")}, err: "cannot convert list of string to string"},
		})
	})
	t.Run("tonumber", func(t *testing.T) {
		runCases(t, MakeToFunc(cty.Number), []callCase{
			{name: "string", args: []cty.Value{s("1.5")}, want: cty.NumberFloatVal(1.5)},
			{name: "bad string", args: []cty.Value{s("abc")}, err: `cannot convert "abc" to number`},
			{name: "sensitive bad string is not quoted", args: []cty.Value{sens(s("hunter2"))}, err: "cannot convert sensitive string to number"},
		})
	})
	t.Run("tobool", func(t *testing.T) {
		runCases(t, MakeToFunc(cty.Bool), []callCase{
			{name: "string", args: []cty.Value{s("true")}, want: cty.True},
			{name: "bad string", args: []cty.Value{s("yes")}, err: `only the strings "true" or "false" are allowed`},
		})
	})
	t.Run("tolist", func(t *testing.T) {
		runCases(t, MakeToFunc(cty.List(cty.DynamicPseudoType)), []callCase{
			{name: "tuple", args: []cty.Value{cty.TupleVal([]cty.Value{s("a"), cty.NumberIntVal(1)})}, want: strs("a", "1")},
			{name: "set", args: []cty.Value{cty.SetVal([]cty.Value{s("a")})}, want: strs("a")},
			{name: "unknown tuple", args: []cty.Value{cty.UnknownVal(cty.Tuple([]cty.Type{cty.String}))}, want: cty.UnknownVal(cty.List(cty.String))},
			{name: "mixed", args: []cty.Value{cty.TupleVal([]cty.Value{s("a"), strs("b")})}, err: "cannot convert"},
		})
	})
	t.Run("tomap keeps nested marks", func(t *testing.T) {
		runCases(t, MakeToFunc(cty.Map(cty.DynamicPseudoType)), []callCase{
			{name: "object", args: []cty.Value{obj}, want: cty.MapVal(map[string]cty.Value{"a": sens(s("x")), "b": s("y")})},
		})
	})
	t.Run("toset", func(t *testing.T) {
		runCases(t, MakeToFunc(cty.Set(cty.DynamicPseudoType)), []callCase{
			{name: "dups", args: []cty.Value{strs("a", "a", "b")}, want: cty.SetVal([]cty.Value{s("a"), s("b")})},
		})
	})
}

func TestSensitivity(t *testing.T) {
	s := cty.StringVal
	nested := cty.ObjectVal(map[string]cty.Value{"a": sens(s("x"))})
	runCases(t, SensitiveFunc, []callCase{
		{name: "string", args: []cty.Value{s("x")}, want: sens(s("x"))},
		{name: "already", args: []cty.Value{sens(s("x"))}, want: sens(s("x"))},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String)}, want: sens(cty.UnknownVal(cty.String))},
		{name: "null", args: []cty.Value{cty.NullVal(cty.String)}, want: sens(cty.NullVal(cty.String))},
		{name: "dynamic", args: []cty.Value{cty.DynamicVal}, want: sens(cty.DynamicVal)},
	})
	runCases(t, NonsensitiveFunc, []callCase{
		{name: "removes", args: []cty.Value{sens(s("x"))}, want: s("x")},
		{name: "not sensitive passes", args: []cty.Value{s("x")}, want: s("x")},
		{name: "unknown", args: []cty.Value{sens(cty.UnknownVal(cty.String))}, want: cty.UnknownVal(cty.String)},
		{name: "nested marks stay", args: []cty.Value{nested.Mark(marks.Sensitive)}, want: nested},
	})
	runCases(t, IsSensitiveFunc, []callCase{
		{name: "yes", args: []cty.Value{sens(s("x"))}, want: cty.True},
		{name: "no", args: []cty.Value{s("x")}, want: cty.False},
		{name: "unknown sensitive", args: []cty.Value{sens(cty.UnknownVal(cty.String))}, want: cty.True},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.Bool)},
		{name: "null", args: []cty.Value{cty.NullVal(cty.String)}, want: cty.False},
	})
}

func TestEphemeralAsNull(t *testing.T) {
	s := cty.StringVal
	eph := func(v cty.Value) cty.Value { return v.Mark(marks.Ephemeral) }
	runCases(t, EphemeralAsNullFunc, []callCase{
		{name: "plain passes", args: []cty.Value{s("a")}, want: s("a")},
		{name: "ephemeral string", args: []cty.Value{eph(s("a"))}, want: cty.NullVal(cty.String)},
		{name: "ephemeral unknown", args: []cty.Value{eph(cty.UnknownVal(cty.Bool))}, want: cty.NullVal(cty.Bool)},
		{name: "only the ephemeral attribute",
			args: []cty.Value{cty.ObjectVal(map[string]cty.Value{"a": eph(s("x")), "b": s("keep"), "c": sens(s("s"))})},
			want: cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.String), "b": s("keep"), "c": sens(s("s"))})},
		{name: "sensitive and ephemeral stays sensitive", args: []cty.Value{sens(eph(s("a")))}, want: sens(cty.NullVal(cty.String))},
		{name: "whole list", args: []cty.Value{eph(strs("a", "b"))}, want: cty.NullVal(cty.List(cty.String))},
		{name: "one element", args: []cty.Value{cty.TupleVal([]cty.Value{s("a"), eph(s("b"))})},
			want: cty.TupleVal([]cty.Value{s("a"), cty.NullVal(cty.String)})},
	})
}
