// Package framework is the small runtime the built-in providers share: a
// provider made of resource and data source definitions, dispatching the
// protocol methods to them. Definitions are immutable after construction,
// so a Provider is safe for concurrent calls as long as each definition's
// functions are (the built-ins keep no mutable state).
package framework

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

// Resource defines one managed resource type. Nil functions get the
// documented defaults.
type Resource struct {
	Schema providers.Schema
	// Validate checks a (possibly partly unknown) configuration.
	Validate func(config cty.Value) hcl.Diagnostics
	// Plan is required.
	Plan func(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse
	// Apply handles create and update; delete (null planned state) calls
	// Delete instead. A wholly known planned state (an in-place update of
	// arguments only, such as keepers) is the new state as it stands:
	// Apply is called only when there are unknowns to decide. Required.
	Apply func(req providers.ApplyResourceChangeRequest) (cty.Value, hcl.Diagnostics)
	// Delete removes the object; nil means nothing to do (pure state).
	Delete func(prior cty.Value) hcl.Diagnostics
	// Read refreshes; nil returns the prior state unchanged.
	Read func(prior cty.Value) (cty.Value, hcl.Diagnostics)
	// Import builds the state for an import ID; nil means import is not
	// supported.
	Import func(id string) (cty.Value, hcl.Diagnostics)
	// Upgrade migrates the decoded older-version object (decoded against
	// the current schema; attributes the old version lacked are null).
	// Nil accepts it unchanged.
	Upgrade func(version int64, decoded cty.Value) (cty.Value, hcl.Diagnostics)
	// Move converts an object of another resource type (a moved block
	// across types); nil refuses every such move.
	Move func(req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse
}

// DataSource defines one data source.
type DataSource struct {
	Schema   providers.Schema
	Validate func(config cty.Value) hcl.Diagnostics
	Read     func(config cty.Value) (cty.Value, hcl.Diagnostics)
}

// Provider is a built-in provider assembled from definitions.
type Provider struct {
	Name        string
	Config      *configschema.Block
	Resources   map[string]*Resource
	DataSources map[string]*DataSource

	implied sync.Map // *configschema.Block → its implied cty.Type (impliedType)
}

var _ providers.Interface = (*Provider)(nil)

// GetProviderSchema returns the schemas of every definition.
func (p *Provider) GetProviderSchema() providers.GetProviderSchemaResponse {
	cfg := p.Config
	if cfg == nil {
		cfg = &configschema.Block{}
	}
	resp := providers.GetProviderSchemaResponse{
		Provider:      providers.Schema{Block: cfg},
		ResourceTypes: make(map[string]providers.Schema, len(p.Resources)),
		DataSources:   make(map[string]providers.Schema, len(p.DataSources)),
		ServerCapabilities: providers.ServerCapabilities{
			GetProviderSchemaOptional: true,
		},
	}
	for name, r := range p.Resources {
		resp.ResourceTypes[name] = r.Schema
		resp.ServerCapabilities.MoveResourceState = resp.ServerCapabilities.MoveResourceState || r.Move != nil
	}
	for name, d := range p.DataSources {
		resp.DataSources[name] = d.Schema
	}
	return resp
}

// ValidateProviderConfig accepts any configuration matching the schema.
func (p *Provider) ValidateProviderConfig(req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	return providers.ValidateProviderConfigResponse{}
}

// ConfigureProvider accepts the configuration; built-ins need none.
func (p *Provider) ConfigureProvider(req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	return providers.ConfigureProviderResponse{}
}

// Stop is a no-op: built-in operations are short and local.
func (p *Provider) Stop() error { return nil }

// Close is a no-op.
func (p *Provider) Close() error { return nil }

func (p *Provider) resource(typeName string) (*Resource, hcl.Diagnostics) {
	r, ok := p.Resources[typeName]
	if !ok {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Unsupported resource type",
			"The provider %s has no resource type %q. Supported types: %s.", p.Name, typeName, slices.Sorted(maps.Keys(p.Resources)))}
	}
	return r, nil
}

func (p *Provider) dataSource(typeName string) (*DataSource, hcl.Diagnostics) {
	d, ok := p.DataSources[typeName]
	if !ok {
		return nil, hcl.Diagnostics{tfdiags.Errorf("Unsupported data source",
			"The provider %s has no data source %q. Supported data sources: %s.", p.Name, typeName, slices.Sorted(maps.Keys(p.DataSources)))}
	}
	return d, nil
}

// ValidateResourceConfig checks the value against the schema and runs the
// resource's Validate.
func (p *Provider) ValidateResourceConfig(req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	r, diags := p.resource(req.TypeName)
	if diags.HasErrors() {
		return providers.ValidateResourceConfigResponse{Diagnostics: diags}
	}
	diags = r.Schema.Block.ValidateValueOf(req.Config, p.impliedType(r.Schema.Block))
	if !diags.HasErrors() && r.Validate != nil && !req.Config.IsNull() {
		diags = append(diags, r.Validate(req.Config)...)
	}
	return providers.ValidateResourceConfigResponse{Diagnostics: diags}
}

// ValidateDataResourceConfig checks the value against the schema and runs
// the data source's Validate.
func (p *Provider) ValidateDataResourceConfig(req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	d, diags := p.dataSource(req.TypeName)
	if diags.HasErrors() {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: diags}
	}
	diags = d.Schema.Block.ValidateValueOf(req.Config, p.impliedType(d.Schema.Block))
	if !diags.HasErrors() && d.Validate != nil && !req.Config.IsNull() {
		diags = append(diags, d.Validate(req.Config)...)
	}
	return providers.ValidateDataResourceConfigResponse{Diagnostics: diags}
}

// UpgradeResourceState decodes the stored JSON against the current schema
// and runs the resource's Upgrade for older versions. A version newer than
// the provider's is an error: the state was written by a newer provider.
func (p *Provider) UpgradeResourceState(req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	r, diags := p.resource(req.TypeName)
	if diags.HasErrors() {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags}
	}
	if req.Version > r.Schema.Version {
		return providers.UpgradeResourceStateResponse{Diagnostics: hcl.Diagnostics{tfdiags.Errorf(
			"Resource state from a newer provider",
			"The stored %s object has schema version %d, but this built-in %s provider knows only up to version %d. Use the plankit release that wrote this state.",
			req.TypeName, req.Version, p.Name, r.Schema.Version)}}
	}
	if req.RawStateJSON == nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: hcl.Diagnostics{tfdiags.Errorf(
			"Unsupported legacy state", "The stored %s object uses the pre-0.12 flatmap format, which the built-in %s provider does not read. Re-create the object or upgrade the state with Terraform 0.12 first.", req.TypeName, p.Name)}}
	}
	v, err := providers.DecodeStateJSON(r.Schema.Block, req.RawStateJSON)
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: tfdiags.FromError("Invalid stored state for "+req.TypeName, err)}
	}
	if r.Upgrade != nil && req.Version < r.Schema.Version {
		v, diags = r.Upgrade(req.Version, v)
	}
	return providers.UpgradeResourceStateResponse{UpgradedState: v, Diagnostics: diags}
}

// ReadResource refreshes with the resource's Read (prior state if nil).
func (p *Provider) ReadResource(req providers.ReadResourceRequest) providers.ReadResourceResponse {
	r, diags := p.resource(req.TypeName)
	if diags.HasErrors() {
		return providers.ReadResourceResponse{NewState: req.PriorState, Diagnostics: diags}
	}
	if r.Read == nil || req.PriorState.IsNull() {
		return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private}
	}
	v, diags := r.Read(req.PriorState)
	return providers.ReadResourceResponse{NewState: v, Private: req.Private, Diagnostics: diags}
}

// PlanResourceChange runs the resource's Plan; a destroy plans null.
func (p *Provider) PlanResourceChange(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	r, diags := p.resource(req.TypeName)
	if diags.HasErrors() {
		return providers.PlanResourceChangeResponse{Diagnostics: diags}
	}
	if req.ProposedNewState.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: req.ProposedNewState, PlannedPrivate: req.PriorPrivate}
	}
	return r.Plan(req)
}

// ApplyResourceChange runs Delete for a null planned state, else Apply
// unless the planned state is wholly known.
// On error the prior state is returned, so nothing is lost.
func (p *Provider) ApplyResourceChange(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	r, diags := p.resource(req.TypeName)
	if diags.HasErrors() {
		return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Diagnostics: diags}
	}
	if req.PlannedState.IsNull() {
		if r.Delete != nil && !req.PriorState.IsNull() {
			if diags := r.Delete(req.PriorState); diags.HasErrors() {
				return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Diagnostics: diags}
			}
		}
		return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
	}
	if req.PlannedState.IsWhollyKnown() {
		return providers.ApplyResourceChangeResponse{NewState: req.PlannedState, Private: req.PlannedPrivate}
	}
	v, diags := r.Apply(req)
	if diags.HasErrors() {
		return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Diagnostics: diags}
	}
	return providers.ApplyResourceChangeResponse{NewState: v, Private: req.PlannedPrivate, Diagnostics: diags}
}

// ImportResourceState runs the resource's Import.
func (p *Provider) ImportResourceState(req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	r, diags := p.resource(req.TypeName)
	if diags.HasErrors() {
		return providers.ImportResourceStateResponse{Diagnostics: diags}
	}
	if r.Import == nil {
		return providers.ImportResourceStateResponse{Diagnostics: hcl.Diagnostics{tfdiags.Errorf(
			"Resource type does not support import", "%s cannot be imported: create it with plankit instead.", req.TypeName)}}
	}
	v, diags := r.Import(req.ID)
	if diags.HasErrors() {
		return providers.ImportResourceStateResponse{Diagnostics: diags}
	}
	return providers.ImportResourceStateResponse{
		ImportedResources: []providers.ImportedResource{{TypeName: req.TypeName, State: v}},
		Diagnostics:       diags,
	}
}

// ReadDataSource runs the data source's Read.
func (p *Provider) ReadDataSource(req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	d, diags := p.dataSource(req.TypeName)
	if diags.HasErrors() {
		return providers.ReadDataSourceResponse{Diagnostics: diags}
	}
	v, diags := d.Read(req.Config)
	return providers.ReadDataSourceResponse{State: v, Diagnostics: diags}
}

// MoveResourceState runs the target resource type's Move; a type without
// one refuses objects of another type.
func (p *Provider) MoveResourceState(req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	r, diags := p.resource(req.TargetTypeName)
	if diags.HasErrors() {
		return providers.MoveResourceStateResponse{Diagnostics: diags}
	}
	if r.Move != nil {
		return r.Move(req)
	}
	return providers.MoveResourceStateResponse{Diagnostics: hcl.Diagnostics{tfdiags.Errorf(
		"Unsupported resource move",
		"The built-in %s provider cannot move %s objects to %s. Move objects between resources of the same type, or re-create them.",
		p.Name, req.SourceTypeName, req.TargetTypeName)}}
}

// GetFunctions returns no functions: the built-ins define none.
func (p *Provider) GetFunctions() providers.GetFunctionsResponse {
	return providers.GetFunctionsResponse{Functions: map[string]providers.FunctionDecl{}}
}

// CallFunction fails: the built-ins define no functions.
func (p *Provider) CallFunction(req providers.CallFunctionRequest) providers.CallFunctionResponse {
	return providers.CallFunctionResponse{Result: cty.DynamicVal, Err: &providers.FunctionError{
		Text: fmt.Sprintf("the built-in %s provider has no function %q", p.Name, req.FunctionName)}}
}

// ValidateEphemeralResourceConfig fails: the built-ins have no ephemeral
// resource types.
func (p *Provider) ValidateEphemeralResourceConfig(req providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	return providers.ValidateEphemeralResourceConfigResponse{Diagnostics: p.noEphemeral(req.TypeName)}
}

// OpenEphemeralResource fails: the built-ins have no ephemeral resource
// types.
func (p *Provider) OpenEphemeralResource(req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	return providers.OpenEphemeralResourceResponse{Diagnostics: p.noEphemeral(req.TypeName)}
}

// RenewEphemeralResource fails: the built-ins have no ephemeral resource
// types.
func (p *Provider) RenewEphemeralResource(req providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	return providers.RenewEphemeralResourceResponse{Diagnostics: p.noEphemeral(req.TypeName)}
}

// CloseEphemeralResource fails: the built-ins have no ephemeral resource
// types.
func (p *Provider) CloseEphemeralResource(req providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	return providers.CloseEphemeralResourceResponse{Diagnostics: p.noEphemeral(req.TypeName)}
}

func (p *Provider) noEphemeral(typeName string) hcl.Diagnostics {
	return hcl.Diagnostics{tfdiags.Errorf("Unsupported ephemeral resource type",
		"The built-in %s provider has no ephemeral resource type %q.", p.Name, typeName)}
}
