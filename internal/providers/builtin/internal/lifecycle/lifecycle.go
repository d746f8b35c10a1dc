// Package lifecycle drives a provider through the calls the core makes
// (decode config, validate, plan, apply, read, import, upgrade), for the
// built-in providers' tests. Every helper fails the test on error
// diagnostics unless it returns them.
package lifecycle

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/objchange"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// Harness binds a provider and a resource type.
type Harness struct {
	T        testing.TB
	P        providers.Interface
	TypeName string
	Schema   *configschema.Block
}

// New returns a harness for typeName, failing if the provider lacks it or
// its schema is unsound.
func New(t testing.TB, p providers.Interface, typeName string) *Harness {
	t.Helper()
	s, ok := p.GetProviderSchema().ResourceTypes[typeName]
	if !ok {
		t.Fatalf("no resource type %s", typeName)
	}
	if err := s.Block.InternalValidate(); err != nil {
		t.Fatalf("%s schema: %v", typeName, err)
	}
	return &Harness{T: t, P: p, TypeName: typeName, Schema: s.Block}
}

// Null is the null object of the schema's type.
func (h *Harness) Null() cty.Value { return cty.NullVal(h.Schema.ImpliedType()) }

// Config decodes HCL source against the schema and validates it with the
// provider.
func (h *Harness) Config(src string) cty.Value {
	h.T.Helper()
	v, diags := DecodeHCL(h.Schema, src)
	if diags.HasErrors() {
		h.T.Fatalf("config: %s", diags.Error())
	}
	if d := h.P.ValidateResourceConfig(providers.ValidateResourceConfigRequest{TypeName: h.TypeName, Config: v}).Diagnostics; d.HasErrors() {
		h.T.Fatalf("validate: %s", d.Error())
	}
	return v
}

// Invalid decodes and validates src, returning the diagnostics.
func (h *Harness) Invalid(src string) hcl.Diagnostics {
	h.T.Helper()
	v, diags := DecodeHCL(h.Schema, src)
	if diags.HasErrors() {
		return diags
	}
	return h.P.ValidateResourceConfig(providers.ValidateResourceConfigRequest{TypeName: h.TypeName, Config: v}).Diagnostics
}

// DecodeHCL parses src and decodes it against schema.
func DecodeHCL(schema *configschema.Block, src string) (cty.Value, hcl.Diagnostics) {
	f, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	return schema.Decode(f.Body, nil)
}

// Plan plans config against prior as the core does (ProposedNew first)
// and checks the planned value conforms to the schema.
func (h *Harness) Plan(prior, config cty.Value) providers.PlanResourceChangeResponse {
	h.T.Helper()
	resp := h.P.PlanResourceChange(providers.PlanResourceChangeRequest{
		TypeName: h.TypeName, PriorState: prior, Config: config,
		ProposedNewState: objchange.ProposedNew(h.Schema, prior, config),
	})
	if resp.Diagnostics.HasErrors() {
		h.T.Fatalf("plan: %s", resp.Diagnostics.Error())
	}
	if !resp.PlannedState.IsNull() {
		if d := h.Schema.ValidateValue(resp.PlannedState); d.HasErrors() {
			h.T.Fatalf("planned value: %s", d.Error())
		}
	}
	return resp
}

// Apply applies a plan and checks the new state is wholly known and
// consistent with every known planned attribute.
func (h *Harness) Apply(prior, planned, config cty.Value) cty.Value {
	h.T.Helper()
	resp := h.P.ApplyResourceChange(providers.ApplyResourceChangeRequest{
		TypeName: h.TypeName, PriorState: prior, PlannedState: planned, Config: config,
	})
	if resp.Diagnostics.HasErrors() {
		h.T.Fatalf("apply: %s", resp.Diagnostics.Error())
	}
	if planned.IsNull() {
		if !resp.NewState.IsNull() {
			h.T.Fatalf("delete returned %#v", resp.NewState)
		}
		return resp.NewState
	}
	if !resp.NewState.IsWhollyKnown() {
		h.T.Fatalf("new state has unknowns: %#v", resp.NewState)
	}
	for name := range h.Schema.Attributes {
		pv := planned.GetAttr(name)
		if pv.IsWhollyKnown() && !pv.RawEquals(resp.NewState.GetAttr(name)) {
			h.T.Fatalf("apply changed planned %s from %#v to %#v", name, pv, resp.NewState.GetAttr(name))
		}
	}
	return resp.NewState
}

// Create plans and applies a create, returning the new state.
func (h *Harness) Create(config cty.Value) cty.Value {
	h.T.Helper()
	pl := h.Plan(h.Null(), config)
	return h.Apply(h.Null(), pl.PlannedState, config)
}

// Read refreshes state.
func (h *Harness) Read(state cty.Value) cty.Value {
	h.T.Helper()
	resp := h.P.ReadResource(providers.ReadResourceRequest{TypeName: h.TypeName, PriorState: state})
	if resp.Diagnostics.HasErrors() {
		h.T.Fatalf("read: %s", resp.Diagnostics.Error())
	}
	return resp.NewState
}

// Destroy plans and applies a delete.
func (h *Harness) Destroy(state cty.Value) {
	h.T.Helper()
	pl := h.Plan(state, h.Null())
	if !pl.PlannedState.IsNull() {
		h.T.Fatalf("destroy planned %#v", pl.PlannedState)
	}
	h.Apply(state, h.Null(), h.Null())
}

// Import imports id and returns the single imported object's state.
func (h *Harness) Import(id string) (cty.Value, hcl.Diagnostics) {
	h.T.Helper()
	resp := h.P.ImportResourceState(providers.ImportResourceStateRequest{TypeName: h.TypeName, ID: id})
	if resp.Diagnostics.HasErrors() {
		return cty.NilVal, resp.Diagnostics
	}
	if len(resp.ImportedResources) != 1 {
		h.T.Fatalf("import returned %d objects", len(resp.ImportedResources))
	}
	return resp.ImportedResources[0].State, nil
}

// Upgrade runs UpgradeResourceState on raw JSON at a version.
func (h *Harness) Upgrade(version int64, raw string) (cty.Value, hcl.Diagnostics) {
	resp := h.P.UpgradeResourceState(providers.UpgradeResourceStateRequest{TypeName: h.TypeName, Version: version, RawStateJSON: []byte(raw)})
	return resp.UpgradedState, resp.Diagnostics
}

// ReplacePaths renders RequiresReplace for comparison.
func ReplacePaths(ps []cty.Path) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, configschema.FormatPath(p))
	}
	return out
}
