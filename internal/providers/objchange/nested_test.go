package objchange

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/configschema"
)

func TestProposedNewNestedAttributes(t *testing.T) {
	obj := func(nesting configschema.NestingMode) *configschema.Attribute {
		return &configschema.Attribute{Optional: true, NestedType: &configschema.Object{Nesting: nesting, Attributes: map[string]*configschema.Attribute{
			"a": {Type: cty.String, Optional: true},
			"c": {Type: cty.String, Computed: true},
		}}}
	}
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"single": obj(configschema.NestingSingle),
		"list":   obj(configschema.NestingList),
		"set":    obj(configschema.NestingSet),
		"map":    obj(configschema.NestingMap),
		"pw":     {Type: cty.String, Optional: true, WriteOnly: true},
	}}
	ac := func(a, c cty.Value) cty.Value { return cty.ObjectVal(map[string]cty.Value{"a": a, "c": c}) }
	s := cty.StringVal
	nullS := cty.NullVal(cty.String)
	unk := cty.UnknownVal(cty.String)
	value := func(c func(string) cty.Value, pw cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"single": ac(s("x"), c("cx")),
			"list":   cty.ListVal([]cty.Value{ac(s("l0"), c("c0")), ac(s("l1"), c("c1"))}),
			"set":    cty.SetVal([]cty.Value{ac(s("s0"), c("cs"))}),
			"map":    cty.MapVal(map[string]cty.Value{"k": ac(s("m"), c("ck"))}),
			"pw":     pw,
		})
	}
	config := value(func(string) cty.Value { return nullS }, s("secret"))
	prior := value(func(v string) cty.Value { return s(v) }, nullS)

	// Update: computed nested attributes keep their prior values; the
	// write-only one is null.
	got := ProposedNew(schema, prior, config)
	if !got.RawEquals(prior) {
		t.Errorf("update:\n got %#v\nwant %#v", got, prior)
	}

	// Create: computed nested attributes are unknown.
	got = ProposedNew(schema, cty.NullVal(schema.ImpliedType()), config)
	want := value(func(string) cty.Value { return unk }, nullS)
	if !got.RawEquals(want) {
		t.Errorf("create:\n got %#v\nwant %#v", got, want)
	}

	// A new list element and a changed set element have no prior.
	config2 := config.AsValueMap()
	config2["list"] = cty.ListVal([]cty.Value{ac(s("l0"), nullS), ac(s("l1"), nullS), ac(s("l2"), nullS)})
	config2["set"] = cty.SetVal([]cty.Value{ac(s("other"), nullS)})
	got = ProposedNew(schema, prior, cty.ObjectVal(config2))
	wantList := cty.ListVal([]cty.Value{ac(s("l0"), s("c0")), ac(s("l1"), s("c1")), ac(s("l2"), unk)})
	if !got.GetAttr("list").RawEquals(wantList) {
		t.Errorf("list: %#v", got.GetAttr("list"))
	}
	if want := cty.SetVal([]cty.Value{ac(s("other"), unk)}); !got.GetAttr("set").RawEquals(want) {
		t.Errorf("set: %#v", got.GetAttr("set"))
	}
}
