package plugin

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/tfdiags"
)

// This file is the protocol-neutral half of the translation between
// providers.Interface and the plugin protocol: schema lookup, value
// encoding and decoding, error handling and the assembly of responses.
// grpc_provider5.go and grpc_provider6.go each implement protocol, the
// other half, which only copies fields between these plain values and
// the generated messages of one protocol version.

// protocol is one protocol version's RPCs in protocol-neutral values.
// Values go out as msgpack (encodeValue) and come back as wireValues;
// diagnostics come back translated. An error is the RPC's own failure
// (transport, crash, unimplemented), for process.callError.
type protocol interface {
	getProviderSchema(provider string) (providers.GetProviderSchemaResponse, error)
	validateProviderConfig(config []byte) (hcl.Diagnostics, error)
	validateResourceConfig(r request) (hcl.Diagnostics, error)
	validateDataResourceConfig(r request) (hcl.Diagnostics, error)
	upgradeResourceState(r providers.UpgradeResourceStateRequest) (response, error)
	configureProvider(terraformVersion string, config []byte) (hcl.Diagnostics, error)
	// stopProvider returns the provider's error text, if any.
	stopProvider(ctx context.Context) (string, error)
	readResource(r request) (response, error)
	planResourceChange(r request) (response, error)
	applyResourceChange(r request) (response, error)
	importResourceState(typeName, id string) (response, error)
	moveResourceState(r providers.MoveResourceStateRequest) (response, error)
	readDataSource(r request) (response, error)
	validateEphemeralResourceConfig(r request) (hcl.Diagnostics, error)
	openEphemeralResource(r request) (response, error)
	renewEphemeralResource(r request) (response, error)
	closeEphemeralResource(r request) (hcl.Diagnostics, error)
	// getFunctions returns the functions as the provider declared them;
	// functionDecls translates them.
	getFunctions(provider string) (providers.GetFunctionsResponse, error)
	callFunction(name string, args [][]byte) (response, error)
}

// request is what the resource and data source RPCs send, each the fields
// its message has; values are msgpack.
type request struct {
	typeName                               string
	prior, proposed, planned, config, meta []byte
	private                                []byte // PriorPrivate, PlannedPrivate or Private
}

// response is what the RPCs return, each the fields its message has.
type response struct {
	diags hcl.Diagnostics
	// value is the new, planned, upgraded, moved or read state, or a
	// function's result.
	value            wireValue
	private          []byte
	legacyTypeSystem bool
	requiresReplace  []cty.Path
	imported         []importedObject
	funcErr          *providers.FunctionError
	// renewAt and deferred are OpenEphemeralResource's and
	// RenewEphemeralResource's.
	renewAt  time.Time
	deferred bool
}

// importedObject is one object ImportResourceState returned.
type importedObject struct {
	typeName string
	state    wireValue
	private  []byte
}

// wireValue is a DynamicValue of either protocol: msgpack, or JSON from
// older providers; both empty for an absent value (null).
type wireValue struct{ msgpack, json []byte }

// provider is a provider process speaking the protocol W translates.
// It is generic rather than holding a protocol interface value so that
// each protocol's calls are direct; provider5 and provider6 name the two.
type provider[W protocol] struct {
	proc    *process
	wire    W
	schemas schemas

	fnOnce sync.Once
	fns    providers.GetFunctionsResponse
}

func newProvider[W protocol](w W, p *process) *provider[W] {
	p.stop = func(ctx context.Context) error {
		_, err := w.stopProvider(ctx)
		return err
	}
	return &provider[W]{proc: p, wire: w}
}

func (p *provider[W]) fetchSchema() providers.GetProviderSchemaResponse {
	resp, err := p.wire.getProviderSchema(p.proc.meta.Provider.String())
	if err != nil {
		return providers.GetProviderSchemaResponse{Diagnostics: p.proc.callError("GetProviderSchema", err)}
	}
	return resp
}

// schemaMessages is a GetProviderSchema response of either protocol: S is
// its Schema message, F its Function message.
type schemaMessages[S, F any] struct {
	diags                  hcl.Diagnostics
	provider, providerMeta S
	resources, dataSources map[string]S
	ephemeral              map[string]S
	functions              map[string]F
	capabilities           providers.ServerCapabilities
}

// schemaResponse translates a schema response with the protocol's schema
// and function translations; provider names the provider in diagnostics.
func schemaResponse[S, F any](m schemaMessages[S, F], provider string, schema func(S) (providers.Schema, error), function func(F) (providers.FunctionDecl, error)) providers.GetProviderSchemaResponse {
	var err error
	out := providers.GetProviderSchemaResponse{
		ResourceTypes: make(map[string]providers.Schema, len(m.resources)),
		DataSources:   make(map[string]providers.Schema, len(m.dataSources)),
		Diagnostics:   m.diags,
	}
	bad := func(what string, err error) providers.GetProviderSchemaResponse {
		out.Diagnostics = append(out.Diagnostics, tfdiags.Errorf("Invalid provider schema",
			"The provider %s returned an invalid schema for %s: %v", provider, what, err))
		return out
	}
	if out.Provider, err = schema(m.provider); err != nil {
		return bad("the provider configuration", err)
	}
	if out.ProviderMeta, err = schema(m.providerMeta); err != nil {
		return bad("provider_meta", err)
	}
	for name, s := range m.resources {
		if out.ResourceTypes[name], err = schema(s); err != nil {
			return bad("resource type "+name, err)
		}
	}
	for name, s := range m.dataSources {
		if out.DataSources[name], err = schema(s); err != nil {
			return bad("data source "+name, err)
		}
	}
	if len(m.ephemeral) > 0 {
		out.EphemeralResourceTypes = make(map[string]providers.Schema, len(m.ephemeral))
		for name, s := range m.ephemeral {
			if out.EphemeralResourceTypes[name], err = schema(s); err != nil {
				return bad("ephemeral resource type "+name, err)
			}
		}
	}
	if len(m.functions) > 0 {
		out.Functions = make(map[string]providers.FunctionDecl, len(m.functions))
		for name, f := range m.functions {
			if out.Functions[name], err = function(f); err != nil {
				return bad("function "+name, err)
			}
		}
	}
	out.ServerCapabilities = m.capabilities
	return out
}

// functionDecls translates a GetFunctions response: a function with an
// invalid type is left out, with an error naming it.
func functionDecls[F any](fns map[string]F, diags hcl.Diagnostics, provider string, function func(F) (providers.FunctionDecl, error)) providers.GetFunctionsResponse {
	out := providers.GetFunctionsResponse{Diagnostics: diags, Functions: make(map[string]providers.FunctionDecl, len(fns))}
	for name, f := range fns {
		decl, err := function(f)
		if err != nil {
			out.Diagnostics = append(out.Diagnostics, tfdiags.Errorf("Invalid provider function",
				"The provider %s declared function %q with an invalid type: %v", provider, name, err))
			continue
		}
		out.Functions[name] = decl
	}
	return out
}

// GetProviderSchema returns the provider's schemas, fetched once.
func (p *provider[W]) GetProviderSchema() providers.GetProviderSchemaResponse {
	return *p.schemas.get(p.proc, p.fetchSchema)
}

func (p *provider[W]) dyn(v cty.Value, ty cty.Type, what string) ([]byte, hcl.Diagnostics) {
	b, err := encodeValue(v, ty)
	if err != nil {
		return nil, valueError(p.proc, what, err)
	}
	return b, nil
}

func (p *provider[W]) val(wv wireValue, ty cty.Type, what string) (cty.Value, hcl.Diagnostics) {
	if wv.msgpack == nil && wv.json == nil {
		return cty.NullVal(ty), nil
	}
	v, err := decodeValue(wv.msgpack, wv.json, ty)
	if err != nil {
		return cty.NilVal, valueError(p.proc, what, err)
	}
	return v, nil
}

// meta encodes the provider_meta value (null when unset).
func (p *provider[W]) meta(v cty.Value) ([]byte, hcl.Diagnostics) {
	ty, diags := p.schemas.typeOf(p.proc, p.fetchSchema, "meta")
	if diags.HasErrors() {
		return nil, diags
	}
	return p.dyn(v, ty, "provider_meta")
}

// ValidateProviderConfig checks the provider configuration.
func (p *provider[W]) ValidateProviderConfig(req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	ty, diags := p.schemas.typeOf(p.proc, p.fetchSchema, "provider")
	if diags.HasErrors() {
		return providers.ValidateProviderConfigResponse{Diagnostics: diags}
	}
	cfg, diags := p.dyn(req.Config, ty, "the provider configuration")
	if diags.HasErrors() {
		return providers.ValidateProviderConfigResponse{Diagnostics: diags}
	}
	diags, err := p.wire.validateProviderConfig(cfg)
	if err != nil {
		return providers.ValidateProviderConfigResponse{Diagnostics: p.proc.callError("ValidateProviderConfig", err)}
	}
	return providers.ValidateProviderConfigResponse{Diagnostics: diags}
}

// validateConfig checks a resource, data source or ephemeral resource
// configuration: it encodes config with the type typeOf gives and sends it
// with send, the RPC named call.
func (p *provider[W]) validateConfig(call string,
	typeOf func(*process, func() providers.GetProviderSchemaResponse, string) (cty.Type, hcl.Diagnostics),
	send func(request) (hcl.Diagnostics, error), typeName string, config cty.Value) hcl.Diagnostics {
	ty, diags := typeOf(p.proc, p.fetchSchema, typeName)
	if diags.HasErrors() {
		return diags
	}
	cfg, diags := p.dyn(config, ty, typeName+" configuration")
	if diags.HasErrors() {
		return diags
	}
	diags, err := send(request{typeName: typeName, config: cfg})
	if err != nil {
		return p.proc.callError(call, err)
	}
	return diags
}

// ValidateResourceConfig checks a resource configuration.
func (p *provider[W]) ValidateResourceConfig(req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	return providers.ValidateResourceConfigResponse{Diagnostics: p.validateConfig("ValidateResourceConfig", p.schemas.resourceType, p.wire.validateResourceConfig, req.TypeName, req.Config)}
}

// ValidateDataResourceConfig checks a data source configuration.
func (p *provider[W]) ValidateDataResourceConfig(req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	return providers.ValidateDataResourceConfigResponse{Diagnostics: p.validateConfig("ValidateDataResourceConfig", p.schemas.dataType, p.wire.validateDataResourceConfig, req.TypeName, req.Config)}
}

// UpgradeResourceState sends the stored JSON (or flatmap) to the provider,
// which migrates it to its current schema.
func (p *provider[W]) UpgradeResourceState(req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	ty, diags := p.schemas.resourceType(p.proc, p.fetchSchema, req.TypeName)
	if diags.HasErrors() {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags}
	}
	resp, err := p.wire.upgradeResourceState(req)
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: p.proc.callError("UpgradeResourceState", err)}
	}
	if resp.diags.HasErrors() {
		return providers.UpgradeResourceStateResponse{Diagnostics: resp.diags}
	}
	v, vd := p.val(resp.value, ty, "the upgraded "+req.TypeName+" state")
	return providers.UpgradeResourceStateResponse{UpgradedState: v, Diagnostics: append(resp.diags, vd...)}
}

// ConfigureProvider configures the provider; the configuration may hold
// unknown values.
func (p *provider[W]) ConfigureProvider(req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	ty, diags := p.schemas.typeOf(p.proc, p.fetchSchema, "provider")
	if diags.HasErrors() {
		return providers.ConfigureProviderResponse{Diagnostics: diags}
	}
	cfg, diags := p.dyn(req.Config, ty, "the provider configuration")
	if diags.HasErrors() {
		return providers.ConfigureProviderResponse{Diagnostics: diags}
	}
	diags, err := p.wire.configureProvider(req.TerraformVersion, cfg)
	if err != nil {
		return providers.ConfigureProviderResponse{Diagnostics: p.proc.callError("ConfigureProvider", err)}
	}
	return providers.ConfigureProviderResponse{Diagnostics: diags}
}

// Stop asks the provider to abort in-flight operations.
func (p *provider[W]) Stop() error {
	msg, err := p.wire.stopProvider(bg)
	if err != nil {
		return err
	}
	if msg != "" {
		return errors.New(msg)
	}
	return nil
}

// ReadResource refreshes an object.
func (p *provider[W]) ReadResource(req providers.ReadResourceRequest) providers.ReadResourceResponse {
	ty, diags := p.schemas.resourceType(p.proc, p.fetchSchema, req.TypeName)
	if diags.HasErrors() {
		return providers.ReadResourceResponse{NewState: req.PriorState, Diagnostics: diags}
	}
	prior, diags := p.dyn(req.PriorState, ty, "the prior "+req.TypeName+" state")
	meta, md := p.meta(req.ProviderMeta)
	if diags = append(diags, md...); diags.HasErrors() {
		return providers.ReadResourceResponse{NewState: req.PriorState, Diagnostics: diags}
	}
	resp, err := p.wire.readResource(request{typeName: req.TypeName, prior: prior, private: req.Private, meta: meta})
	if err != nil {
		return providers.ReadResourceResponse{NewState: req.PriorState, Diagnostics: p.proc.callError("ReadResource", err)}
	}
	diags = resp.diags
	v, vd := p.val(resp.value, ty, "the refreshed "+req.TypeName+" state")
	if diags = append(diags, vd...); vd.HasErrors() {
		return providers.ReadResourceResponse{NewState: req.PriorState, Diagnostics: diags}
	}
	return providers.ReadResourceResponse{NewState: v, Private: resp.private, Diagnostics: diags}
}

// PlanResourceChange plans a change.
func (p *provider[W]) PlanResourceChange(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	ty, diags := p.schemas.resourceType(p.proc, p.fetchSchema, req.TypeName)
	if diags.HasErrors() {
		return providers.PlanResourceChangeResponse{Diagnostics: diags}
	}
	what := req.TypeName + " "
	prior, d1 := p.dyn(req.PriorState, ty, what+"prior state")
	proposed, d2 := p.dyn(req.ProposedNewState, ty, what+"proposed new state")
	cfg, d3 := p.dyn(req.Config, ty, what+"configuration")
	meta, d4 := p.meta(req.ProviderMeta)
	if diags = concat(d1, d2, d3, d4); diags.HasErrors() {
		return providers.PlanResourceChangeResponse{Diagnostics: diags}
	}
	resp, err := p.wire.planResourceChange(request{typeName: req.TypeName, prior: prior, proposed: proposed, config: cfg,
		private: req.PriorPrivate, meta: meta})
	if err != nil {
		return providers.PlanResourceChangeResponse{Diagnostics: p.proc.callError("PlanResourceChange", err)}
	}
	diags = resp.diags
	planned, vd := p.val(resp.value, ty, what+"planned state")
	if diags = append(diags, vd...); diags.HasErrors() {
		return providers.PlanResourceChangeResponse{Diagnostics: diags}
	}
	return providers.PlanResourceChangeResponse{
		PlannedState:     planned,
		PlannedPrivate:   resp.private,
		Diagnostics:      diags,
		LegacyTypeSystem: resp.legacyTypeSystem,
		RequiresReplace:  resp.requiresReplace,
	}
}

// ApplyResourceChange applies a planned change.
func (p *provider[W]) ApplyResourceChange(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	ty, diags := p.schemas.resourceType(p.proc, p.fetchSchema, req.TypeName)
	if diags.HasErrors() {
		return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Diagnostics: diags}
	}
	what := req.TypeName + " "
	prior, d1 := p.dyn(req.PriorState, ty, what+"prior state")
	planned, d2 := p.dyn(req.PlannedState, ty, what+"planned state")
	cfg, d3 := p.dyn(req.Config, ty, what+"configuration")
	meta, d4 := p.meta(req.ProviderMeta)
	if diags = concat(d1, d2, d3, d4); diags.HasErrors() {
		return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Diagnostics: diags}
	}
	resp, err := p.wire.applyResourceChange(request{typeName: req.TypeName, prior: prior, planned: planned, config: cfg,
		private: req.PlannedPrivate, meta: meta})
	if err != nil {
		return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Diagnostics: p.proc.callError("ApplyResourceChange", err)}
	}
	diags = resp.diags
	v, vd := p.val(resp.value, ty, what+"new state")
	if diags = append(diags, vd...); vd.HasErrors() {
		return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Diagnostics: diags}
	}
	return providers.ApplyResourceChangeResponse{
		NewState: v, Private: resp.private, Diagnostics: diags, LegacyTypeSystem: resp.legacyTypeSystem,
	}
}

// ImportResourceState imports objects by ID.
func (p *provider[W]) ImportResourceState(req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	if _, diags := p.schemas.resourceType(p.proc, p.fetchSchema, req.TypeName); diags.HasErrors() {
		return providers.ImportResourceStateResponse{Diagnostics: diags}
	}
	resp, err := p.wire.importResourceState(req.TypeName, req.ID)
	if err != nil {
		return providers.ImportResourceStateResponse{Diagnostics: p.proc.callError("ImportResourceState", err)}
	}
	out := providers.ImportResourceStateResponse{Diagnostics: resp.diags}
	for _, ir := range resp.imported {
		ty, diags := p.schemas.resourceType(p.proc, p.fetchSchema, ir.typeName)
		if diags.HasErrors() {
			out.Diagnostics = append(out.Diagnostics, diags...)
			continue
		}
		v, diags := p.val(ir.state, ty, "the imported "+ir.typeName+" state")
		if diags.HasErrors() {
			out.Diagnostics = append(out.Diagnostics, diags...)
			continue
		}
		out.ImportedResources = append(out.ImportedResources, providers.ImportedResource{TypeName: ir.typeName, State: v, Private: ir.private})
	}
	return out
}

// MoveResourceState converts an object of another resource type.
func (p *provider[W]) MoveResourceState(req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	ty, diags := p.schemas.resourceType(p.proc, p.fetchSchema, req.TargetTypeName)
	if diags.HasErrors() {
		return providers.MoveResourceStateResponse{Diagnostics: diags}
	}
	resp, err := p.wire.moveResourceState(req)
	if err != nil {
		return providers.MoveResourceStateResponse{Diagnostics: p.proc.callError("MoveResourceState", err)}
	}
	if resp.diags.HasErrors() {
		return providers.MoveResourceStateResponse{Diagnostics: resp.diags}
	}
	v, vd := p.val(resp.value, ty, "the moved "+req.TargetTypeName+" state")
	return providers.MoveResourceStateResponse{TargetState: v, TargetPrivate: resp.private, Diagnostics: append(resp.diags, vd...)}
}

// ReadDataSource reads a data source.
func (p *provider[W]) ReadDataSource(req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	ty, diags := p.schemas.dataType(p.proc, p.fetchSchema, req.TypeName)
	if diags.HasErrors() {
		return providers.ReadDataSourceResponse{Diagnostics: diags}
	}
	cfg, d1 := p.dyn(req.Config, ty, req.TypeName+" configuration")
	meta, d2 := p.meta(req.ProviderMeta)
	if diags = concat(d1, d2); diags.HasErrors() {
		return providers.ReadDataSourceResponse{Diagnostics: diags}
	}
	resp, err := p.wire.readDataSource(request{typeName: req.TypeName, config: cfg, meta: meta})
	if err != nil {
		return providers.ReadDataSourceResponse{Diagnostics: p.proc.callError("ReadDataSource", err)}
	}
	if resp.diags.HasErrors() {
		return providers.ReadDataSourceResponse{Diagnostics: resp.diags}
	}
	v, vd := p.val(resp.value, ty, "the "+req.TypeName+" data")
	return providers.ReadDataSourceResponse{State: v, Diagnostics: append(resp.diags, vd...)}
}

// ValidateEphemeralResourceConfig checks an ephemeral resource
// configuration.
func (p *provider[W]) ValidateEphemeralResourceConfig(req providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	return providers.ValidateEphemeralResourceConfigResponse{Diagnostics: p.validateConfig("ValidateEphemeralResourceConfig", p.schemas.ephemeralType, p.wire.validateEphemeralResourceConfig, req.TypeName, req.Config)}
}

// OpenEphemeralResource opens an ephemeral resource.
func (p *provider[W]) OpenEphemeralResource(req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	ty, diags := p.schemas.ephemeralType(p.proc, p.fetchSchema, req.TypeName)
	if diags.HasErrors() {
		return providers.OpenEphemeralResourceResponse{Diagnostics: diags}
	}
	cfg, diags := p.dyn(req.Config, ty, req.TypeName+" configuration")
	if diags.HasErrors() {
		return providers.OpenEphemeralResourceResponse{Diagnostics: diags}
	}
	resp, err := p.wire.openEphemeralResource(request{typeName: req.TypeName, config: cfg})
	if err != nil {
		return providers.OpenEphemeralResourceResponse{Diagnostics: p.proc.callError("OpenEphemeralResource", err)}
	}
	out := providers.OpenEphemeralResourceResponse{Private: resp.private, RenewAt: resp.renewAt, Deferred: resp.deferred, Diagnostics: resp.diags}
	if resp.diags.HasErrors() {
		return out
	}
	if resp.deferred {
		out.Result = cty.UnknownVal(ty)
		return out
	}
	v, vd := p.val(resp.value, ty, "the "+req.TypeName+" ephemeral result")
	out.Result, out.Diagnostics = v, append(out.Diagnostics, vd...)
	return out
}

// RenewEphemeralResource renews an open ephemeral resource.
func (p *provider[W]) RenewEphemeralResource(req providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	resp, err := p.wire.renewEphemeralResource(request{typeName: req.TypeName, private: req.Private})
	if err != nil {
		return providers.RenewEphemeralResourceResponse{Diagnostics: p.proc.callError("RenewEphemeralResource", err)}
	}
	return providers.RenewEphemeralResourceResponse{RenewAt: resp.renewAt, Private: resp.private, Diagnostics: resp.diags}
}

// CloseEphemeralResource closes an open ephemeral resource.
func (p *provider[W]) CloseEphemeralResource(req providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	diags, err := p.wire.closeEphemeralResource(request{typeName: req.TypeName, private: req.Private})
	if err != nil {
		return providers.CloseEphemeralResourceResponse{Diagnostics: p.proc.callError("CloseEphemeralResource", err)}
	}
	return providers.CloseEphemeralResourceResponse{Diagnostics: diags}
}

// GetFunctions returns the provider-defined functions: those of the schema
// response, else (older providers) of the GetFunctions call.
func (p *provider[W]) GetFunctions() providers.GetFunctionsResponse {
	p.fnOnce.Do(func() {
		s := p.schemas.get(p.proc, p.fetchSchema)
		if s.Diagnostics.HasErrors() || len(s.Functions) > 0 {
			p.fns = providers.GetFunctionsResponse{Functions: s.Functions, Diagnostics: s.Diagnostics}
			return
		}
		fns, err := p.wire.getFunctions(p.proc.meta.Provider.String())
		if err != nil {
			if p.proc.client.Exited() {
				p.fns.Diagnostics = p.proc.callError("GetFunctions", err)
			}
			// Unimplemented: a provider that predates functions has none.
			return
		}
		p.fns = fns
	})
	return p.fns
}

// CallFunction calls a provider-defined function.
func (p *provider[W]) CallFunction(req providers.CallFunctionRequest) providers.CallFunctionResponse {
	fail := func(err error) providers.CallFunctionResponse {
		return providers.CallFunctionResponse{Result: cty.DynamicVal, Err: err}
	}
	decl, tys, err := p.proc.function(p.GetFunctions(), req.FunctionName, len(req.Arguments))
	if err != nil {
		return fail(err)
	}
	args := make([][]byte, len(req.Arguments))
	for i, a := range req.Arguments {
		b, diags := p.dyn(a, tys[i], fmt.Sprintf("argument %d of %s", i+1, req.FunctionName))
		if diags.HasErrors() {
			return fail(diags)
		}
		args[i] = b
	}
	resp, err := p.wire.callFunction(req.FunctionName, args)
	if err != nil {
		return fail(p.proc.callError("CallFunction", err))
	}
	if resp.funcErr != nil {
		return fail(resp.funcErr)
	}
	v, diags := p.val(resp.value, decl.ReturnType, "the result of "+req.FunctionName)
	if diags.HasErrors() {
		return fail(diags)
	}
	return providers.CallFunctionResponse{Result: v}
}

// Close stops the provider process.
func (p *provider[W]) Close() error {
	p.proc.close()
	return nil
}
