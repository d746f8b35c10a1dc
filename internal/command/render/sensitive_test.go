package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
)

// TestSensitiveAtEveryDepth renders changes whose sensitive paths sit at
// every depth a value can nest (attribute, map key, list element, object
// attribute, set, nested block and an attribute inside one), in the plan,
// the drift section and the outputs, and checks that no secret reaches the
// text while the redaction marker does.
func TestSensitiveAtEveryDepth(t *testing.T) {
	ty := thingType()
	null := cty.NullVal(ty)
	ruleTy := ty.AttributeType("rule").ElementType()
	rule := func(port int64) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(port)})
	}
	str := cty.StringVal
	p := cty.GetAttrPath
	const (
		redacted  = "(sensitive value)"
		blockNote = "# At least one attribute in this block is (or was) sensitive,"
	)
	type tc struct {
		action        plans.Action
		before, after map[string]cty.Value
		bPaths        []cty.Path
		aPaths        []cty.Path
		want          string
	}
	base := map[string]cty.Value{"id": str("i"), "name": str("n")}
	with := func(kv map[string]cty.Value) map[string]cty.Value {
		out := map[string]cty.Value{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range kv {
			out[k] = v
		}
		return out
	}
	tests := map[string]tc{
		"attribute": {action: plans.Create, after: with(map[string]cty.Value{"content": str("SECRET1")}),
			aPaths: []cty.Path{p("content")}, want: "content = " + redacted},
		"schema attribute update": {action: plans.Update,
			before: with(map[string]cty.Value{"password": str("SECRET1")}), after: with(map[string]cty.Value{"password": str("SECRET2")}),
			want: "password = " + redacted},
		"map key create": {action: plans.Create,
			after:  with(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"pw": str("SECRET1"), "env": str("dev")})}),
			aPaths: []cty.Path{p("tags").IndexString("pw")}, want: `+ "pw"  = ` + redacted},
		"map key update": {action: plans.Update,
			before: with(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"pw": str("SECRET1"), "env": str("dev")})}),
			after:  with(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"pw": str("SECRET2"), "env": str("dev")})}),
			bPaths: []cty.Path{p("tags").IndexString("pw")}, aPaths: []cty.Path{p("tags").IndexString("pw")},
			want: `~ "pw"  = ` + redacted},
		"map key delete": {action: plans.Delete,
			before: with(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"pw": str("SECRET1")})}),
			bPaths: []cty.Path{p("tags").IndexString("pw")}, want: `- "pw" = ` + redacted},
		"list element create": {action: plans.Create,
			after:  with(map[string]cty.Value{"list": cty.ListVal([]cty.Value{str("SECRET1"), str("x")})}),
			aPaths: []cty.Path{p("list").IndexInt(0)}, want: "+ " + redacted + ","},
		"list element update": {action: plans.Update,
			before: with(map[string]cty.Value{"list": cty.ListVal([]cty.Value{str("SECRET1"), str("x")})}),
			after:  with(map[string]cty.Value{"list": cty.ListVal([]cty.Value{str("SECRET2"), str("x")})}),
			bPaths: []cty.Path{p("list").IndexInt(0)}, aPaths: []cty.Path{p("list").IndexInt(0)},
			want: "+ " + redacted + ","},
		"whole set": {action: plans.Create,
			after:  with(map[string]cty.Value{"set": cty.SetVal([]cty.Value{str("SECRET1")})}),
			aPaths: []cty.Path{p("set")}, want: "set  = " + redacted},
		"object attribute create": {action: plans.Create,
			after:  with(map[string]cty.Value{"obj": cty.ObjectVal(map[string]cty.Value{"a": str("SECRET1"), "b": cty.NumberIntVal(1)})}),
			aPaths: []cty.Path{p("obj").GetAttr("a")}, want: "+ a = " + redacted},
		"object attribute update": {action: plans.Update,
			before: with(map[string]cty.Value{"obj": cty.ObjectVal(map[string]cty.Value{"a": str("SECRET1"), "b": cty.NumberIntVal(1)})}),
			after:  with(map[string]cty.Value{"obj": cty.ObjectVal(map[string]cty.Value{"a": str("SECRET2"), "b": cty.NumberIntVal(1)})}),
			bPaths: []cty.Path{p("obj").GetAttr("a")}, aPaths: []cty.Path{p("obj").GetAttr("a")}, want: "~ a = " + redacted},
		"nested block attribute": {action: plans.Create,
			after:  with(map[string]cty.Value{"rule": cty.ListVal([]cty.Value{rule(4242)})}),
			aPaths: []cty.Path{p("rule").IndexInt(0).GetAttr("port")}, want: "+ port = " + redacted},
		"nested block element": {action: plans.Update,
			before: with(map[string]cty.Value{"rule": cty.ListVal([]cty.Value{rule(4242)})}),
			after:  with(map[string]cty.Value{"rule": cty.ListVal([]cty.Value{rule(4343)})}),
			bPaths: []cty.Path{p("rule").IndexInt(0)}, aPaths: []cty.Path{p("rule").IndexInt(0)}, want: blockNote},
		"nested block type": {action: plans.Create,
			after:  with(map[string]cty.Value{"rule": cty.ListVal([]cty.Value{rule(4242)})}),
			aPaths: []cty.Path{p("rule")}, want: blockNote},
	}
	secrets := []string{"SECRET1", "SECRET2", "4242", "4343"}
	obj := func(m map[string]cty.Value) cty.Value {
		if m == nil {
			return null
		}
		if _, ok := m["rule"]; !ok {
			m["rule"] = cty.ListValEmpty(ruleTy)
		}
		return thing(m)
	}
	check := func(t *testing.T, out, want string) {
		t.Helper()
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("secret %q shown:\n%s", s, out)
			}
		}
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
	for name, tt := range tests {
		rc := change(inst("test_thing", "a", nil), tt.action, obj(tt.before), obj(tt.after))
		rc.BeforeSensitivePaths, rc.AfterSensitivePaths = tt.bPaths, tt.aPaths
		t.Run("plan/"+name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Plan(&buf, planWith([]*plans.ResourceInstanceChange{rc}, nil), false); err != nil {
				t.Fatal(err)
			}
			check(t, buf.String(), tt.want)
		})
		if tt.action != plans.Update && tt.action != plans.Delete {
			continue
		}
		t.Run("drift/"+name, func(t *testing.T) {
			// Drift shows beside planned changes (an empty plan shows none).
			pl := planWith(nil, []*plans.OutputChange{{Addr: addrs.OutputValue{Name: "o"}.Absolute(nil),
				Change: plans.Change{Action: plans.Create, Before: cty.NullVal(cty.String), After: cty.StringVal("x")}}})
			pl.DriftedResources = []*plans.ResourceInstanceChange{rc}
			var buf bytes.Buffer
			if err := Plan(&buf, pl, false); err != nil {
				t.Fatal(err)
			}
			check(t, buf.String(), tt.want)
		})
	}

	outputs := map[string]struct {
		oc   *plans.OutputChange
		want string
	}{
		"map key": {&plans.OutputChange{Change: plans.Change{Action: plans.Create, Before: cty.NullVal(cty.DynamicPseudoType),
			After: cty.ObjectVal(map[string]cty.Value{"pw": str("SECRET1"), "u": str("x")}), AfterSensitivePaths: []cty.Path{p("pw")}}},
			"+ pw = " + redacted},
		"list element update": {&plans.OutputChange{Change: plans.Change{Action: plans.Update,
			Before: cty.TupleVal([]cty.Value{str("SECRET1")}), After: cty.TupleVal([]cty.Value{str("SECRET2")}),
			BeforeSensitivePaths: []cty.Path{cty.IndexIntPath(0)}, AfterSensitivePaths: []cty.Path{cty.IndexIntPath(0)}}},
			"+ " + redacted},
		"declared sensitive": {&plans.OutputChange{Sensitive: true, Change: plans.Change{Action: plans.Create, Before: cty.NullVal(cty.String), After: str("SECRET1")}},
			"o = " + redacted},
	}
	for name, tt := range outputs {
		t.Run("output/"+name, func(t *testing.T) {
			tt.oc.Addr = addrs.OutputValue{Name: "o"}.Absolute(nil)
			var buf bytes.Buffer
			if err := Plan(&buf, planWith(nil, []*plans.OutputChange{tt.oc}), false); err != nil {
				t.Fatal(err)
			}
			check(t, buf.String(), tt.want)
		})
	}
}
