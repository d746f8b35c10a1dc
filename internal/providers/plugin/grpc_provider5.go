package plugin

import (
	"context"
	"errors"
	"fmt"
	"sync"

	goplugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc"

	"github.com/plankit/plankit/internal/providers/plugin/internal/tfplugin5"
	"github.com/plankit/plankit/internal/safecty"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

// This file is the only translation between providers.Interface and
// plugin protocol 5 (package tfplugin5). Protocol 5 has no nested
// attributes, and names some RPCs differently (GetSchema,
// PrepareProviderConfig, ValidateResourceTypeConfig,
// ValidateDataSourceConfig, Configure, Stop).

// grpcPlugin5 is the go-plugin client side of protocol 5.
type grpcPlugin5 struct {
	goplugin.NetRPCUnsupportedPlugin
}

func (grpcPlugin5) GRPCServer(*goplugin.GRPCBroker, *grpc.Server) error {
	return errors.New("plankit is a plugin client only")
}

func (grpcPlugin5) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return tfplugin5.NewProviderClient(c), nil
}

// provider5 is a provider process speaking protocol 5.
type provider5 struct {
	proc    *process
	client  tfplugin5.ProviderClient
	schemas schemas

	fnOnce sync.Once
	fns    providers.GetFunctionsResponse
}

var _ providers.Interface = (*provider5)(nil)

func newProvider5(raw any, p *process) providers.Interface {
	c := raw.(tfplugin5.ProviderClient)
	p.stop = func(ctx context.Context) error {
		_, err := c.Stop(ctx, &tfplugin5.Stop_Request{})
		return err
	}
	return &provider5{proc: p, client: c}
}

func (p *provider5) fetchSchema() providers.GetProviderSchemaResponse {
	resp, err := p.client.GetSchema(bg, &tfplugin5.GetProviderSchema_Request{})
	if err != nil {
		return providers.GetProviderSchemaResponse{Diagnostics: p.proc.callError("GetProviderSchema", err)}
	}
	return schemaResponse5(resp, p.proc.meta.Provider.String())
}

// schemaResponse5 translates a schema response; provider names the
// provider in diagnostics.
func schemaResponse5(resp *tfplugin5.GetProviderSchema_Response, provider string) providers.GetProviderSchemaResponse {
	var err error
	out := providers.GetProviderSchemaResponse{
		ResourceTypes: make(map[string]providers.Schema, len(resp.ResourceSchemas)),
		DataSources:   make(map[string]providers.Schema, len(resp.DataSourceSchemas)),
		Diagnostics:   diags5(resp.Diagnostics),
	}
	bad := func(what string, err error) providers.GetProviderSchemaResponse {
		out.Diagnostics = append(out.Diagnostics, tfdiags.Errorf("Invalid provider schema",
			"The provider %s returned an invalid schema for %s: %v", provider, what, err))
		return out
	}
	if out.Provider, err = schema5(resp.Provider); err != nil {
		return bad("the provider configuration", err)
	}
	if out.ProviderMeta, err = schema5(resp.ProviderMeta); err != nil {
		return bad("provider_meta", err)
	}
	for name, s := range resp.ResourceSchemas {
		if out.ResourceTypes[name], err = schema5(s); err != nil {
			return bad("resource type "+name, err)
		}
	}
	for name, s := range resp.DataSourceSchemas {
		if out.DataSources[name], err = schema5(s); err != nil {
			return bad("data source "+name, err)
		}
	}
	if len(resp.Functions) > 0 {
		out.Functions = make(map[string]providers.FunctionDecl, len(resp.Functions))
		for name, f := range resp.Functions {
			if out.Functions[name], err = function5(f); err != nil {
				return bad("function "+name, err)
			}
		}
	}
	if c := resp.ServerCapabilities; c != nil {
		out.ServerCapabilities = providers.ServerCapabilities{
			PlanDestroy:               c.PlanDestroy,
			GetProviderSchemaOptional: c.GetProviderSchemaOptional,
			MoveResourceState:         c.MoveResourceState,
		}
	}
	return out
}

// GetProviderSchema returns the provider's schemas, fetched once.
func (p *provider5) GetProviderSchema() providers.GetProviderSchemaResponse {
	return *p.schemas.get(p.proc, p.fetchSchema)
}

func (p *provider5) dyn(v cty.Value, ty cty.Type, what string) (*tfplugin5.DynamicValue, hcl.Diagnostics) {
	b, err := encodeValue(v, ty)
	if err != nil {
		return nil, valueError(p.proc, what, err)
	}
	return &tfplugin5.DynamicValue{Msgpack: b}, nil
}

func (p *provider5) val(dv *tfplugin5.DynamicValue, ty cty.Type, what string) (cty.Value, hcl.Diagnostics) {
	if dv == nil {
		return cty.NullVal(ty), nil
	}
	v, err := decodeValue(dv.Msgpack, dv.Json, ty)
	if err != nil {
		return cty.NilVal, valueError(p.proc, what, err)
	}
	return v, nil
}

// meta encodes the provider_meta value (null when unset).
func (p *provider5) meta(v cty.Value) (*tfplugin5.DynamicValue, hcl.Diagnostics) {
	ty, diags := p.schemas.typeOf(p.proc, p.fetchSchema, "meta")
	if diags.HasErrors() {
		return nil, diags
	}
	return p.dyn(v, ty, "provider_meta")
}

var clientCaps5 = &tfplugin5.ClientCapabilities{WriteOnlyAttributesAllowed: true}

// ValidateProviderConfig checks the provider configuration.
func (p *provider5) ValidateProviderConfig(req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	ty, diags := p.schemas.typeOf(p.proc, p.fetchSchema, "provider")
	if diags.HasErrors() {
		return providers.ValidateProviderConfigResponse{Diagnostics: diags}
	}
	cfg, diags := p.dyn(req.Config, ty, "the provider configuration")
	if diags.HasErrors() {
		return providers.ValidateProviderConfigResponse{Diagnostics: diags}
	}
	resp, err := p.client.PrepareProviderConfig(bg, &tfplugin5.PrepareProviderConfig_Request{Config: cfg})
	if err != nil {
		return providers.ValidateProviderConfigResponse{Diagnostics: p.proc.callError("ValidateProviderConfig", err)}
	}
	return providers.ValidateProviderConfigResponse{Diagnostics: diags5(resp.Diagnostics)}
}

// ValidateResourceConfig checks a resource configuration.
func (p *provider5) ValidateResourceConfig(req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	ty, diags := p.schemas.resourceType(p.proc, p.fetchSchema, req.TypeName)
	if diags.HasErrors() {
		return providers.ValidateResourceConfigResponse{Diagnostics: diags}
	}
	cfg, diags := p.dyn(req.Config, ty, req.TypeName+" configuration")
	if diags.HasErrors() {
		return providers.ValidateResourceConfigResponse{Diagnostics: diags}
	}
	resp, err := p.client.ValidateResourceTypeConfig(bg, &tfplugin5.ValidateResourceTypeConfig_Request{
		TypeName: req.TypeName, Config: cfg, ClientCapabilities: clientCaps5,
	})
	if err != nil {
		return providers.ValidateResourceConfigResponse{Diagnostics: p.proc.callError("ValidateResourceConfig", err)}
	}
	return providers.ValidateResourceConfigResponse{Diagnostics: diags5(resp.Diagnostics)}
}

// ValidateDataResourceConfig checks a data source configuration.
func (p *provider5) ValidateDataResourceConfig(req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	ty, diags := p.schemas.dataType(p.proc, p.fetchSchema, req.TypeName)
	if diags.HasErrors() {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: diags}
	}
	cfg, diags := p.dyn(req.Config, ty, req.TypeName+" configuration")
	if diags.HasErrors() {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: diags}
	}
	resp, err := p.client.ValidateDataSourceConfig(bg, &tfplugin5.ValidateDataSourceConfig_Request{TypeName: req.TypeName, Config: cfg})
	if err != nil {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: p.proc.callError("ValidateDataResourceConfig", err)}
	}
	return providers.ValidateDataResourceConfigResponse{Diagnostics: diags5(resp.Diagnostics)}
}

// UpgradeResourceState sends the stored JSON (or flatmap) to the provider,
// which migrates it to its current schema.
func (p *provider5) UpgradeResourceState(req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	ty, diags := p.schemas.resourceType(p.proc, p.fetchSchema, req.TypeName)
	if diags.HasErrors() {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags}
	}
	raw := &tfplugin5.RawState{Json: req.RawStateJSON}
	if req.RawStateJSON == nil {
		raw.Flatmap = req.RawStateFlatmap
	}
	resp, err := p.client.UpgradeResourceState(bg, &tfplugin5.UpgradeResourceState_Request{
		TypeName: req.TypeName, Version: req.Version, RawState: raw,
	})
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: p.proc.callError("UpgradeResourceState", err)}
	}
	diags = diags5(resp.Diagnostics)
	if diags.HasErrors() {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags}
	}
	v, vd := p.val(resp.UpgradedState, ty, "the upgraded "+req.TypeName+" state")
	return providers.UpgradeResourceStateResponse{UpgradedState: v, Diagnostics: append(diags, vd...)}
}

// ConfigureProvider configures the provider; the configuration may hold
// unknown values.
func (p *provider5) ConfigureProvider(req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	ty, diags := p.schemas.typeOf(p.proc, p.fetchSchema, "provider")
	if diags.HasErrors() {
		return providers.ConfigureProviderResponse{Diagnostics: diags}
	}
	cfg, diags := p.dyn(req.Config, ty, "the provider configuration")
	if diags.HasErrors() {
		return providers.ConfigureProviderResponse{Diagnostics: diags}
	}
	resp, err := p.client.Configure(bg, &tfplugin5.Configure_Request{
		TerraformVersion: req.TerraformVersion, Config: cfg, ClientCapabilities: clientCaps5,
	})
	if err != nil {
		return providers.ConfigureProviderResponse{Diagnostics: p.proc.callError("ConfigureProvider", err)}
	}
	return providers.ConfigureProviderResponse{Diagnostics: diags5(resp.Diagnostics)}
}

// Stop asks the provider to abort in-flight operations.
func (p *provider5) Stop() error {
	resp, err := p.client.Stop(bg, &tfplugin5.Stop_Request{})
	if err != nil {
		return err
	}
	if resp.Error != "" {
		return errors.New(resp.Error)
	}
	return nil
}

// ReadResource refreshes an object.
func (p *provider5) ReadResource(req providers.ReadResourceRequest) providers.ReadResourceResponse {
	ty, diags := p.schemas.resourceType(p.proc, p.fetchSchema, req.TypeName)
	if diags.HasErrors() {
		return providers.ReadResourceResponse{NewState: req.PriorState, Diagnostics: diags}
	}
	prior, diags := p.dyn(req.PriorState, ty, "the prior "+req.TypeName+" state")
	meta, md := p.meta(req.ProviderMeta)
	if diags = append(diags, md...); diags.HasErrors() {
		return providers.ReadResourceResponse{NewState: req.PriorState, Diagnostics: diags}
	}
	resp, err := p.client.ReadResource(bg, &tfplugin5.ReadResource_Request{
		TypeName: req.TypeName, CurrentState: prior, Private: req.Private, ProviderMeta: meta, ClientCapabilities: clientCaps5,
	})
	if err != nil {
		return providers.ReadResourceResponse{NewState: req.PriorState, Diagnostics: p.proc.callError("ReadResource", err)}
	}
	diags = diags5(resp.Diagnostics)
	v, vd := p.val(resp.NewState, ty, "the refreshed "+req.TypeName+" state")
	if diags = append(diags, vd...); vd.HasErrors() {
		return providers.ReadResourceResponse{NewState: req.PriorState, Diagnostics: diags}
	}
	return providers.ReadResourceResponse{NewState: v, Private: resp.Private, Diagnostics: diags}
}

// PlanResourceChange plans a change.
func (p *provider5) PlanResourceChange(req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
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
	resp, err := p.client.PlanResourceChange(bg, &tfplugin5.PlanResourceChange_Request{
		TypeName: req.TypeName, PriorState: prior, ProposedNewState: proposed, Config: cfg,
		PriorPrivate: req.PriorPrivate, ProviderMeta: meta, ClientCapabilities: clientCaps5,
	})
	if err != nil {
		return providers.PlanResourceChangeResponse{Diagnostics: p.proc.callError("PlanResourceChange", err)}
	}
	diags = diags5(resp.Diagnostics)
	planned, vd := p.val(resp.PlannedState, ty, what+"planned state")
	if diags = append(diags, vd...); diags.HasErrors() {
		return providers.PlanResourceChangeResponse{Diagnostics: diags}
	}
	out := providers.PlanResourceChangeResponse{
		PlannedState:     planned,
		PlannedPrivate:   resp.PlannedPrivate,
		Diagnostics:      diags,
		LegacyTypeSystem: resp.LegacyTypeSystem,
	}
	for _, ap := range resp.RequiresReplace {
		out.RequiresReplace = append(out.RequiresReplace, path5(ap))
	}
	return out
}

// ApplyResourceChange applies a planned change.
func (p *provider5) ApplyResourceChange(req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
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
	resp, err := p.client.ApplyResourceChange(bg, &tfplugin5.ApplyResourceChange_Request{
		TypeName: req.TypeName, PriorState: prior, PlannedState: planned, Config: cfg,
		PlannedPrivate: req.PlannedPrivate, ProviderMeta: meta,
	})
	if err != nil {
		return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Diagnostics: p.proc.callError("ApplyResourceChange", err)}
	}
	diags = diags5(resp.Diagnostics)
	v, vd := p.val(resp.NewState, ty, what+"new state")
	if diags = append(diags, vd...); vd.HasErrors() {
		return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Diagnostics: diags}
	}
	return providers.ApplyResourceChangeResponse{
		NewState: v, Private: resp.Private, Diagnostics: diags, LegacyTypeSystem: resp.LegacyTypeSystem,
	}
}

// ImportResourceState imports objects by ID.
func (p *provider5) ImportResourceState(req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	if _, diags := p.schemas.resourceType(p.proc, p.fetchSchema, req.TypeName); diags.HasErrors() {
		return providers.ImportResourceStateResponse{Diagnostics: diags}
	}
	resp, err := p.client.ImportResourceState(bg, &tfplugin5.ImportResourceState_Request{
		TypeName: req.TypeName, Id: req.ID, ClientCapabilities: clientCaps5,
	})
	if err != nil {
		return providers.ImportResourceStateResponse{Diagnostics: p.proc.callError("ImportResourceState", err)}
	}
	out := providers.ImportResourceStateResponse{Diagnostics: diags5(resp.Diagnostics)}
	for _, ir := range resp.ImportedResources {
		ty, diags := p.schemas.resourceType(p.proc, p.fetchSchema, ir.TypeName)
		if diags.HasErrors() {
			out.Diagnostics = append(out.Diagnostics, diags...)
			continue
		}
		v, diags := p.val(ir.State, ty, "the imported "+ir.TypeName+" state")
		if diags.HasErrors() {
			out.Diagnostics = append(out.Diagnostics, diags...)
			continue
		}
		out.ImportedResources = append(out.ImportedResources, providers.ImportedResource{TypeName: ir.TypeName, State: v, Private: ir.Private})
	}
	return out
}

// MoveResourceState converts an object of another resource type.
func (p *provider5) MoveResourceState(req providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	ty, diags := p.schemas.resourceType(p.proc, p.fetchSchema, req.TargetTypeName)
	if diags.HasErrors() {
		return providers.MoveResourceStateResponse{Diagnostics: diags}
	}
	resp, err := p.client.MoveResourceState(bg, &tfplugin5.MoveResourceState_Request{
		SourceProviderAddress: req.SourceProviderAddress,
		SourceTypeName:        req.SourceTypeName,
		SourceSchemaVersion:   req.SourceSchemaVersion,
		SourceState:           &tfplugin5.RawState{Json: req.SourceStateJSON},
		TargetTypeName:        req.TargetTypeName,
		SourcePrivate:         req.SourcePrivate,
	})
	if err != nil {
		return providers.MoveResourceStateResponse{Diagnostics: p.proc.callError("MoveResourceState", err)}
	}
	diags = diags5(resp.Diagnostics)
	if diags.HasErrors() {
		return providers.MoveResourceStateResponse{Diagnostics: diags}
	}
	v, vd := p.val(resp.TargetState, ty, "the moved "+req.TargetTypeName+" state")
	return providers.MoveResourceStateResponse{TargetState: v, TargetPrivate: resp.TargetPrivate, Diagnostics: append(diags, vd...)}
}

// ReadDataSource reads a data source.
func (p *provider5) ReadDataSource(req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	ty, diags := p.schemas.dataType(p.proc, p.fetchSchema, req.TypeName)
	if diags.HasErrors() {
		return providers.ReadDataSourceResponse{Diagnostics: diags}
	}
	cfg, d1 := p.dyn(req.Config, ty, req.TypeName+" configuration")
	meta, d2 := p.meta(req.ProviderMeta)
	if diags = concat(d1, d2); diags.HasErrors() {
		return providers.ReadDataSourceResponse{Diagnostics: diags}
	}
	resp, err := p.client.ReadDataSource(bg, &tfplugin5.ReadDataSource_Request{
		TypeName: req.TypeName, Config: cfg, ProviderMeta: meta, ClientCapabilities: clientCaps5,
	})
	if err != nil {
		return providers.ReadDataSourceResponse{Diagnostics: p.proc.callError("ReadDataSource", err)}
	}
	diags = diags5(resp.Diagnostics)
	if diags.HasErrors() {
		return providers.ReadDataSourceResponse{Diagnostics: diags}
	}
	v, vd := p.val(resp.State, ty, "the "+req.TypeName+" data")
	return providers.ReadDataSourceResponse{State: v, Diagnostics: append(diags, vd...)}
}

// GetFunctions returns the provider-defined functions: those of the schema
// response, else (older providers) of the GetFunctions call.
func (p *provider5) GetFunctions() providers.GetFunctionsResponse {
	p.fnOnce.Do(func() {
		s := p.schemas.get(p.proc, p.fetchSchema)
		if s.Diagnostics.HasErrors() || len(s.Functions) > 0 {
			p.fns = providers.GetFunctionsResponse{Functions: s.Functions, Diagnostics: s.Diagnostics}
			return
		}
		resp, err := p.client.GetFunctions(bg, &tfplugin5.GetFunctions_Request{})
		if err != nil {
			if p.proc.client.Exited() {
				p.fns.Diagnostics = p.proc.callError("GetFunctions", err)
			}
			// Unimplemented: a provider that predates functions has none.
			return
		}
		p.fns.Diagnostics = diags5(resp.Diagnostics)
		p.fns.Functions = make(map[string]providers.FunctionDecl, len(resp.Functions))
		for name, f := range resp.Functions {
			decl, err := function5(f)
			if err != nil {
				p.fns.Diagnostics = append(p.fns.Diagnostics, tfdiags.Errorf("Invalid provider function",
					"The provider %s declared function %q with an invalid type: %v", p.proc.meta.Provider, name, err))
				continue
			}
			p.fns.Functions[name] = decl
		}
	})
	return p.fns
}

// CallFunction calls a provider-defined function.
func (p *provider5) CallFunction(req providers.CallFunctionRequest) providers.CallFunctionResponse {
	fail := func(err error) providers.CallFunctionResponse {
		return providers.CallFunctionResponse{Result: cty.DynamicVal, Err: err}
	}
	decl, tys, err := p.proc.function(p.GetFunctions(), req.FunctionName, len(req.Arguments))
	if err != nil {
		return fail(err)
	}
	args := make([]*tfplugin5.DynamicValue, len(req.Arguments))
	for i, a := range req.Arguments {
		dv, diags := p.dyn(a, tys[i], fmt.Sprintf("argument %d of %s", i+1, req.FunctionName))
		if diags.HasErrors() {
			return fail(diags)
		}
		args[i] = dv
	}
	resp, err := p.client.CallFunction(bg, &tfplugin5.CallFunction_Request{Name: req.FunctionName, Arguments: args})
	if err != nil {
		return fail(p.proc.callError("CallFunction", err))
	}
	if fe := resp.Error; fe != nil {
		return fail(functionError(fe.Text, fe.FunctionArgument))
	}
	v, diags := p.val(resp.Result, decl.ReturnType, "the result of "+req.FunctionName)
	if diags.HasErrors() {
		return fail(diags)
	}
	return providers.CallFunctionResponse{Result: v}
}

// Close stops the provider process.
func (p *provider5) Close() error {
	p.proc.close()
	return nil
}

func diags5(ds []*tfplugin5.Diagnostic) hcl.Diagnostics {
	if len(ds) == 0 {
		return nil
	}
	out := make(hcl.Diagnostics, 0, len(ds))
	for _, d := range ds {
		hd := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: d.Summary, Detail: d.Detail}
		if d.Severity == tfplugin5.Diagnostic_WARNING {
			hd.Severity = hcl.DiagWarning
		}
		if d.Attribute != nil && len(d.Attribute.Steps) > 0 {
			tfdiags.WithPath(hd, path5(d.Attribute))
		}
		out = append(out, hd)
	}
	return out
}

func path5(ap *tfplugin5.AttributePath) cty.Path {
	steps := make([]pathStep, 0, len(ap.Steps))
	for _, s := range ap.Steps {
		switch sel := s.Selector.(type) {
		case *tfplugin5.AttributePath_Step_AttributeName:
			steps = append(steps, pathStep{kind: 1, attr: sel.AttributeName})
		case *tfplugin5.AttributePath_Step_ElementKeyString:
			steps = append(steps, pathStep{kind: 2, strKey: sel.ElementKeyString})
		case *tfplugin5.AttributePath_Step_ElementKeyInt:
			steps = append(steps, pathStep{kind: 3, intKey: sel.ElementKeyInt})
		}
	}
	return buildPath(steps)
}

func schema5(s *tfplugin5.Schema) (providers.Schema, error) {
	if s == nil {
		return providers.Schema{Block: &configschema.Block{}}, nil
	}
	b, err := block5(s.Block)
	return providers.Schema{Version: s.Version, Block: b}, err
}

func block5(pb *tfplugin5.Schema_Block) (*configschema.Block, error) {
	b := &configschema.Block{}
	if pb == nil {
		return b, nil
	}
	b.Description = pb.Description
	b.Deprecated = pb.Deprecated || pb.DeprecationMessage != ""
	if len(pb.Attributes) > 0 {
		b.Attributes = make(map[string]*configschema.Attribute, len(pb.Attributes))
	}
	for _, pa := range pb.Attributes {
		a, err := attribute5(pa)
		if err != nil {
			return nil, err
		}
		b.Attributes[pa.Name] = a
	}
	if len(pb.BlockTypes) > 0 {
		b.BlockTypes = make(map[string]*configschema.NestedBlock, len(pb.BlockTypes))
	}
	for _, pnb := range pb.BlockTypes {
		inner, err := block5(pnb.Block)
		if err != nil {
			return nil, fmt.Errorf("%s.%w", pnb.TypeName, err)
		}
		nb := &configschema.NestedBlock{Block: *inner, MinItems: int(pnb.MinItems), MaxItems: int(pnb.MaxItems)}
		switch pnb.Nesting {
		case tfplugin5.Schema_NestedBlock_SINGLE:
			nb.Nesting = configschema.NestingSingle
		case tfplugin5.Schema_NestedBlock_GROUP:
			nb.Nesting = configschema.NestingGroup
		case tfplugin5.Schema_NestedBlock_LIST:
			nb.Nesting = configschema.NestingList
		case tfplugin5.Schema_NestedBlock_SET:
			nb.Nesting = configschema.NestingSet
		case tfplugin5.Schema_NestedBlock_MAP:
			nb.Nesting = configschema.NestingMap
		default:
			return nil, fmt.Errorf("%s: invalid nesting mode %v", pnb.TypeName, pnb.Nesting)
		}
		b.BlockTypes[pnb.TypeName] = nb
	}
	return b, nil
}

func attribute5(pa *tfplugin5.Schema_Attribute) (*configschema.Attribute, error) {
	a := &configschema.Attribute{
		Description: pa.Description,
		Required:    pa.Required,
		Optional:    pa.Optional,
		Computed:    pa.Computed,
		Sensitive:   pa.Sensitive,
		Deprecated:  pa.Deprecated || pa.DeprecationMessage != "",
		WriteOnly:   pa.WriteOnly,
	}
	ty, err := safecty.UnmarshalType(pa.Type)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pa.Name, err)
	}
	a.Type = ty
	return a, nil
}

func function5(f *tfplugin5.Function) (providers.FunctionDecl, error) {
	decl := providers.FunctionDecl{Summary: f.Summary, Description: f.Description, DeprecationMessage: f.DeprecationMessage}
	param := func(pp *tfplugin5.Function_Parameter) (providers.FunctionParam, error) {
		ty, err := safecty.UnmarshalType(pp.Type)
		if err != nil {
			return providers.FunctionParam{}, fmt.Errorf("parameter %s: %w", pp.Name, err)
		}
		return providers.FunctionParam{Name: pp.Name, Type: ty, AllowNullValue: pp.AllowNullValue,
			AllowUnknownValues: pp.AllowUnknownValues, Description: pp.Description}, nil
	}
	for _, pp := range f.Parameters {
		fp, err := param(pp)
		if err != nil {
			return decl, err
		}
		decl.Parameters = append(decl.Parameters, fp)
	}
	if f.VariadicParameter != nil {
		fp, err := param(f.VariadicParameter)
		if err != nil {
			return decl, err
		}
		decl.VariadicParameter = &fp
	}
	if f.Return == nil {
		return decl, errors.New("no return type")
	}
	ty, err := safecty.UnmarshalType(f.Return.Type)
	if err != nil {
		return decl, fmt.Errorf("return type: %w", err)
	}
	decl.ReturnType = ty
	return decl, nil
}
