package configschema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestAttributeByPath(t *testing.T) {
	s := testSchema()
	tests := []struct {
		path cty.Path
		want *Attribute
	}{
		{cty.GetAttrPath("name"), s.Attributes["name"]},
		{cty.GetAttrPath("rule").IndexInt(0).GetAttr("port"), s.BlockTypes["rule"].Attributes["port"]},
		{cty.GetAttrPath("rule").GetAttr("port"), s.BlockTypes["rule"].Attributes["port"]},
		{cty.GetAttrPath("single").GetAttr("a"), s.BlockTypes["single"].Attributes["a"]},
		{cty.GetAttrPath("env").IndexString("k").GetAttr("v"), s.BlockTypes["env"].Attributes["v"]},
		{cty.GetAttrPath("tags").IndexString("a"), nil},
		{cty.GetAttrPath("rule"), nil},
		{cty.GetAttrPath("nope"), nil},
		{nil, nil},
	}
	for _, tt := range tests {
		if got := s.AttributeByPath(tt.path); got != tt.want {
			t.Errorf("AttributeByPath(%s) = %p, want %p", FormatPath(tt.path), got, tt.want)
		}
	}
}

func TestSensitivePaths(t *testing.T) {
	s := testSchema()
	val, diags := s.Decode(parse(t, `
name = "x"
password = "p"
rule { port = 1 }
rule {
  port = 2
  secret = "s"
}
`), nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var got []string
	for _, p := range s.SensitivePaths(val) {
		got = append(got, FormatPath(p))
	}
	want := []string{"password", "rule[0].secret", "rule[1].secret"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
	if ps := s.SensitivePaths(cty.NullVal(s.ImpliedType())); len(ps) != 0 {
		t.Fatalf("null value has sensitive paths %v", ps)
	}
}
