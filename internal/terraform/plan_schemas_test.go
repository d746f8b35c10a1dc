package terraform

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/states"
)

// TestPlanSchemasCoverConfiguration: the plan keeps the schema of every
// provider and resource type its configuration names, those without
// instances too (a data source with count = 0, a provider block no
// resource uses), and PlanOpts.SchemasLoaded sees, once and before the
// walk, every schema of those providers: so show -json of the stored
// plan writes the configuration section as one made from the loaded
// schemas does.
func TestPlanSchemasCoverConfiguration(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
provider "test" {}
data "test_data" "d" {
  count = 0
}
`})
	var loaded []map[addrs.Provider]*providers.GetProviderSchemaResponse
	p, diags := testContext(t, newTestProvider(), 4).Plan(context.Background(), cfg, states.NewState(), &PlanOpts{
		SchemasLoaded: func(s map[addrs.Provider]*providers.GetProviderSchemaResponse) { loaded = append(loaded, s) },
	})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if len(loaded) != 1 {
		t.Fatalf("SchemasLoaded called %d times, want once", len(loaded))
	}
	full := loaded[0][testProviderAddr]
	if full == nil || full.ResourceTypes["test_thing"].Block == nil {
		t.Fatalf("SchemasLoaded did not get the provider's full schema: %#v", loaded[0])
	}
	got := p.ProviderSchemas[testProviderAddr]
	if got == nil {
		t.Fatalf("the plan keeps no schema of %s, which the configuration names: %v", testProviderAddr, slices.Collect(maps.Keys(p.ProviderSchemas)))
	}
	if diff := cmp.Diff([]string{"test_data"}, slices.Sorted(maps.Keys(got.DataSources))); diff != "" {
		t.Errorf("data sources kept (-want +got):\n%s", diff)
	}
	if len(got.ResourceTypes) != 0 {
		t.Errorf("resource types kept: %v, want none (the configuration names none)", slices.Collect(maps.Keys(got.ResourceTypes)))
	}
	if got.Provider.Block != full.Provider.Block || got.DataSources["test_data"].Block != full.DataSources["test_data"].Block {
		t.Error("the kept schemas are not the loaded ones")
	}
}
