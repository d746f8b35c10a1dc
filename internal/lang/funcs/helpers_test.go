package funcs

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/plankit/plankit/internal/lang/marks"
)

// callCase is one row of a function table test. When err is set the call
// must fail with an error containing it; otherwise it must return want.
type callCase struct {
	name string
	args []cty.Value
	want cty.Value
	err  string
}

// sens marks v sensitive, for brevity in tables.
func sens(v cty.Value) cty.Value { return v.Mark(marks.Sensitive) }

// sameValue compares values with their marks. Unknown values compare by
// type and marks only, so refinements (not null, prefixes) do not make
// otherwise-right results fail.
func sameValue(want, got cty.Value) bool {
	wu, wm := want.Unmark()
	gu, gm := got.Unmark()
	if !wm.Equal(gm) {
		return false
	}
	if !wu.IsKnown() {
		return !gu.IsKnown() && wu.Type().Equals(gu.Type())
	}
	return want.RawEquals(got)
}

func runCases(t *testing.T, f function.Function, cases []callCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := f.Call(tc.args)
			if tc.err != "" {
				if err == nil {
					t.Fatalf("succeeded with %#v, want error containing %q", got, tc.err)
				}
				if !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %q does not contain %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %s", err)
			}
			if !sameValue(tc.want, got) {
				t.Errorf("got  %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func strs(ss ...string) cty.Value {
	vs := make([]cty.Value, len(ss))
	for i, s := range ss {
		vs[i] = cty.StringVal(s)
	}
	return cty.ListVal(vs)
}

func nums(ns ...int64) cty.Value {
	vs := make([]cty.Value, len(ns))
	for i, n := range ns {
		vs[i] = cty.NumberIntVal(n)
	}
	return cty.ListVal(vs)
}
