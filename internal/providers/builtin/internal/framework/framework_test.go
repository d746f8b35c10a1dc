package framework

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

func testProvider() *Provider {
	s := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"name": {Type: cty.String, Required: true},
		"id":   {Type: cty.String, Computed: true},
	}}
	return &Provider{
		Name: "test",
		Resources: map[string]*Resource{"t_thing": {
			Schema: providers.Schema{Version: 1, Block: s},
			Plan:   Planner{Schema: s}.Plan,
			Apply: func(req providers.ApplyResourceChangeRequest) (cty.Value, hcl.Diagnostics) {
				return With(req.PlannedState, map[string]cty.Value{"id": cty.StringVal("x")}), nil
			},
			Delete: func(cty.Value) hcl.Diagnostics { return hcl.Diagnostics{tfdiags.Error("busy", "cannot delete")} },
			Upgrade: func(v int64, val cty.Value) (cty.Value, hcl.Diagnostics) {
				return With(val, map[string]cty.Value{"id": cty.StringVal("upgraded")}), nil
			},
		}},
	}
}

func TestProviderDispatchErrors(t *testing.T) {
	p := testProvider()
	obj := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n"), "id": cty.StringVal("i")})
	tests := []struct {
		name  string
		diags hcl.Diagnostics
		want  string
	}{
		{"unknown resource type", p.PlanResourceChange(providers.PlanResourceChangeRequest{TypeName: "t_nope"}).Diagnostics, "t_thing"},
		{"unknown data source", p.ReadDataSource(providers.ReadDataSourceRequest{TypeName: "d"}).Diagnostics, "no data source"},
		{"import unsupported", p.ImportResourceState(providers.ImportResourceStateRequest{TypeName: "t_thing", ID: "x"}).Diagnostics, "cannot be imported"},
		{"newer state", p.UpgradeResourceState(providers.UpgradeResourceStateRequest{TypeName: "t_thing", Version: 2, RawStateJSON: []byte(`{}`)}).Diagnostics, "version 2"},
		{"flatmap", p.UpgradeResourceState(providers.UpgradeResourceStateRequest{TypeName: "t_thing", RawStateFlatmap: map[string]string{}}).Diagnostics, "flatmap"},
		{"bad json", p.UpgradeResourceState(providers.UpgradeResourceStateRequest{TypeName: "t_thing", RawStateJSON: []byte(`{`)}).Diagnostics, "Invalid stored state"},
		{"missing required", p.ValidateResourceConfig(providers.ValidateResourceConfigRequest{TypeName: "t_thing",
			Config: cty.ObjectVal(map[string]cty.Value{"name": cty.NullVal(cty.String), "id": cty.NullVal(cty.String)})}).Diagnostics, "required"},
	}
	for _, tt := range tests {
		if !tt.diags.HasErrors() || !strings.Contains(tt.diags[0].Summary+" "+tt.diags[0].Detail, tt.want) {
			t.Errorf("%s: got %v, want error mentioning %q", tt.name, tt.diags, tt.want)
		}
	}

	// A failed delete keeps the prior state.
	resp := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: "t_thing", PriorState: obj, PlannedState: cty.NullVal(obj.Type())})
	if !resp.Diagnostics.HasErrors() || !resp.NewState.RawEquals(obj) {
		t.Fatalf("failed delete: %#v", resp)
	}
	// Older versions run Upgrade; the current version does not.
	if v := p.UpgradeResourceState(providers.UpgradeResourceStateRequest{TypeName: "t_thing", Version: 0, RawStateJSON: []byte(`{"name":"n"}`)}).UpgradedState; v.GetAttr("id") != cty.StringVal("upgraded") {
		t.Fatalf("upgrade not run: %#v", v)
	}
	if v := p.UpgradeResourceState(providers.UpgradeResourceStateRequest{TypeName: "t_thing", Version: 1, RawStateJSON: []byte(`{"name":"n","id":"i"}`)}).UpgradedState; !v.RawEquals(obj) {
		t.Fatalf("current version changed: %#v", v)
	}
}

// TestApplyWhollyKnownPlan: a plan with nothing left to decide is the new
// state; Apply runs only when the plan has unknowns.
func TestApplyWhollyKnownPlan(t *testing.T) {
	p := testProvider()
	known := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n"), "id": cty.StringVal("i")})
	if got := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: "t_thing", PriorState: known, PlannedState: known}).NewState; !got.RawEquals(known) {
		t.Errorf("wholly known plan: got %#v, want it unchanged", got)
	}
	unknown := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n"), "id": cty.UnknownVal(cty.String)})
	if got := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: "t_thing", PriorState: known, PlannedState: unknown}).NewState; got.GetAttr("id") != cty.StringVal("x") {
		t.Errorf("plan with unknowns: got %#v, want Apply's id", got)
	}
}
