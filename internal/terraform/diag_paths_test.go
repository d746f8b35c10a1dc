package terraform

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

func TestRangeForPath(t *testing.T) {
	src := `name = "x"
obj = { a = { b = 1 }, list = [1, 2] }
rule {
  port = 80
}
rule {
  port = 81
}
env "dev" {
  v = "d"
}
`
	f, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	p := cty.GetAttrPath
	tests := []struct {
		path cty.Path
		want string // line,column or "nil"
	}{
		{p("name"), "1,8"},
		{p("obj").GetAttr("a").GetAttr("b"), "2,19"},
		{p("obj").GetAttr("list").IndexInt(1), "2,35"},
		{p("obj").GetAttr("missing"), "2,7"},
		{p("rule").IndexInt(1).GetAttr("port"), "7,10"},
		{p("rule").IndexInt(0), "3,1"},
		{p("env").IndexString("dev").GetAttr("v"), "10,7"},
		{p("rule").IndexInt(5).GetAttr("port"), "3,1"},
		{p("nothing"), "nil"},
	}
	for _, tt := range tests {
		r := rangeForPath(f.Body, tt.path)
		got := "nil"
		if r != nil {
			got = fmt.Sprintf("%d,%d", r.Start.Line, r.Start.Column)
		}
		if got != tt.want {
			t.Errorf("%#v: %s, want %s", tt.path, got, tt.want)
		}
	}
}
