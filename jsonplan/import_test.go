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
)

// TestImportingReadByTerraformJSON: resource_changes[].change.importing
// and generated_config, as terraform-json reads them; absent for a change
// that imports nothing.
func TestImportingReadByTerraformJSON(t *testing.T) {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{"id": {Type: cty.String, Computed: true}}}
	obj := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("i-1")})
	pc := addrs.AbsProviderConfig{Provider: testProvider}
	change := func(name string, imp *plans.Importing, gen string) *plans.ResourceInstanceChange {
		a := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "test_thing", Name: name}.Instance(addrs.NoKey).Absolute(nil)
		return &plans.ResourceInstanceChange{Addr: a, PrevRunAddr: a, ProviderAddr: pc,
			Change: plans.Change{Action: plans.NoOp, Before: obj, After: obj, Importing: imp, GeneratedConfig: gen}}
	}
	p := &plans.Plan{
		Changes: &plans.Changes{Resources: []*plans.ResourceInstanceChange{
			change("imported", &plans.Importing{ID: "i-1"}, ""),
			change("generated", &plans.Importing{ID: "i-1"}, "resource \"test_thing\" \"generated\" {\n}"),
			change("plain", nil, ""),
		}},
		ProviderSchemas: map[addrs.Provider]*providers.GetProviderSchemaResponse{
			testProvider: {ResourceTypes: map[string]providers.Schema{"test_thing": {Block: schema}}},
		},
		Applyable: true,
	}
	b, err := Marshal(p, Options{Version: "0.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	var tp tfjson.Plan
	if err := json.Unmarshal(b, &tp); err != nil {
		t.Fatal(err)
	}
	if err := tp.Validate(); err != nil {
		t.Fatal(err)
	}
	type got struct {
		ID        *string
		Generated string
	}
	all := map[string]got{}
	for _, rc := range tp.ResourceChanges {
		g := got{Generated: rc.Change.GeneratedConfig}
		if rc.Change.Importing != nil {
			id := rc.Change.Importing.ID
			g.ID = &id
		}
		all[rc.Address] = g
	}
	id := "i-1"
	want := map[string]got{
		"test_thing.imported":  {ID: &id},
		"test_thing.generated": {ID: &id, Generated: "resource \"test_thing\" \"generated\" {\n}"},
		"test_thing.plain":     {},
	}
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("importing as terraform-json reads it (-want +got):\n%s", diff)
	}
}
