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
