package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestReplace(t *testing.T) {
	s := cty.StringVal
	runCases(t, ReplaceFunc, []callCase{
		{name: "plain", args: []cty.Value{s("a.b.c"), s("."), s("-")}, want: s("a-b-c")},
		{name: "regex", args: []cty.Value{s("hello world"), s("/w(or)ld/"), s("$1")}, want: s("hello or")},
		{name: "single slash is plain", args: []cty.Value{s("a/b"), s("/"), s("|")}, want: s("a|b")},
		{name: "bad regex", args: []cty.Value{s("a"), s("/(/"), s("")}, err: "missing closing"},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String), s("a"), s("b")}, want: cty.UnknownVal(cty.String)},
		{name: "sensitive", args: []cty.Value{sens(s("secret")), s("e"), s("3")}, want: sens(s("s3cr3t"))},
		{name: "null", args: []cty.Value{cty.NullVal(cty.String), s("a"), s("b")}, err: "must not be null"},
	})
}

func TestStartsWith(t *testing.T) {
	s := cty.StringVal
	prefixed := cty.UnknownVal(cty.String).Refine().StringPrefix("arn:aws:").NewValue()
	runCases(t, StartsWithFunc, []callCase{
		{name: "yes", args: []cty.Value{s("hello"), s("he")}, want: cty.True},
		{name: "no", args: []cty.Value{s("hello"), s("lo")}, want: cty.False},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String), s("a")}, want: cty.UnknownVal(cty.Bool)},
		{name: "known prefix decides yes", args: []cty.Value{prefixed, s("arn:")}, want: cty.True},
		{name: "known prefix decides no", args: []cty.Value{prefixed, s("urn:")}, want: cty.False},
		{name: "known prefix too short", args: []cty.Value{prefixed, s("arn:aws:iam")}, want: cty.UnknownVal(cty.Bool)},
		{name: "sensitive", args: []cty.Value{sens(s("hello")), s("he")}, want: sens(cty.True)},
		{name: "unknown prefix", args: []cty.Value{s("hello"), cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.Bool)},
	})
}

func TestEndsWithAndStrContains(t *testing.T) {
	s := cty.StringVal
	runCases(t, EndsWithFunc, []callCase{
		{name: "yes", args: []cty.Value{s("hello"), s("lo")}, want: cty.True},
		{name: "no", args: []cty.Value{s("hello"), s("he")}, want: cty.False},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String), s("a")}, want: cty.UnknownVal(cty.Bool)},
		{name: "sensitive", args: []cty.Value{s("hello"), sens(s("lo"))}, want: sens(cty.True)},
	})
	runCases(t, StrContainsFunc, []callCase{
		{name: "yes", args: []cty.Value{s("hello"), s("ell")}, want: cty.True},
		{name: "no", args: []cty.Value{s("hello"), s("xyz")}, want: cty.False},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String), s("a")}, want: cty.UnknownVal(cty.Bool)},
		{name: "sensitive", args: []cty.Value{sens(s("hello")), s("ell")}, want: sens(cty.True)},
		{name: "null", args: []cty.Value{s("a"), cty.NullVal(cty.String)}, err: "must not be null"},
	})
}
