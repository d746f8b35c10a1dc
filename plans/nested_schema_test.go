package plans_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/plans/planstest"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// TestNestedAttributeSchemasSurvive checks that nested attribute types
// (with their inner flags, sensitivity included) and write-only flags of
// the provider schemas a plan carries survive Marshal/Unmarshal, so show
// and apply redact what the provider declared sensitive.
func TestNestedAttributeSchemasSurvive(t *testing.T) {
	inner := map[string]*configschema.Attribute{
		"a": {Type: cty.String, Required: true},
		"s": {Type: cty.String, Optional: true, Sensitive: true},
		"deep": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSet, Attributes: map[string]*configschema.Attribute{
			"x": {Type: cty.Number, Computed: true},
		}}},
	}
	inner["deep"].Type = inner["deep"].NestedType.ImpliedType()
	nested := &configschema.Attribute{Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingList, MinItems: 1, MaxItems: 3, Attributes: inner}}
	nested.Type = nested.NestedType.ImpliedType()
	block := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"list": nested,
		"pw":   {Type: cty.String, Optional: true, WriteOnly: true, Sensitive: true},
	}}
	p := &plans.Plan{Changes: plans.NewChanges(), ProviderSchemas: map[addrs.Provider]*providers.GetProviderSchemaResponse{
		addrs.NewDefaultProvider("x"): {
			Provider:      providers.Schema{Block: &configschema.Block{}},
			ResourceTypes: map[string]providers.Schema{"x_thing": {Version: 2, Block: block}},
			DataSources:   map[string]providers.Schema{},
		},
	}}
	b, err := plans.Marshal(p, "test")
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := plans.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	gotBlock := got.ProviderSchemas[addrs.NewDefaultProvider("x")].ResourceTypes["x_thing"].Block
	if d := cmp.Diff(block, gotBlock, planstest.CmpOptions()); d != "" {
		t.Errorf("schema round trip (-want +got):\n%s", d)
	}
}
