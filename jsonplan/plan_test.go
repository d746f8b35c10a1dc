package jsonplan

import (
	"bytes"
	"encoding/json"
	"flag"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/states"
)

var update = flag.Bool("update", false, "rewrite golden files")

var testProvider = addrs.NewDefaultProvider("test")

func testPlan(t *testing.T) *plans.Plan {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":       {Type: cty.String, Computed: true},
		"name":     {Type: cty.String, Optional: true},
		"password": {Type: cty.String, Optional: true, Sensitive: true},
		"tags":     {Type: cty.Map(cty.String), Optional: true},
		"list":     {Type: cty.List(cty.String), Optional: true},
	}}
	ty := schema.ImpliedType()
	obj := func(id, name, pw cty.Value, tags cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": id, "name": name, "password": pw, "tags": tags,
			"list": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)})})
	}
	addr := func(name string, key addrs.InstanceKey, mod addrs.ModuleInstance) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "test_thing", Name: name}.Instance(key).Absolute(mod)
	}
	pc := addrs.AbsProviderConfig{Provider: testProvider}
	old := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("i-1"), "name": cty.StringVal("a"), "password": cty.StringVal("pw"),
		"tags": cty.MapValEmpty(cty.String), "list": cty.NullVal(cty.List(cty.String))})

	prior := states.NewState()
	src, err := (&states.ResourceInstanceObject{Value: old, Status: states.ObjectReady}).Encode(ty, 0)
	if err != nil {
		t.Fatal(err)
	}
	prior.SetResourceInstanceCurrent(addr("old", addrs.NoKey, nil), src, pc)
	prior.SetOutputValue(addrs.OutputValue{Name: "o"}.Absolute(nil), cty.StringVal("x"), false)

	create := &plans.ResourceInstanceChange{
		Addr: addr("new", addrs.IntKey(0), nil), PrevRunAddr: addr("new", addrs.IntKey(0), nil), ProviderAddr: pc,
		Change: plans.Change{Action: plans.Create, Before: cty.NullVal(ty),
			After:               obj(cty.UnknownVal(cty.String), cty.StringVal("b"), cty.StringVal("secret"), cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")})),
			AfterSensitivePaths: []cty.Path{cty.GetAttrPath("tags").Index(cty.StringVal("k"))}},
	}
	replace := &plans.ResourceInstanceChange{
		Addr: addr("old", addrs.NoKey, nil), PrevRunAddr: addr("older", addrs.NoKey, nil), ProviderAddr: pc,
		Change: plans.Change{Action: plans.DeleteThenCreate, Before: old,
			After: obj(cty.UnknownVal(cty.String), cty.StringVal("c"), cty.StringVal("pw"), cty.MapValEmpty(cty.String))},
		RequiredReplace: []cty.Path{cty.GetAttrPath("name")},
		ActionReason:    plans.ReasonReplaceBecauseCannotUpdate,
	}
	del := &plans.ResourceInstanceChange{
		Addr: addr("gone", addrs.StringKey("x"), addrs.ModuleInstance{{Name: "child"}}), ProviderAddr: pc,
		Change:       plans.Change{Action: plans.Delete, Before: old, After: cty.NullVal(ty)},
		ActionReason: plans.ReasonDeleteBecauseEachKey,
	}
	drift := &plans.ResourceInstanceChange{
		Addr: addr("old", addrs.NoKey, nil), ProviderAddr: pc,
		Change: plans.Change{Action: plans.Update, Before: old, After: old},
	}
	return &plans.Plan{
		VariableValues: map[string]cty.Value{"region": cty.StringVal("eu"), "n": cty.NumberIntVal(3)},
		Changes: &plans.Changes{
			Resources: []*plans.ResourceInstanceChange{replace, create, del},
			Outputs: []*plans.OutputChange{
				{Addr: addrs.OutputValue{Name: "o"}.Absolute(nil), Change: plans.Change{Action: plans.Update, Before: cty.StringVal("x"), After: cty.UnknownVal(cty.String)}},
				{Addr: addrs.OutputValue{Name: "s"}.Absolute(nil), Sensitive: true, Change: plans.Change{Action: plans.Create, Before: cty.NullVal(cty.String), After: cty.StringVal("shh")}},
			},
		},
		DriftedResources: []*plans.ResourceInstanceChange{drift},
		PriorState:       prior,
		ProviderSchemas: map[addrs.Provider]*providers.GetProviderSchemaResponse{
			testProvider: {ResourceTypes: map[string]providers.Schema{"test_thing": {Version: 1, Block: schema}}},
		},
		Applyable: true, Complete: true,
		Timestamp: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}

func TestMarshalGolden(t *testing.T) {
	got, err := Marshal(testPlan(t), Options{Version: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, got, "", "  "); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/plan.json", pretty.Bytes())
}

// TestTerraformJSONReadsIt proves tooling built on terraform-json can read
// the output and finds what the plan holds.
func TestTerraformJSONReadsIt(t *testing.T) {
	got, err := Marshal(testPlan(t), Options{Version: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	var p tfjson.Plan
	if err := json.Unmarshal(got, &p); err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	type rc struct {
		Addr, Prev, Reason string
		Actions            tfjson.Actions
	}
	var rcs []rc
	for _, c := range p.ResourceChanges {
		rcs = append(rcs, rc{c.Address, c.PreviousAddress, string(c.ActionReason), c.Change.Actions})
	}
	want := []rc{
		{"test_thing.new[0]", "", "", tfjson.Actions{tfjson.ActionCreate}},
		{"test_thing.old", "test_thing.older", "replace_because_cannot_update", tfjson.Actions{tfjson.ActionDelete, tfjson.ActionCreate}},
		{`module.child.test_thing.gone["x"]`, "", "delete_because_each_key", tfjson.Actions{tfjson.ActionDelete}},
	}
	if diff := cmp.Diff(want, rcs); diff != "" {
		t.Errorf("resource changes (-want +got):\n%s", diff)
	}
	create := p.ResourceChanges[0].Change
	wantUnknown := map[string]any{"id": true, "list": []any{false, true}, "tags": map[string]any{}}
	if diff := cmp.Diff(wantUnknown, create.AfterUnknown); diff != "" {
		t.Errorf("after_unknown (-want +got):\n%s", diff)
	}
	wantSens := map[string]any{"password": true, "tags": map[string]any{"k": true}, "list": []any{false, false}}
	if diff := cmp.Diff(wantSens, create.AfterSensitive); diff != "" {
		t.Errorf("after_sensitive (-want +got):\n%s", diff)
	}
	// Values stay in place, marked by the *_sensitive structure.
	if after := create.After.(map[string]any); after["password"] != "secret" {
		t.Errorf("after.password = %v, want the value kept", after["password"])
	}
	if diff := cmp.Diff([]any{[]any{"name"}}, p.ResourceChanges[1].Change.ReplacePaths); diff != "" {
		t.Errorf("replace_paths: %s", diff)
	}
	if s := p.OutputChanges["s"]; s.AfterSensitive != true || s.After != "shh" {
		t.Errorf("output s = %+v", s)
	}
	if len(p.ResourceDrift) != 1 || p.PriorState == nil || len(p.PriorState.Values.RootModule.Resources) != 1 {
		t.Errorf("drift/prior_state missing: %d drift, prior %+v", len(p.ResourceDrift), p.PriorState)
	}
	if p.PlannedValues.RootModule.ChildModules != nil {
		t.Errorf("planned_values lists a module with only deletes")
	}
	if p.Variables["region"].Value != "eu" {
		t.Errorf("variables: %+v", p.Variables)
	}
}
