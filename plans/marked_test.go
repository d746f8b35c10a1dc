package plans

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/lang/marks"
	"github.com/plankit/plankit/providers/configschema"
)

func TestChangeMarked(t *testing.T) {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":       {Type: cty.String, Computed: true},
		"password": {Type: cty.String, Optional: true, Sensitive: true},
		"tags":     {Type: cty.Map(cty.String), Optional: true},
	}}
	obj := func(pw, tag string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"id": cty.StringVal("x"), "password": cty.StringVal(pw),
			"tags": cty.MapVal(map[string]cty.Value{"k": cty.StringVal(tag)}),
		})
	}
	c := Change{
		Action: Update, Before: obj("a", "b"), After: obj("c", "d"),
		AfterSensitivePaths: []cty.Path{cty.GetAttrPath("tags").Index(cty.StringVal("k"))},
	}
	before, after := c.Marked(schema)
	tests := []struct {
		name string
		v    cty.Value
		path cty.Path
		want bool
	}{
		{"schema-sensitive before", before, cty.GetAttrPath("password"), true},
		{"schema-sensitive after", after, cty.GetAttrPath("password"), true},
		{"recorded path after", after, cty.GetAttrPath("tags").Index(cty.StringVal("k")), true},
		{"recorded only for after", before, cty.GetAttrPath("tags").Index(cty.StringVal("k")), false},
		{"plain attribute", after, cty.GetAttrPath("id"), false},
	}
	for _, tc := range tests {
		v, err := tc.path.Apply(tc.v)
		if err != nil {
			t.Fatalf("%s: %s", tc.name, err)
		}
		if got := marks.Has(v, marks.Sensitive); got != tc.want {
			t.Errorf("%s: sensitive = %v, want %v", tc.name, got, tc.want)
		}
	}
	if b, a := (Change{Action: Create, After: obj("p", "q")}).Marked(nil); !b.IsNull() || marks.Contains(a, marks.Sensitive) {
		t.Errorf("no schema, no paths: before %#v, after marked %v", b, marks.Contains(a, marks.Sensitive))
	}
}

func TestSortedResourceChanges(t *testing.T) {
	addr := func(name string) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: name}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	}
	in := []*ResourceInstanceChange{
		{Addr: addr("b")},
		{Addr: addr("a"), DeposedKey: "00000002"},
		{Addr: addr("a")},
	}
	got := SortedResourceChanges(in)
	var order []string
	for _, rc := range got {
		order = append(order, rc.Addr.String()+"/"+string(rc.DeposedKey))
	}
	if want := "t.a/ t.a/00000002 t.b/"; strings.Join(order, " ") != want {
		t.Errorf("order = %v, want %s", order, want)
	}
	if in[0].Addr.Resource.Resource.Name != "b" {
		t.Error("SortedResourceChanges reordered its input")
	}
}
