package jsonplan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/depsfile"
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

// TestHostsFromLocks: a provider the lock file has only under
// registry.opentofu.org (a directory OpenTofu initialised) is named so in
// the configuration section and in the entries of resources the state
// does not hold yet, as OpenTofu names it; one locked under both hosts,
// or only under registry.terraform.io, keeps the configuration's name.
func TestHostsFromLocks(t *testing.T) {
	tofu := func(typ string) addrs.Provider {
		p, _ := addrs.NewDefaultProvider(typ).RegistryTwin()
		return p
	}
	locks := depsfile.NewLocks()
	locks.SetProvider(tofu("only"), "1.0.0", "", nil)
	locks.SetProvider(tofu("both"), "1.0.0", "", nil)
	locks.SetProvider(addrs.NewDefaultProvider("both"), "1.0.0", "", nil)
	locks.SetProvider(addrs.NewDefaultProvider("tf"), "1.0.0", "", nil)
	want := map[addrs.Provider]addrs.Provider{addrs.NewDefaultProvider("only"): tofu("only")}
	hosts := HostsFromLocks(locks)
	if d := cmp.Diff(want, hosts); d != "" {
		t.Fatalf("hosts (-want +got):\n%s", d)
	}
	cfgProv := addrs.NewDefaultProvider("only")
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{"name": {Type: cty.String, Optional: true}}}
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "only_thing", Name: "new"}.Instance(addrs.NoKey).Absolute(nil)
	p := &plans.Plan{
		Changes: &plans.Changes{Resources: []*plans.ResourceInstanceChange{{Addr: addr, PrevRunAddr: addr,
			ProviderAddr: addrs.AbsProviderConfig{Provider: cfgProv},
			Change:       plans.Change{Action: plans.Create, Before: cty.NullVal(schema.ImpliedType()), After: cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n")})}}}},
		ProviderSchemas: map[addrs.Provider]*providers.GetProviderSchemaResponse{cfgProv: {
			ResourceTypes: map[string]providers.Schema{"only_thing": {Block: schema}}}},
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(`resource "only_thing" "new" { name = "n" }`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for name, opts := range map[string]Options{"with hosts": {Config: cfg, Hosts: hosts}, "without": {Config: cfg}} {
		raw, err := Marshal(p, opts)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			ResourceChanges []struct {
				ProviderName string `json:"provider_name"`
			} `json:"resource_changes"`
			Configuration struct {
				ProviderConfig map[string]struct {
					FullName string `json:"full_name"`
				} `json:"provider_config"`
			} `json:"configuration"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		wantName := "registry.terraform.io/hashicorp/only"
		if opts.Hosts != nil {
			wantName = "registry.opentofu.org/hashicorp/only"
		}
		got := []string{doc.ResourceChanges[0].ProviderName, doc.Configuration.ProviderConfig["only"].FullName}
		if d := cmp.Diff([]string{wantName, wantName}, got); d != "" {
			t.Errorf("%s: resource_changes and configuration provider names (-want +got):\n%s", name, d)
		}
	}
}
