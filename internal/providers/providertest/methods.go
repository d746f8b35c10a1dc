package providertest

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/objchange"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

// GetProviderSchema returns p.Schema.
func (p *Provider) GetProviderSchema() providers.GetProviderSchemaResponse {
	resp := p.Schema
	resp.Diagnostics = append(resp.Diagnostics, p.enter(Call{Method: GetProviderSchema})...)
	return resp
}

// ValidateProviderConfig checks the config against the provider schema.
func (p *Provider) ValidateProviderConfig(req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	diags := p.enter(Call{Method: ValidateProviderConfig, Request: req})
	if p.Schema.Provider.Block != nil && req.Config != cty.NilVal {
		diags = append(diags, p.Schema.Provider.Block.ValidateValue(req.Config)...)
	}
	return providers.ValidateProviderConfigResponse{Diagnostics: diags}
}

// ValidateResourceConfig checks the config against the schema, then runs
// ValidateResourceFn if set.
func (p *Provider) ValidateResourceConfig(req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	diags := p.enter(Call{Method: ValidateResourceConfig, TypeName: req.TypeName, Key: p.keyOf(req.Config), Request: req})
	schema, sdiags := p.resourceSchema(req.TypeName)
	diags = append(diags, sdiags...)
	if diags.HasErrors() {
		return providers.ValidateResourceConfigResponse{Diagnostics: diags}
	}
	diags = append(diags, schema.ValidateValue(req.Config)...)
	if p.ValidateResourceFn != nil {
		diags = append(diags, p.ValidateResourceFn(req).Diagnostics...)
	}
	return providers.ValidateResourceConfigResponse{Diagnostics: diags}
}

// ValidateDataResourceConfig checks the config against the schema.
func (p *Provider) ValidateDataResourceConfig(req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	diags := p.enter(Call{Method: ValidateDataResourceConfig, TypeName: req.TypeName, Key: p.keyOf(req.Config), Request: req})
	schema, sdiags := p.dataSchema(req.TypeName)
	diags = append(diags, sdiags...)
	if !diags.HasErrors() {
		diags = append(diags, schema.ValidateValue(req.Config)...)
	}
	return providers.ValidateDataResourceConfigResponse{Diagnostics: diags}
}

// UpgradeResourceState decodes the stored JSON against the current schema
// (providers.DecodeStateJSON), whatever the stored version.
func (p *Provider) UpgradeResourceState(req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	diags := p.enter(Call{Method: UpgradeResourceState, TypeName: req.TypeName, Request: req})
	schema, sdiags := p.resourceSchema(req.TypeName)
	diags = append(diags, sdiags...)
	if diags.HasErrors() {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags}
	}
	v, err := providers.DecodeStateJSON(schema, req.RawStateJSON)
	if err != nil {
		diags = append(diags, tfdiags.FromError("Invalid stored state", err)...)
		return providers.UpgradeResourceStateResponse{Diagnostics: diags}
	}
	return providers.UpgradeResourceStateResponse{UpgradedState: v, Diagnostics: diags}
}

// ConfigureProvider remembers the configuration (see Configured).
func (p *Provider) ConfigureProvider(req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	diags := p.enter(Call{Method: ConfigureProvider, Request: req})
	if !diags.HasErrors() {
		p.mu.Lock()
		p.config = req.Config
		p.mu.Unlock()
	}
	return providers.ConfigureProviderResponse{Diagnostics: diags}
}

// Stop releases every call held by a Gate (they fail) and makes later
// gated calls fail at once.
func (p *Provider) Stop() error {
	p.init()
	p.record(Call{Method: Stop})
	p.stopOnce.Do(func() { close(p.stopped) })
	return nil
}

// ReadResource returns Drift's value if Drift is set, else the prior
// state.
func (p *Provider) ReadResource(req providers.ReadResourceRequest) providers.ReadResourceResponse {
	diags := p.enter(Call{Method: ReadResource, TypeName: req.TypeName, Key: p.keyOf(req.PriorState), Action: Read, Request: req})
	if diags.HasErrors() {
		return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private, Diagnostics: diags}
	}
	newState := req.PriorState
	if p.Drift != nil {
		newState = p.Drift(req)
	}
	return providers.ReadResourceResponse{NewState: newState, Private: req.Private, Diagnostics: diags}
}

// PlanResourceChange runs PlanFn if set; by default it plans
// ProposedNewState, asking for replacement when a ForceNew path changed
// (then every computed attribute unset in config is unknown again).
func (p *Provider) PlanResourceChange(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	diags := p.enter(Call{Method: PlanResourceChange, TypeName: req.TypeName,
		Key: p.keyOf(req.Config, req.ProposedNewState, req.PriorState), Action: actionOf(req.PriorState, req.ProposedNewState), Request: req})
	schema, sdiags := p.resourceSchema(req.TypeName)
	diags = append(diags, sdiags...)
	if diags.HasErrors() {
		return providers.PlanResourceChangeResponse{Diagnostics: diags}
	}
	if p.PlanFn != nil {
		resp := p.PlanFn(req)
		resp.Diagnostics = append(diags, resp.Diagnostics...)
		return resp
	}
	resp := DefaultPlan(schema, p.ForceNew[req.TypeName], req)
	resp.Diagnostics = append(diags, resp.Diagnostics...)
	return resp
}

// DefaultPlan is the default PlanResourceChange behaviour, exported so a
// PlanFn can wrap it.
func DefaultPlan(schema *configschema.Block, forceNew []cty.Path, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	planned := req.ProposedNewState
	if req.PriorState.IsNull() || planned.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: planned, PlannedPrivate: req.PriorPrivate}
	}
	var replace []cty.Path
	for _, path := range forceNew {
		before, err1 := path.Apply(req.PriorState)
		after, err2 := path.Apply(planned)
		if err1 != nil || err2 != nil {
			continue
		}
		if eq := before.Equals(after); !eq.IsKnown() || eq.False() {
			replace = append(replace, path)
		}
	}
	if len(replace) > 0 {
		planned = objchange.ProposedNew(schema, cty.NullVal(schema.ImpliedType()), req.Config)
	}
	return providers.PlanResourceChangeResponse{PlannedState: planned, RequiresReplace: replace, PlannedPrivate: req.PriorPrivate}
}

// ApplyResourceChange runs ApplyFn if set; by default a delete returns
// null and anything else returns the planned state with each unknown
// filled by UnknownFill. On an injected error the prior state is returned.
func (p *Provider) ApplyResourceChange(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	diags := p.enter(Call{Method: ApplyResourceChange, TypeName: req.TypeName,
		Key: p.keyOf(req.Config, req.PlannedState, req.PriorState), Action: actionOf(req.PriorState, req.PlannedState), Request: req})
	if _, sdiags := p.resourceSchema(req.TypeName); sdiags.HasErrors() {
		diags = append(diags, sdiags...)
	}
	if diags.HasErrors() {
		return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Private: req.PlannedPrivate, Diagnostics: diags}
	}
	if p.ApplyFn != nil {
		resp := p.ApplyFn(req)
		resp.Diagnostics = append(diags, resp.Diagnostics...)
		return resp
	}
	if req.PlannedState.IsNull() {
		return providers.ApplyResourceChangeResponse{NewState: req.PlannedState, Diagnostics: diags}
	}
	return providers.ApplyResourceChangeResponse{
		NewState:    p.fillUnknowns(req.TypeName, req.PlannedState),
		Private:     req.PlannedPrivate,
		Diagnostics: diags,
	}
}

// ImportResourceState runs ImportFn if set; by default it returns one
// object whose "id" is the import ID and every other attribute null.
func (p *Provider) ImportResourceState(req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	diags := p.enter(Call{Method: ImportResourceState, TypeName: req.TypeName, Key: req.ID, Request: req})
	schema, sdiags := p.resourceSchema(req.TypeName)
	diags = append(diags, sdiags...)
	if diags.HasErrors() {
		return providers.ImportResourceStateResponse{Diagnostics: diags}
	}
	if p.ImportFn != nil {
		resp := p.ImportFn(req)
		resp.Diagnostics = append(diags, resp.Diagnostics...)
		return resp
	}
	if a, ok := schema.Attributes["id"]; !ok || a.Type != cty.String {
		diags = append(diags, tfdiags.Errorf("Resource type does not support import", "%s has no string \"id\" attribute to import by.", req.TypeName))
		return providers.ImportResourceStateResponse{Diagnostics: diags}
	}
	m := schema.EmptyValue().AsValueMap()
	m["id"] = cty.StringVal(req.ID)
	return providers.ImportResourceStateResponse{
		ImportedResources: []providers.ImportedResource{{TypeName: req.TypeName, State: cty.ObjectVal(m)}},
		Diagnostics:       diags,
	}
}

// ReadDataSource runs ReadDataSourceFn if set; by default it returns the
// config with every computed attribute unset in config filled by
// UnknownFill.
func (p *Provider) ReadDataSource(req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	diags := p.enter(Call{Method: ReadDataSource, TypeName: req.TypeName, Key: p.keyOf(req.Config), Action: Read, Request: req})
	schema, sdiags := p.dataSchema(req.TypeName)
	diags = append(diags, sdiags...)
	if diags.HasErrors() {
		return providers.ReadDataSourceResponse{Diagnostics: diags}
	}
	if p.ReadDataSourceFn != nil {
		resp := p.ReadDataSourceFn(req)
		resp.Diagnostics = append(diags, resp.Diagnostics...)
		return resp
	}
	planned := objchange.ProposedNew(schema, cty.NullVal(schema.ImpliedType()), req.Config)
	return providers.ReadDataSourceResponse{State: p.fillUnknowns(req.TypeName, planned), Diagnostics: diags}
}

// Close marks the provider closed (see Closed).
func (p *Provider) Close() error {
	p.enter(Call{Method: Close})
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	return nil
}

// actionOf names the change from before to after by their nullness.
func actionOf(before, after cty.Value) Action {
	switch {
	case before == cty.NilVal || before.IsNull():
		return Create
	case after == cty.NilVal || after.IsNull():
		return Delete
	default:
		return Update
	}
}
