package funcs

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// billionLaughs is the YAML alias bomb: nine levels of ten aliases each
// describe 10^9 strings in a few hundred bytes.
const billionLaughs = `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
`

func TestDecodeGuards(t *testing.T) {
	deep := func(open, close string, n int) string {
		return strings.Repeat(open, n) + strings.Repeat(close, n)
	}
	tests := []struct {
		name string
		fn   function.Function
		src  string
		err  string // "" means it decodes
	}{
		{"json at the limit", JSONDecodeFunc, deep("[", "]", MaxDecodeDepth), ""},
		{"json too deep", JSONDecodeFunc, deep("[", "]", 100000), "more than 1000 levels deep"},
		{"json brackets in strings", JSONDecodeFunc, `["` + strings.Repeat("[", 5000) + `\"x"]`, ""},
		{"json objects too deep", JSONDecodeFunc, strings.Repeat(`{"a":`, 2000) + "1" + strings.Repeat("}", 2000), "more than 1000 levels deep"},
		{"json number with a huge exponent", JSONDecodeFunc, `{"a": "1e600000000", "b": 1e600000000}`, "decimal exponent beyond 100000 at byte 26"},
		{"yaml anchors", YAMLDecodeFunc, "a: &x {b: 1}\nc: *x\nd: *x\n", ""},
		{"yaml flow too deep", YAMLDecodeFunc, deep("[", "]", 100000), "levels deep"},
		{"yaml flow over the limit", YAMLDecodeFunc, deep("[", "]", 1500), "more than 1000 levels deep"},
		{"yaml billion laughs", YAMLDecodeFunc, billionLaughs, "alias bomb"},
		{"yaml malformed is the decoder's", YAMLDecodeFunc, "a: [", "did not find expected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := tt.fn.Call([]cty.Value{cty.StringVal(tt.src)})
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %s", d)
			}
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("got error %v, want one containing %q", err, tt.err)
			}
		})
	}
}

func TestTemplateNestingGuard(t *testing.T) {
	src := strings.Repeat("${[", 50000) + strings.Repeat("]}", 50000)
	_, err := renderTemplate([]byte(src), "t.tmpl", hcl.InitialPos, cty.EmptyObjectVal, nil)
	if err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Fatalf("got %v, want the nesting error", err)
	}
}

func TestSizeGuards(t *testing.T) {
	thousand := make([]cty.Value, 1000)
	for i := range thousand {
		thousand[i] = cty.NumberIntVal(int64(i))
	}
	l := cty.ListVal(thousand)
	small := cty.ListVal(thousand[:10])
	tests := []struct {
		name string
		fn   function.Function
		args []cty.Value
		err  string
	}{
		{"setproduct of a billion", SetProductFunc, []cty.Value{l, l, l}, "has 1000000000 elements; setproduct returns at most 2000000"},
		{"setproduct of a thousand", SetProductFunc, []cty.Value{small, small, small}, ""},
		{"setproduct unknown", SetProductFunc, []cty.Value{l, cty.UnknownVal(cty.List(cty.Number)), l}, ""},
		{"indent a billion", IndentFunc, []cty.Value{cty.NumberIntVal(1e9), cty.StringVal("a\nb")}, "indenting by 1000000000 spaces"},
		{"indent a billion, one line", IndentFunc, []cty.Value{cty.NumberIntVal(1e9), cty.StringVal("a")}, "indenting by 1000000000 spaces"},
		{"indent", IndentFunc, []cty.Value{cty.NumberIntVal(2), cty.StringVal("a\nb")}, ""},
		{"format a gigabyte wide", FormatFunc, []cty.Value{cty.StringVal("%01000000000d"), cty.NumberIntVal(1)}, `asks for a width of 1000000000`},
		{"format a gigabyte precise", FormatFunc, []cty.Value{cty.StringVal("x=%-.2000000000f"), cty.NumberIntVal(1)}, `asks for a precision of 2000000000`},
		{"formatlist wide", FormatListFunc, []cty.Value{cty.StringVal("%9999999999s"), cty.ListVal([]cty.Value{cty.StringVal("a")})}, "format allows at most 1000000"},
		{"format ordinary", FormatFunc, []cty.Value{cty.StringVal("100%% %-8s|%08.3f|%[1]q"), cty.StringVal("a"), cty.NumberFloatVal(1.5)}, ""},
		{"format unknown", FormatFunc, []cty.Value{cty.UnknownVal(cty.String), cty.NumberIntVal(1)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.fn.Call(tt.args)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("got error %v, want one containing %q", err, tt.err)
			}
		})
	}
	if got, _ := FormatFunc.Call([]cty.Value{cty.StringVal("%05.1f|%-3s|"), cty.NumberFloatVal(2.25), cty.StringVal("a")}); !got.RawEquals(cty.StringVal("002.2|a  |")) && !got.RawEquals(cty.StringVal("002.3|a  |")) {
		t.Errorf("format gave %#v", got)
	}
	if got, _ := IndentFunc.Call([]cty.Value{cty.NumberIntVal(2), cty.StringVal("a\nb")}); !got.RawEquals(cty.StringVal("a\n  b")) {
		t.Errorf("indent gave %#v", got)
	}
}

// TestToSetUniformTuple: toset and tolist of a tuple whose elements share
// one type give a collection of that type without go-cty's quadratic type
// unification (a for_each over a million keys spent minutes there), and
// the same result as before for mixed tuples.
func TestToSetUniformTuple(t *testing.T) {
	strs := make([]cty.Value, 100000)
	for i := range strs {
		strs[i] = cty.StringVal(strings.Repeat("k", i%7) + string(rune('a'+i%26)) + strings.Repeat("x", i/26%5))
	}
	got, err := MakeToFunc(cty.Set(cty.DynamicPseudoType)).Call([]cty.Value{cty.TupleVal(strs)})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Type().Equals(cty.Set(cty.String)) {
		t.Errorf("toset gave %s", got.Type().FriendlyName())
	}
	mixed, err := MakeToFunc(cty.List(cty.DynamicPseudoType)).Call([]cty.Value{cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(1)})})
	if err != nil || !mixed.RawEquals(cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("1")})) {
		t.Errorf("tolist of a mixed tuple gave %#v, %v", mixed, err)
	}
	for _, tt := range []struct {
		got, want cty.Type
		ok        bool
	}{
		{cty.Tuple([]cty.Type{cty.String, cty.String}), cty.Set(cty.DynamicPseudoType), true},
		{cty.Tuple([]cty.Type{cty.String, cty.Number}), cty.Set(cty.DynamicPseudoType), false},
		{cty.Tuple([]cty.Type{cty.DynamicPseudoType}), cty.List(cty.DynamicPseudoType), false},
		{cty.EmptyTuple, cty.List(cty.DynamicPseudoType), false},
		{cty.Tuple([]cty.Type{cty.String}), cty.Map(cty.DynamicPseudoType), false},
	} {
		if _, ok := uniformTupleCollection(tt.got, tt.want); ok != tt.ok {
			t.Errorf("uniformTupleCollection(%s, %s) = %v", tt.got.FriendlyName(), tt.want.FriendlyName(), ok)
		}
	}
}
