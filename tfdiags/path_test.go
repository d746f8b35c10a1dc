package tfdiags

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestFormatPath(t *testing.T) {
	tests := []struct {
		path cty.Path
		want string
	}{
		{nil, ""},
		{cty.GetAttrPath("a"), "a"},
		{cty.GetAttrPath("a").GetAttr("b"), "a.b"},
		{cty.IndexIntPath(0).GetAttr("a"), "[0].a"},
		{cty.GetAttrPath("m").IndexString("k").IndexInt(2), `m["k"][2]`},
		{cty.GetAttrPath("m").IndexString(`q"uote`), `m["q\"uote"]`},
		{cty.Path{cty.IndexStep{Key: cty.UnknownVal(cty.String)}}, "[?]"},
		{cty.Path{cty.IndexStep{Key: cty.NullVal(cty.Number)}}, "[?]"},
		{cty.Path{cty.IndexStep{Key: cty.True}}, "[...]"},
		{cty.Path{cty.IndexStep{Key: cty.NumberFloatVal(1.5)}}, "[1.5]"},
	}
	for _, tt := range tests {
		if got := FormatPath(tt.path); got != tt.want {
			t.Errorf("FormatPath(%#v) = %q, want %q", tt.path, got, tt.want)
		}
	}
}
