package views

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/states"
)

// TestApplySummaryHidesSensitiveOutputs checks that apply's outputs, human
// and -json, never carry a value that is declared sensitive or holds a
// sensitive value at any depth, while plain outputs still show.
func TestApplySummaryHidesSensitiveOutputs(t *testing.T) {
	state := states.NewState()
	set := func(name string, v cty.Value, sensitive bool) {
		state.SetOutputValue(addrs.OutputValue{Name: name}.Absolute(addrs.RootModuleInstance), v, sensitive)
	}
	set("declared", cty.StringVal("SECRET1"), true)
	set("nested", cty.ObjectVal(map[string]cty.Value{"pw": cty.StringVal("SECRET2").Mark(marks.Sensitive), "u": cty.StringVal("x")}), false)
	set("list", cty.TupleVal([]cty.Value{cty.StringVal("SECRET3").Mark(marks.Sensitive)}), false)
	set("plain", cty.StringVal("visible"), false)

	tests := map[string]struct {
		json bool
		want []string
	}{
		"human": {false, []string{"declared = <sensitive>\n", "nested = <sensitive>\n", "list = <sensitive>\n", `plain = "visible"`}},
		"json":  {true, []string{`"declared":{"sensitive":true,"type":"string"}`, `"nested":{"sensitive":true,`, `"plain":{"sensitive":false,"type":"string","value":"visible"}`}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			v := ApplyView{Out: &out}
			if tt.json {
				v.JSON = &JSONView{W: &out}
			}
			v.Summary(render.Counts{}, false, state)
			got := out.String()
			for _, s := range []string{"SECRET1", "SECRET2", "SECRET3"} {
				if strings.Contains(got, s) {
					t.Errorf("secret %q shown:\n%s", s, got)
				}
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("want %q in:\n%s", w, got)
				}
			}
		})
	}
}

// TestIDOfHidesSensitiveID checks that progress lines never show an id
// that is sensitive.
func TestIDOfHidesSensitiveID(t *testing.T) {
	obj := func(id cty.Value) cty.Value { return cty.ObjectVal(map[string]cty.Value{"id": id}) }
	tests := map[string]struct {
		v    cty.Value
		want string
	}{
		"plain":          {obj(cty.StringVal("abc")), "abc"},
		"sensitive id":   {obj(cty.StringVal("SECRET").Mark(marks.Sensitive)), ""},
		"sensitive body": {obj(cty.StringVal("SECRET")).Mark(marks.Sensitive), ""},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if _, got := idOf(tt.v); got != tt.want {
				t.Errorf("idOf = %q, want %q", got, tt.want)
			}
		})
	}
}
