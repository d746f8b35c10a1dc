package render

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

var update = flag.Bool("update", false, "rewrite golden files")

var testProvider = addrs.NewDefaultProvider("test")

// testSchemas is a provider with a resource type covering attributes of
// every kind, a nested block and a sensitive attribute.
func testSchemas() map[addrs.Provider]*providers.GetProviderSchemaResponse {
	thing := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"id":       {Type: cty.String, Computed: true},
			"name":     {Type: cty.String, Optional: true},
			"size":     {Type: cty.Number, Optional: true},
			"enabled":  {Type: cty.Bool, Optional: true},
			"tags":     {Type: cty.Map(cty.String), Optional: true},
			"list":     {Type: cty.List(cty.String), Optional: true},
			"set":      {Type: cty.Set(cty.String), Optional: true},
			"password": {Type: cty.String, Optional: true, Sensitive: true},
			"content":  {Type: cty.String, Optional: true},
			"obj":      {Type: cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Number}), Optional: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"rule": {Nesting: configschema.NestingList, Block: configschema.Block{
				Attributes: map[string]*configschema.Attribute{"port": {Type: cty.Number, Required: true}},
			}},
		},
	}
	data := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":    {Type: cty.String, Computed: true},
		"input": {Type: cty.String, Required: true},
	}}
	return map[addrs.Provider]*providers.GetProviderSchemaResponse{
		testProvider: {
			ResourceTypes: map[string]providers.Schema{"test_thing": {Block: thing}},
			DataSources:   map[string]providers.Schema{"test_data": {Block: data}},
		},
	}
}

func thingType() cty.Type {
	return testSchemas()[testProvider].ResourceTypes["test_thing"].Block.ImpliedType()
}

// thing builds a test_thing object; unset attributes are null.
func thing(attrs map[string]cty.Value) cty.Value {
	ty := thingType()
	vals := map[string]cty.Value{}
	for name, at := range ty.AttributeTypes() {
		if v, ok := attrs[name]; ok {
			vals[name] = v
		} else {
			vals[name] = cty.NullVal(at)
		}
	}
	return cty.ObjectVal(vals)
}

func inst(typ, name string, key addrs.InstanceKey) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: typ, Name: name}.Instance(key).Absolute(nil)
}

func change(addr addrs.AbsResourceInstance, action plans.Action, before, after cty.Value) *plans.ResourceInstanceChange {
	return &plans.ResourceInstanceChange{
		Addr: addr, PrevRunAddr: addr,
		ProviderAddr: addrs.AbsProviderConfig{Provider: testProvider},
		Change:       plans.Change{Action: action, Before: before, After: after},
	}
}

func planWith(rcs []*plans.ResourceInstanceChange, outs []*plans.OutputChange) *plans.Plan {
	return &plans.Plan{
		Changes:         &plans.Changes{Resources: rcs, Outputs: outs},
		ProviderSchemas: testSchemas(),
	}
}

// goldenPlans are the plans of the golden files, by name.
func goldenPlans() map[string]*plans.Plan {
	ty := thingType()
	null := cty.NullVal(ty)
	tags := func(kv ...string) cty.Value {
		m := map[string]cty.Value{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = cty.StringVal(kv[i+1])
		}
		return cty.MapVal(m)
	}
	rules := func(ports ...int64) cty.Value {
		rt := ty.AttributeType("rule").ElementType()
		if len(ports) == 0 {
			return cty.ListValEmpty(rt)
		}
		var vs []cty.Value
		for _, p := range ports {
			vs = append(vs, cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(p)}))
		}
		return cty.ListVal(vs)
	}
	old := thing(map[string]cty.Value{
		"id": cty.StringVal("abc"), "name": cty.StringVal("web"), "size": cty.NumberIntVal(1),
		"tags": tags("env", "dev", "team", "a"), "list": cty.ListVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y")}),
		"rule": rules(80), "enabled": cty.True,
	})
	created := thing(map[string]cty.Value{
		"id": cty.UnknownVal(cty.String), "name": cty.StringVal("web"), "size": cty.NumberIntVal(2),
		"tags": tags("env", "prod"), "password": cty.StringVal("hunter2"),
		"content": cty.StringVal("line one\nline two\n"),
		"set":     cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		"obj":     cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.NumberIntVal(3)}),
		"rule":    rules(80, 443),
	})
	updated := thing(map[string]cty.Value{
		"id": cty.StringVal("abc"), "name": cty.StringVal("web"), "size": cty.NumberIntVal(1),
		"tags": tags("env", "prod", "team", "a"), "list": cty.ListVal([]cty.Value{cty.StringVal("x"), cty.StringVal("z")}),
		"rule": rules(80, 8080), "enabled": cty.True,
	})
	replaced := thing(map[string]cty.Value{
		"id": cty.UnknownVal(cty.String), "name": cty.StringVal("api"), "size": cty.NumberIntVal(1),
		"tags": tags("env", "dev", "team", "a"), "list": cty.ListVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y")}),
		"rule": rules(80), "enabled": cty.True,
	})
	dataType := testSchemas()[testProvider].DataSources["test_data"].Block.ImpliedType()

	replace := change(inst("test_thing", "r", nil), plans.DeleteThenCreate, old, replaced)
	replace.RequiredReplace = []cty.Path{cty.GetAttrPath("name")}
	replace.ActionReason = plans.ReasonReplaceBecauseCannotUpdate
	cbd := change(inst("test_thing", "cbd", nil), plans.CreateThenDelete, old, replaced)
	cbd.ActionReason = plans.ReasonReplaceByRequest
	orphan := change(inst("test_thing", "gone", nil), plans.Delete, old, null)
	orphan.ActionReason = plans.ReasonDeleteBecauseNoResourceConfig
	countIdx := change(inst("test_thing", "many", addrs.IntKey(2)), plans.Delete, old, null)
	countIdx.ActionReason = plans.ReasonDeleteBecauseCountIndex
	read := change(addrs.Resource{Mode: addrs.DataResourceMode, Type: "test_data", Name: "d"}.Instance(addrs.NoKey).Absolute(nil),
		plans.Read, cty.NullVal(dataType), cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "input": cty.UnknownVal(cty.String)}))
	read.ActionReason = plans.ReasonReadBecauseConfigUnknown
	modAddr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "test_thing", Name: "m"}.Instance(addrs.StringKey("k")).
		Absolute(addrs.ModuleInstance{{Name: "child", InstanceKey: addrs.NoKey}})
	sensUpdate := change(inst("test_thing", "secret", nil), plans.Update,
		thing(map[string]cty.Value{"id": cty.StringVal("s"), "name": cty.StringVal("n"), "password": cty.StringVal("a")}),
		thing(map[string]cty.Value{"id": cty.StringVal("s"), "name": cty.StringVal("n"), "password": cty.StringVal("b")}))
	sensMarked := change(inst("test_thing", "marked", nil), plans.Create, null,
		thing(map[string]cty.Value{"id": cty.UnknownVal(cty.String), "name": cty.StringVal("from-var")}))
	sensMarked.AfterSensitivePaths = []cty.Path{cty.GetAttrPath("name")}

	forgotten := change(inst("test_thing", "kept", addrs.IntKey(0)), plans.Forget,
		thing(map[string]cty.Value{"id": cty.StringVal("k0"), "name": cty.StringVal("kept"), "password": cty.StringVal("hunter2")}), null)
	forgotten.ActionReason = plans.ReasonDeleteBecauseNoResourceConfig
	forgotten.BeforeSensitivePaths = []cty.Path{cty.GetAttrPath("password")}
	forgottenDeposed := change(inst("test_thing", "kept", addrs.IntKey(0)), plans.Forget,
		thing(map[string]cty.Value{"id": cty.StringVal("k0-old"), "name": cty.StringVal("kept")}), null)
	forgottenDeposed.DeposedKey = "00000001"
	forgottenMod := change(addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "test_thing", Name: "n"}.Instance(addrs.NoKey).
		Absolute(addrs.ModuleInstance{{Name: "net", InstanceKey: addrs.NoKey}}), plans.Forget,
		thing(map[string]cty.Value{"id": cty.StringVal("n1"), "tags": tags("env", "dev")}), null)
	forgottenMod.ActionReason = plans.ReasonDeleteBecauseNoModule

	drifted := change(inst("test_thing", "r", nil), plans.Update, old, updated)
	driftDel := change(inst("test_thing", "vanished", nil), plans.Delete, old, null)

	outAdd := &plans.OutputChange{Addr: addrs.OutputValue{Name: "url"}.Absolute(nil), Change: plans.Change{Action: plans.Create, Before: cty.NullVal(cty.String), After: cty.StringVal("http://x")}}
	outUnknown := &plans.OutputChange{Addr: addrs.OutputValue{Name: "id"}.Absolute(nil), Change: plans.Change{Action: plans.Update, Before: cty.StringVal("abc"), After: cty.UnknownVal(cty.String)}}
	outSens := &plans.OutputChange{Addr: addrs.OutputValue{Name: "pw"}.Absolute(nil), Sensitive: true, Change: plans.Change{Action: plans.Create, Before: cty.NullVal(cty.String), After: cty.StringVal("hunter2")}}
	outDel := &plans.OutputChange{Addr: addrs.OutputValue{Name: "old"}.Absolute(nil), Change: plans.Change{Action: plans.Delete, Before: cty.StringVal("x"), After: cty.NullVal(cty.String)}}

	return map[string]*plans.Plan{
		"create":       planWith([]*plans.ResourceInstanceChange{change(inst("test_thing", "a", nil), plans.Create, null, created)}, nil),
		"update":       planWith([]*plans.ResourceInstanceChange{change(inst("test_thing", "a", nil), plans.Update, old, updated)}, nil),
		"replace":      planWith([]*plans.ResourceInstanceChange{replace, cbd}, nil),
		"delete":       planWith([]*plans.ResourceInstanceChange{orphan, countIdx, change(modAddr, plans.Delete, old, null)}, nil),
		"read":         planWith([]*plans.ResourceInstanceChange{read}, nil),
		"forget":       planWith([]*plans.ResourceInstanceChange{forgotten, forgottenDeposed, forgottenMod}, nil),
		"removed":      planWith([]*plans.ResourceInstanceChange{forgotten, orphan, change(inst("test_thing", "a", nil), plans.Create, null, created)}, nil),
		"sensitive":    planWith([]*plans.ResourceInstanceChange{sensUpdate, sensMarked}, []*plans.OutputChange{outSens}),
		"outputs-only": planWith(nil, []*plans.OutputChange{outAdd, outUnknown, outSens, outDel}),
		"no-changes":   planWith([]*plans.ResourceInstanceChange{change(inst("test_thing", "a", nil), plans.NoOp, old, old)}, nil),
		"drift": func() *plans.Plan {
			p := planWith([]*plans.ResourceInstanceChange{change(inst("test_thing", "r", nil), plans.Update, updated, old)}, []*plans.OutputChange{outAdd})
			p.DriftedResources = []*plans.ResourceInstanceChange{drifted, driftDel}
			return p
		}(),
		"refresh-only": func() *plans.Plan {
			p := planWith(nil, nil)
			p.UIMode = plans.RefreshOnlyMode
			p.DriftedResources = []*plans.ResourceInstanceChange{drifted}
			return p
		}(),
		"destroy-empty": func() *plans.Plan {
			p := planWith(nil, nil)
			p.UIMode = plans.DestroyMode
			return p
		}(),
		"no-schema": &plans.Plan{Changes: &plans.Changes{Resources: []*plans.ResourceInstanceChange{change(inst("test_thing", "a", nil), plans.Create, null, created)}}},
	}
}

func TestPlanGolden(t *testing.T) {
	for name, p := range goldenPlans() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Plan(&buf, p, false); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", name+".golden"), buf.String())
			var colored bytes.Buffer
			if err := Plan(&colored, p, true); err != nil {
				t.Fatal(err)
			}
			if stripANSI(colored.String()) != buf.String() {
				t.Errorf("colour output differs from plain output beyond escape codes")
			}
		})
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

func TestCountChanges(t *testing.T) {
	a := inst("test_thing", "a", nil)
	c := &plans.Changes{Resources: []*plans.ResourceInstanceChange{
		change(a, plans.Create, cty.NilVal, cty.NilVal), change(a, plans.Update, cty.NilVal, cty.NilVal),
		change(a, plans.DeleteThenCreate, cty.NilVal, cty.NilVal), change(a, plans.Delete, cty.NilVal, cty.NilVal),
		change(a, plans.Read, cty.NilVal, cty.NilVal), change(a, plans.NoOp, cty.NilVal, cty.NilVal),
		change(a, plans.Forget, cty.NilVal, cty.NilVal), change(a, plans.Forget, cty.NilVal, cty.NilVal),
	}}
	got := CountChanges(c)
	if diff := cmp.Diff(Counts{Add: 2, Change: 1, Destroy: 2, Read: 1, Forget: 2}, got); diff != "" {
		t.Error(diff)
	}
	if s := got.Summary(); s != "2 to add, 1 to change, 2 to destroy, 2 to forget." {
		t.Errorf("Summary() = %q", s)
	}
	got.Forget = 0
	if s := got.Summary(); s != "2 to add, 1 to change, 2 to destroy." {
		t.Errorf("Summary() without forgets = %q", s)
	}
}

func TestLCSDiff(t *testing.T) {
	a := strings.Split("abcde", "")
	b := strings.Split("axcdf", "")
	var got []string
	for _, op := range lcsDiff(len(a), len(b), func(i, j int) bool { return a[i] == b[j] }) {
		switch op.kind {
		case symNone:
			got = append(got, " "+a[op.i])
		case symDelete:
			got = append(got, "-"+a[op.i])
		case symCreate:
			got = append(got, "+"+b[op.j])
		}
	}
	want := []string{" a", "-b", "+x", " c", " d", "-e", "+f"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}
