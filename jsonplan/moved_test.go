package jsonplan

import (
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

// TestMovedReadByTerraformJSON: moved instances carry previous_address in
// resource_changes, a move alone is a no-op there and no drift (OpenTofu
// lists no no-op drift entry for it), and a move to an address without
// configuration has Terraform's reason.
func TestMovedReadByTerraformJSON(t *testing.T) {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{"id": {Type: cty.String, Computed: true}}}
	ty := schema.ImpliedType()
	obj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("x")})
	addr := func(name string, mod addrs.ModuleInstance) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "test_thing", Name: name}.Instance(addrs.NoKey).Absolute(mod)
	}
	pc := addrs.AbsProviderConfig{Provider: testProvider}
	pure := &plans.ResourceInstanceChange{Addr: addr("new", addrs.ModuleInstance{{Name: "m"}}), PrevRunAddr: addr("old", nil), ProviderAddr: pc,
		Change: plans.Change{Action: plans.NoOp, Before: obj, After: obj}}
	gone := &plans.ResourceInstanceChange{Addr: addr("dst", nil), PrevRunAddr: addr("src", nil), ProviderAddr: pc,
		Change: plans.Change{Action: plans.Delete, Before: obj, After: cty.NullVal(ty)}, ActionReason: plans.ReasonDeleteBecauseNoMoveTarget}
	prior := states.NewState()
	p := &plans.Plan{
		Changes:          &plans.Changes{Resources: []*plans.ResourceInstanceChange{pure, gone}},
		DriftedResources: []*plans.ResourceInstanceChange{pure},
		PriorState:       prior, PrevRunState: prior,
		ProviderSchemas: map[addrs.Provider]*providers.GetProviderSchemaResponse{
			testProvider: {ResourceTypes: map[string]providers.Schema{"test_thing": {Block: schema}}},
		},
		Applyable: true, Complete: true,
	}
	raw, err := Marshal(p, Options{Version: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	var tp tfjson.Plan
	if err := json.Unmarshal(raw, &tp); err != nil {
		t.Fatal(err)
	}
	if err := tp.Validate(); err != nil {
		t.Fatal(err)
	}
	type rc struct {
		Addr, Prev, Reason string
		Actions            tfjson.Actions
	}
	var got []rc
	for _, c := range append(tp.ResourceChanges, tp.ResourceDrift...) {
		got = append(got, rc{c.Address, c.PreviousAddress, string(c.ActionReason), c.Change.Actions})
	}
	want := []rc{
		{"test_thing.dst", "test_thing.src", "delete_because_no_move_target", tfjson.Actions{tfjson.ActionDelete}},
		{"module.m.test_thing.new", "test_thing.old", "", tfjson.Actions{tfjson.ActionNoop}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("resource_changes + resource_drift (-want +got):\n%s", d)
	}
}
