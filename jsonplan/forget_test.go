package jsonplan

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/states"
)

// forgetPlan is a plan from removed blocks: test_thing.kept forgotten
// (its current and a deposed object), test_thing.gone destroyed, and
// test_thing.stay unchanged.
func forgetPlan(t *testing.T) *plans.Plan {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":       {Type: cty.String, Computed: true},
		"password": {Type: cty.String, Optional: true, Sensitive: true},
	}}
	ty := schema.ImpliedType()
	obj := func(id string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id), "password": cty.StringVal("pw-" + id)})
	}
	addr := func(name string) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "test_thing", Name: name}.Instance(addrs.NoKey).Absolute(nil)
	}
	pc := addrs.AbsProviderConfig{Provider: testProvider}
	prior := states.NewState()
	for _, name := range []string{"kept", "gone", "stay"} {
		src, err := (&states.ResourceInstanceObject{Value: obj(name), Status: states.ObjectReady}).Encode(ty, 0)
		if err != nil {
			t.Fatal(err)
		}
		prior.SetResourceInstanceCurrent(addr(name), src, pc)
	}
	src, err := (&states.ResourceInstanceObject{Value: obj("kept-old"), Status: states.ObjectReady}).Encode(ty, 0)
	if err != nil {
		t.Fatal(err)
	}
	prior.SetResourceInstanceDeposed(addr("kept"), "00000001", src, pc)
	sens := []cty.Path{cty.GetAttrPath("password")}
	rc := func(name string, dk addrs.DeposedKey, before string, action plans.Action) *plans.ResourceInstanceChange {
		after := cty.NullVal(ty)
		if action == plans.NoOp {
			after = obj(before)
		}
		return &plans.ResourceInstanceChange{Addr: addr(name), PrevRunAddr: addr(name), DeposedKey: dk, ProviderAddr: pc,
			ActionReason: plans.ReasonDeleteBecauseNoResourceConfig,
			Change:       plans.Change{Action: action, Before: obj(before), After: after, BeforeSensitivePaths: sens}}
	}
	stay := rc("stay", addrs.NotDeposed, "stay", plans.NoOp)
	stay.ActionReason = plans.ReasonNone
	return &plans.Plan{
		Changes: &plans.Changes{Resources: []*plans.ResourceInstanceChange{
			rc("kept", addrs.NotDeposed, "kept", plans.Forget), rc("kept", "00000001", "kept-old", plans.Forget),
			rc("gone", addrs.NotDeposed, "gone", plans.Delete), stay,
		}},
		PriorState: prior,
		ProviderSchemas: map[addrs.Provider]*providers.GetProviderSchemaResponse{
			testProvider: {ResourceTypes: map[string]providers.Schema{"test_thing": {Block: schema}}},
		},
		Applyable: true, Complete: true,
	}
}

func TestMarshalForgetGolden(t *testing.T) {
	got, err := Marshal(forgetPlan(t), Options{Version: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, got, "", "  "); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "testdata/forget.json", pretty.Bytes())
}

// TestTerraformJSONReadsForget reads the forget plan back with
// terraform-json: forgets are ["forget"] (Actions.Forget), keep their
// before value and sensitivity, and are not in planned_values.
func TestTerraformJSONReadsForget(t *testing.T) {
	got, err := Marshal(forgetPlan(t), Options{Version: "0.1.0"})
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
		Addr, Deposed, Reason string
		Forget, Delete        bool
		Before                any
		BeforeSensitive       any
	}
	var rcs []rc
	for _, c := range p.ResourceChanges {
		rcs = append(rcs, rc{c.Address, c.DeposedKey, string(c.ActionReason), c.Change.Actions.Forget(), c.Change.Actions.Delete(),
			c.Change.Before, c.Change.BeforeSensitive})
	}
	sens := map[string]any{"password": true}
	want := []rc{
		{"test_thing.gone", "", "delete_because_no_resource_config", false, true, map[string]any{"id": "gone", "password": "pw-gone"}, sens},
		{"test_thing.kept", "", "delete_because_no_resource_config", true, false, map[string]any{"id": "kept", "password": "pw-kept"}, sens},
		{"test_thing.kept", "00000001", "delete_because_no_resource_config", true, false, map[string]any{"id": "kept-old", "password": "pw-kept-old"}, sens},
		{"test_thing.stay", "", "", false, false, map[string]any{"id": "stay", "password": "pw-stay"}, sens},
	}
	if diff := cmp.Diff(want, rcs); diff != "" {
		t.Errorf("resource changes (-want +got):\n%s", diff)
	}
	var planned []string
	for _, r := range p.PlannedValues.RootModule.Resources {
		planned = append(planned, r.Address)
	}
	if diff := cmp.Diff([]string{"test_thing.stay"}, planned); diff != "" {
		t.Errorf("planned_values (-want +got):\n%s", diff)
	}
	var priorAddrs []string
	for _, r := range p.PriorState.Values.RootModule.Resources {
		priorAddrs = append(priorAddrs, r.Address)
	}
	// The deposed object is listed on its own, with its deposed_key.
	if diff := cmp.Diff([]string{"test_thing.gone", "test_thing.kept", "test_thing.kept", "test_thing.stay"}, priorAddrs); diff != "" {
		t.Errorf("prior_state (-want +got):\n%s", diff)
	}
}
