package jsonplan

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/states"
)

// TestProviderNameKeepsStateHost: a change the configuration's
// registry.terraform.io provider planned for a resource that a state
// OpenTofu wrote records under registry.opentofu.org names the state's
// provider in resource_changes and planned_values, as prior_state does
// (and as OpenTofu writes it); a resource the state does not hold keeps
// the configuration's.
func TestProviderNameKeepsStateHost(t *testing.T) {
	cfgProv := addrs.NewDefaultProvider("fwtest")
	tofuProv, _ := cfgProv.RegistryTwin()
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{"name": {Type: cty.String, Optional: true}}}
	ty := schema.ImpliedType()
	addr := func(name string) addrs.AbsResourceInstance {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "fwtest_thing", Name: name}.Instance(addrs.NoKey).Absolute(nil)
	}
	obj := func(s string) cty.Value { return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(s)}) }
	prior := states.NewState()
	src, err := (&states.ResourceInstanceObject{Value: obj("a"), Status: states.ObjectReady}).Encode(ty, 0)
	if err != nil {
		t.Fatal(err)
	}
	prior.SetResourceInstanceCurrent(addr("kept"), src, addrs.AbsProviderConfig{Provider: tofuProv})
	pc := addrs.AbsProviderConfig{Provider: cfgProv}
	schemas := map[addrs.Provider]*providers.GetProviderSchemaResponse{}
	for _, p := range []addrs.Provider{cfgProv, tofuProv} {
		schemas[p] = &providers.GetProviderSchemaResponse{ResourceTypes: map[string]providers.Schema{"fwtest_thing": {Block: schema}}}
	}
	p := &plans.Plan{
		Changes: &plans.Changes{Resources: []*plans.ResourceInstanceChange{
			{Addr: addr("kept"), PrevRunAddr: addr("kept"), ProviderAddr: pc, Change: plans.Change{Action: plans.Update, Before: obj("a"), After: obj("b")}},
			{Addr: addr("new"), PrevRunAddr: addr("new"), ProviderAddr: pc, Change: plans.Change{Action: plans.Create, Before: cty.NullVal(ty), After: obj("c")}},
		}},
		PrevRunState: prior, PriorState: prior, ProviderSchemas: schemas,
	}
	raw, err := Marshal(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		ResourceChanges []struct {
			Address      string
			ProviderName string `json:"provider_name"`
		} `json:"resource_changes"`
		PlannedValues struct {
			RootModule struct {
				Resources []struct {
					Address      string
					ProviderName string `json:"provider_name"`
				}
			} `json:"root_module"`
		} `json:"planned_values"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	type named struct{ Address, ProviderName string }
	var got []named
	for _, r := range doc.ResourceChanges {
		got = append(got, named(r))
	}
	for _, r := range doc.PlannedValues.RootModule.Resources {
		got = append(got, named(r))
	}
	want := []named{
		{"fwtest_thing.kept", "registry.opentofu.org/hashicorp/fwtest"},
		{"fwtest_thing.new", "registry.terraform.io/hashicorp/fwtest"},
		{"fwtest_thing.kept", "registry.opentofu.org/hashicorp/fwtest"},
		{"fwtest_thing.new", "registry.terraform.io/hashicorp/fwtest"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("provider names (-want +got):\n%s", diff)
	}
	if p.Changes.Resources[0].ProviderAddr.Provider != cfgProv {
		t.Errorf("the plan's change was modified: %s", p.Changes.Resources[0].ProviderAddr)
	}
}
