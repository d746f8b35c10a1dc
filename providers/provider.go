// Package providers defines the interface between plankit's core and a
// provider, whether it runs in-process (providers/builtin) or as a
// plugin process speaking protocol 5 or 6 (providers/plugin). The shape
// follows plugin protocol 6 so that the gRPC client is a thin translation:
// one method per RPC, requests and responses carrying cty.Values, opaque
// private bytes and hcl.Diagnostics (attribute paths via tfdiags.WithPath).
//
// Values conventions, shared by every method:
//   - Object values have the cty type implied by the relevant schema
//     (configschema.Block.ImpliedType).
//   - Planned values may contain unknowns, meaning "known after apply".
//   - A null PriorState means the object does not exist yet (create); a
//     null ProposedNewState/PlannedState means it is to be destroyed; a null
//     NewState from ReadResource means it no longer exists (drift).
//   - Values passed to a provider carry no cty marks (sensitivity is the
//     core's business, from the schema).
package providers

import (
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/providers/configschema"
)

// Interface is a provider. Implementations must be safe for concurrent
// calls: the core calls resource methods from many goroutines at once
// (after ConfigureProvider has returned).
type Interface interface {
	// GetProviderSchema returns the schemas of the provider configuration,
	// its resource types and its data sources. Callable before
	// ConfigureProvider; cheap enough to call more than once.
	GetProviderSchema() GetProviderSchemaResponse

	// ValidateProviderConfig checks the provider configuration block.
	ValidateProviderConfig(ValidateProviderConfigRequest) ValidateProviderConfigResponse
	// ValidateResourceConfig checks a resource's configuration beyond what
	// the schema expresses (conflicting arguments, value ranges). Config
	// may contain unknowns.
	ValidateResourceConfig(ValidateResourceConfigRequest) ValidateResourceConfigResponse
	// ValidateDataResourceConfig is ValidateResourceConfig for data
	// sources.
	ValidateDataResourceConfig(ValidateDataResourceConfigRequest) ValidateDataResourceConfigResponse

	// UpgradeResourceState decodes a stored resource object (raw JSON as
	// found in the state file, written under schema Version) into a value
	// of the provider's current schema, migrating older versions.
	UpgradeResourceState(UpgradeResourceStateRequest) UpgradeResourceStateResponse

	// ConfigureProvider passes the provider configuration; called once
	// before any resource method except the Validate* and Upgrade ones.
	ConfigureProvider(ConfigureProviderRequest) ConfigureProviderResponse

	// Stop asks the provider to abort in-flight operations promptly. It
	// may be called concurrently with any other method.
	Stop() error

	// ReadResource refreshes a resource object from the real world. A null
	// NewState means the object is gone.
	ReadResource(ReadResourceRequest) ReadResourceResponse
	// PlanResourceChange returns the planned new state for a resource,
	// starting from the core's ProposedNewState (see objchange.ProposedNew),
	// and which attribute changes require replacing the object.
	PlanResourceChange(PlanResourceChangeRequest) PlanResourceChangeResponse
	// ApplyResourceChange makes the planned change real: create (null
	// PriorState), update, or delete (null PlannedState). NewState must be
	// wholly known, or null after a delete.
	ApplyResourceChange(ApplyResourceChangeRequest) ApplyResourceChangeResponse
	// ImportResourceState turns an import ID into one or more resource
	// objects; the core reads each with ReadResource afterwards.
	ImportResourceState(ImportResourceStateRequest) ImportResourceStateResponse

	// ReadDataSource reads a data source. Config is wholly known.
	ReadDataSource(ReadDataSourceRequest) ReadDataSourceResponse

	// ValidateEphemeralResourceConfig is ValidateResourceConfig for
	// ephemeral resources (ephemeral blocks).
	ValidateEphemeralResourceConfig(ValidateEphemeralResourceConfigRequest) ValidateEphemeralResourceConfigResponse
	// OpenEphemeralResource opens an ephemeral resource: its result lives
	// only in this run (never in a plan or a state) until
	// CloseEphemeralResource. Config is wholly known.
	OpenEphemeralResource(OpenEphemeralResourceRequest) OpenEphemeralResourceResponse
	// RenewEphemeralResource extends an open ephemeral resource's life,
	// called when the RenewAt time of the last Open or Renew has passed.
	RenewEphemeralResource(RenewEphemeralResourceRequest) RenewEphemeralResourceResponse
	// CloseEphemeralResource releases an open ephemeral resource (revokes
	// a lease, say).
	CloseEphemeralResource(CloseEphemeralResourceRequest) CloseEphemeralResourceResponse

	// MoveResourceState turns a stored object of another resource type
	// (possibly of another provider) into an object of TargetTypeName, for
	// a moved block whose from and to types differ.
	MoveResourceState(MoveResourceStateRequest) MoveResourceStateResponse

	// GetFunctions returns the provider-defined functions
	// (provider::NAME::FUNC in expressions). Callable before
	// ConfigureProvider.
	GetFunctions() GetFunctionsResponse
	// CallFunction calls a provider-defined function. Callable before
	// ConfigureProvider; arguments may be unknown only where the
	// declaration allows it.
	CallFunction(CallFunctionRequest) CallFunctionResponse

	// Close releases the provider (kills a plugin process). No method may
	// be called after Close.
	Close() error
}

// Factory starts a new instance of a provider. Each call returns an
// independent instance (its own configuration).
type Factory func() (Interface, error)

// Schema is a schema with its version. Version orders schemas of a
// resource type over time; state written under an older version goes
// through UpgradeResourceState.
type Schema struct {
	Version int64
	Block   *configschema.Block
}

// GetProviderSchemaResponse is the reply to GetProviderSchema.
type GetProviderSchemaResponse struct {
	// Provider is the schema of the provider configuration block.
	Provider Schema
	// ProviderMeta is the schema of the provider_meta block, if any.
	ProviderMeta  Schema
	ResourceTypes map[string]Schema
	DataSources   map[string]Schema
	// EphemeralResourceTypes are the schemas of the ephemeral resource
	// types (ephemeral blocks).
	EphemeralResourceTypes map[string]Schema
	Diagnostics            hcl.Diagnostics
	// ServerCapabilities tells what optional protocol features the
	// provider supports.
	ServerCapabilities ServerCapabilities
	// Functions are the provider-defined functions, by name (as
	// GetFunctions returns them).
	Functions map[string]FunctionDecl
}

// ServerCapabilities are the optional features a provider declares.
type ServerCapabilities struct {
	// PlanDestroy means PlanResourceChange wants to be called for destroys
	// too (with a null ProposedNewState).
	PlanDestroy bool
	// GetProviderSchemaOptional means the core may skip
	// GetProviderSchema before other calls.
	GetProviderSchemaOptional bool
	// MoveResourceState means the provider implements MoveResourceState.
	MoveResourceState bool
}

// ResourceTypeSchema returns the schema of a managed resource type.
func (r GetProviderSchemaResponse) ResourceTypeSchema(typeName string) (Schema, bool) {
	s, ok := r.ResourceTypes[typeName]
	return s, ok
}

// DataSourceSchema returns the schema of a data source type.
func (r GetProviderSchemaResponse) DataSourceSchema(typeName string) (Schema, bool) {
	s, ok := r.DataSources[typeName]
	return s, ok
}

// EphemeralResourceTypeSchema returns the schema of an ephemeral resource
// type.
func (r GetProviderSchemaResponse) EphemeralResourceTypeSchema(typeName string) (Schema, bool) {
	s, ok := r.EphemeralResourceTypes[typeName]
	return s, ok
}

// SchemaForResource returns the schema of res's type: a data source's for
// a data resource, an ephemeral resource type's for an ephemeral one, a
// managed resource type's otherwise.
func (r GetProviderSchemaResponse) SchemaForResource(res addrs.Resource) (Schema, bool) {
	switch res.Mode {
	case addrs.DataResourceMode:
		return r.DataSourceSchema(res.Type)
	case addrs.EphemeralResourceMode:
		return r.EphemeralResourceTypeSchema(res.Type)
	}
	return r.ResourceTypeSchema(res.Type)
}

// ResourceSchema finds the block schema of res's type among the schemas of
// several providers (a plan's, say); nil when provider or type is missing.
func ResourceSchema(schemas map[addrs.Provider]*GetProviderSchemaResponse, provider addrs.Provider, res addrs.Resource) *configschema.Block {
	ps := schemas[provider]
	if ps == nil {
		return nil
	}
	if s, ok := ps.SchemaForResource(res); ok {
		return s.Block
	}
	return nil
}

// ValidateProviderConfigRequest carries the provider configuration.
type ValidateProviderConfigRequest struct {
	Config cty.Value
}

// ValidateProviderConfigResponse reports problems in the configuration.
type ValidateProviderConfigResponse struct {
	Diagnostics hcl.Diagnostics
}

// ValidateResourceConfigRequest carries one resource's configuration.
type ValidateResourceConfigRequest struct {
	TypeName string
	Config   cty.Value
}

// ValidateResourceConfigResponse reports problems in the configuration.
type ValidateResourceConfigResponse struct {
	Diagnostics hcl.Diagnostics
}

// ValidateDataResourceConfigRequest carries one data source's
// configuration.
type ValidateDataResourceConfigRequest struct {
	TypeName string
	Config   cty.Value
}

// ValidateDataResourceConfigResponse reports problems in the
// configuration.
type ValidateDataResourceConfigResponse struct {
	Diagnostics hcl.Diagnostics
}

// UpgradeResourceStateRequest carries a stored resource object.
type UpgradeResourceStateRequest struct {
	TypeName string
	// Version is the schema version the object was written under.
	Version int64
	// RawStateJSON is the object's "attributes" from a v4 state file.
	RawStateJSON []byte
	// RawStateFlatmap is the legacy "attributes_flat" form; set only when
	// RawStateJSON is nil.
	RawStateFlatmap map[string]string
}

// UpgradeResourceStateResponse carries the object in the current schema.
type UpgradeResourceStateResponse struct {
	UpgradedState cty.Value
	Diagnostics   hcl.Diagnostics
}

// ConfigureProviderRequest carries the provider configuration.
type ConfigureProviderRequest struct {
	// TerraformVersion is the version the core reports to providers.
	TerraformVersion string
	Config           cty.Value
}

// ConfigureProviderResponse reports configuration problems.
type ConfigureProviderResponse struct {
	Diagnostics hcl.Diagnostics
}

// ReadResourceRequest asks for the current state of a resource object.
type ReadResourceRequest struct {
	TypeName     string
	PriorState   cty.Value
	Private      []byte
	ProviderMeta cty.Value
}

// ReadResourceResponse is the refreshed object; null NewState means the
// object no longer exists.
type ReadResourceResponse struct {
	NewState    cty.Value
	Private     []byte
	Diagnostics hcl.Diagnostics
}

// PlanResourceChangeRequest asks the provider to plan a change.
type PlanResourceChangeRequest struct {
	TypeName string
	// PriorState is null when creating.
	PriorState cty.Value
	// ProposedNewState merges Config and PriorState (objchange.ProposedNew);
	// null when destroying.
	ProposedNewState cty.Value
	Config           cty.Value
	PriorPrivate     []byte
	ProviderMeta     cty.Value
}

// PlanResourceChangeResponse is the planned new state.
type PlanResourceChangeResponse struct {
	// PlannedState may contain unknowns ("known after apply").
	PlannedState cty.Value
	// RequiresReplace lists attribute paths whose change forces the object
	// to be destroyed and created again rather than updated.
	RequiresReplace []cty.Path
	PlannedPrivate  []byte
	Diagnostics     hcl.Diagnostics
	// LegacyTypeSystem is set by providers built on the legacy SDK, whose
	// plans the core checks less strictly. Built-ins leave it false.
	LegacyTypeSystem bool
}

// ApplyResourceChangeRequest asks the provider to make a planned change.
type ApplyResourceChangeRequest struct {
	TypeName string
	// PriorState is null when creating.
	PriorState cty.Value
	// PlannedState is null when deleting.
	PlannedState   cty.Value
	Config         cty.Value
	PlannedPrivate []byte
	ProviderMeta   cty.Value
}

// ApplyResourceChangeResponse is the object after the change: wholly known,
// or null after a delete.
type ApplyResourceChangeResponse struct {
	NewState         cty.Value
	Private          []byte
	Diagnostics      hcl.Diagnostics
	LegacyTypeSystem bool
}

// ImportResourceStateRequest asks to import an existing object by ID.
type ImportResourceStateRequest struct {
	TypeName string
	ID       string
}

// ImportResourceStateResponse carries the imported objects.
type ImportResourceStateResponse struct {
	ImportedResources []ImportedResource
	Diagnostics       hcl.Diagnostics
}

// ImportedResource is one object an import produced. State may be partial;
// the core refreshes it with ReadResource.
type ImportedResource struct {
	TypeName string
	State    cty.Value
	Private  []byte
}

// ReadDataSourceRequest asks to read a data source.
type ReadDataSourceRequest struct {
	TypeName     string
	Config       cty.Value
	ProviderMeta cty.Value
}

// ReadDataSourceResponse carries the data source's value.
type ReadDataSourceResponse struct {
	State       cty.Value
	Diagnostics hcl.Diagnostics
}

// ValidateEphemeralResourceConfigRequest carries one ephemeral resource's
// configuration (may contain unknowns).
type ValidateEphemeralResourceConfigRequest struct {
	TypeName string
	Config   cty.Value
}

// ValidateEphemeralResourceConfigResponse reports problems in the
// configuration.
type ValidateEphemeralResourceConfigResponse struct {
	Diagnostics hcl.Diagnostics
}

// OpenEphemeralResourceRequest asks to open an ephemeral resource.
type OpenEphemeralResourceRequest struct {
	TypeName string
	Config   cty.Value
}

// OpenEphemeralResourceResponse is an opened ephemeral resource.
type OpenEphemeralResourceResponse struct {
	// Result is the resource's value, of the schema's implied type.
	Result cty.Value
	// Private is opaque data the provider wants back in Renew and Close.
	Private []byte
	// RenewAt, when not zero, is when the core must call
	// RenewEphemeralResource if the resource is still in use.
	RenewAt time.Time
	// Deferred is set when the provider could not open the resource yet
	// (its configuration or its provider's is not known); Result is then
	// unknown.
	Deferred    bool
	Diagnostics hcl.Diagnostics
}

// RenewEphemeralResourceRequest asks to renew an open ephemeral resource.
type RenewEphemeralResourceRequest struct {
	TypeName string
	Private  []byte
}

// RenewEphemeralResourceResponse carries the next renewal time.
type RenewEphemeralResourceResponse struct {
	// RenewAt, when not zero, is when to renew again.
	RenewAt     time.Time
	Private     []byte
	Diagnostics hcl.Diagnostics
}

// CloseEphemeralResourceRequest asks to close an open ephemeral resource.
type CloseEphemeralResourceRequest struct {
	TypeName string
	Private  []byte
}

// CloseEphemeralResourceResponse reports problems closing.
type CloseEphemeralResourceResponse struct {
	Diagnostics hcl.Diagnostics
}

// MoveResourceStateRequest carries a stored object of the source type.
type MoveResourceStateRequest struct {
	// SourceProviderAddress is the source object's provider, as written
	// in the state file (e.g. "registry.terraform.io/hashicorp/null").
	SourceProviderAddress string
	SourceTypeName        string
	SourceSchemaVersion   int64
	// SourceStateJSON is the source object's "attributes" from the state.
	SourceStateJSON []byte
	SourcePrivate   []byte
	TargetTypeName  string
}

// MoveResourceStateResponse is the object as the target type.
type MoveResourceStateResponse struct {
	TargetState   cty.Value
	TargetPrivate []byte
	Diagnostics   hcl.Diagnostics
}

// FunctionDecl declares a provider-defined function's signature.
type FunctionDecl struct {
	Parameters []FunctionParam
	// VariadicParameter, if not nil, takes any number of trailing
	// arguments.
	VariadicParameter  *FunctionParam
	ReturnType         cty.Type
	Summary            string
	Description        string
	DeprecationMessage string
}

// FunctionParam is one parameter of a provider-defined function.
type FunctionParam struct {
	Name string
	// Type is the parameter type; cty.DynamicPseudoType accepts any.
	Type               cty.Type
	AllowNullValue     bool
	AllowUnknownValues bool
	Description        string
}

// GetFunctionsResponse lists the provider-defined functions by name.
type GetFunctionsResponse struct {
	Functions   map[string]FunctionDecl
	Diagnostics hcl.Diagnostics
}

// CallFunctionRequest calls one provider-defined function.
type CallFunctionRequest struct {
	FunctionName string
	Arguments    []cty.Value
}

// CallFunctionResponse is the result of a call; Err is a *FunctionError
// when the function refused its arguments.
type CallFunctionResponse struct {
	Result cty.Value
	Err    error
}

// FunctionError is an error a provider-defined function returned.
type FunctionError struct {
	Text string
	// Argument is the 0-based index of the argument at fault, or nil.
	Argument *int
}

func (e *FunctionError) Error() string { return e.Text }
