package plugin

import (
	"context"
	"errors"
	"fmt"

	goplugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc"

	"github.com/plankit/plankit/internal/providers/plugin/internal/tfplugin6"
	"github.com/plankit/plankit/internal/safecty"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

// This file is the only one that knows plugin protocol 6 (package
// tfplugin6): it copies fields between the protocol-neutral values of
// grpc_provider.go and protocol 6's messages.

// grpcPlugin6 is the go-plugin client side of protocol 6.
type grpcPlugin6 struct {
	goplugin.NetRPCUnsupportedPlugin
}

func (grpcPlugin6) GRPCServer(*goplugin.GRPCBroker, *grpc.Server) error {
	return errors.New("plankit is a plugin client only")
}

func (grpcPlugin6) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return tfplugin6.NewProviderClient(c), nil
}

// provider6 is a provider process speaking protocol 6.
type provider6 = provider[wire6]

var _ providers.Interface = (*provider6)(nil)

func newProvider6(raw any, p *process) providers.Interface {
	return newProvider(wire6{raw.(tfplugin6.ProviderClient)}, p)
}

// wire6 is protocol 6's side of the translation.
type wire6 struct{ c tfplugin6.ProviderClient }

var clientCaps6 = &tfplugin6.ClientCapabilities{WriteOnlyAttributesAllowed: true}

func dyn6(b []byte) *tfplugin6.DynamicValue { return &tfplugin6.DynamicValue{Msgpack: b} }

func value6(dv *tfplugin6.DynamicValue) wireValue {
	return wireValue{msgpack: dv.GetMsgpack(), json: dv.GetJson()}
}

func (w wire6) getProviderSchema(provider string) (providers.GetProviderSchemaResponse, error) {
	resp, err := w.c.GetProviderSchema(bg, &tfplugin6.GetProviderSchema_Request{})
	if err != nil {
		return providers.GetProviderSchemaResponse{}, err
	}
	return schemaResponse6(resp, provider), nil
}

// schemaResponse6 translates a schema response; provider names the
// provider in diagnostics.
func schemaResponse6(resp *tfplugin6.GetProviderSchema_Response, provider string) providers.GetProviderSchemaResponse {
	c := resp.ServerCapabilities
	return schemaResponse(schemaMessages[*tfplugin6.Schema, *tfplugin6.Function]{
		diags:        diags6(resp.Diagnostics),
		provider:     resp.Provider,
		providerMeta: resp.ProviderMeta,
		resources:    resp.ResourceSchemas,
		dataSources:  resp.DataSourceSchemas,
		ephemeral:    resp.EphemeralResourceSchemas,
		functions:    resp.Functions,
		capabilities: providers.ServerCapabilities{
			PlanDestroy:               c.GetPlanDestroy(),
			GetProviderSchemaOptional: c.GetGetProviderSchemaOptional(),
			MoveResourceState:         c.GetMoveResourceState(),
		},
	}, provider, schema6, function6)
}

func (w wire6) validateProviderConfig(config []byte) (hcl.Diagnostics, error) {
	resp, err := w.c.ValidateProviderConfig(bg, &tfplugin6.ValidateProviderConfig_Request{Config: dyn6(config)})
	return diags6(resp.GetDiagnostics()), err
}

func (w wire6) validateResourceConfig(r request) (hcl.Diagnostics, error) {
	resp, err := w.c.ValidateResourceConfig(bg, &tfplugin6.ValidateResourceConfig_Request{
		TypeName: r.typeName, Config: dyn6(r.config), ClientCapabilities: clientCaps6,
	})
	return diags6(resp.GetDiagnostics()), err
}

func (w wire6) validateDataResourceConfig(r request) (hcl.Diagnostics, error) {
	resp, err := w.c.ValidateDataResourceConfig(bg, &tfplugin6.ValidateDataResourceConfig_Request{TypeName: r.typeName, Config: dyn6(r.config)})
	return diags6(resp.GetDiagnostics()), err
}

func (w wire6) upgradeResourceState(r providers.UpgradeResourceStateRequest) (response, error) {
	raw := &tfplugin6.RawState{Json: r.RawStateJSON}
	if r.RawStateJSON == nil {
		raw.Flatmap = r.RawStateFlatmap
	}
	resp, err := w.c.UpgradeResourceState(bg, &tfplugin6.UpgradeResourceState_Request{
		TypeName: r.TypeName, Version: r.Version, RawState: raw,
	})
	return response{diags: diags6(resp.GetDiagnostics()), value: value6(resp.GetUpgradedState())}, err
}

func (w wire6) configureProvider(terraformVersion string, config []byte) (hcl.Diagnostics, error) {
	resp, err := w.c.ConfigureProvider(bg, &tfplugin6.ConfigureProvider_Request{
		TerraformVersion: terraformVersion, Config: dyn6(config), ClientCapabilities: clientCaps6,
	})
	return diags6(resp.GetDiagnostics()), err
}

func (w wire6) stopProvider(ctx context.Context) (string, error) {
	resp, err := w.c.StopProvider(ctx, &tfplugin6.StopProvider_Request{})
	return resp.GetError(), err
}

func (w wire6) readResource(r request) (response, error) {
	resp, err := w.c.ReadResource(bg, &tfplugin6.ReadResource_Request{
		TypeName: r.typeName, CurrentState: dyn6(r.prior), Private: r.private, ProviderMeta: dyn6(r.meta), ClientCapabilities: clientCaps6,
	})
	return response{diags: diags6(resp.GetDiagnostics()), value: value6(resp.GetNewState()), private: resp.GetPrivate()}, err
}

func (w wire6) planResourceChange(r request) (response, error) {
	resp, err := w.c.PlanResourceChange(bg, &tfplugin6.PlanResourceChange_Request{
		TypeName: r.typeName, PriorState: dyn6(r.prior), ProposedNewState: dyn6(r.proposed), Config: dyn6(r.config),
		PriorPrivate: r.private, ProviderMeta: dyn6(r.meta), ClientCapabilities: clientCaps6,
	})
	if err != nil {
		return response{}, err
	}
	out := response{diags: diags6(resp.Diagnostics), value: value6(resp.PlannedState), private: resp.PlannedPrivate,
		legacyTypeSystem: resp.LegacyTypeSystem}
	for _, ap := range resp.RequiresReplace {
		out.requiresReplace = append(out.requiresReplace, path6(ap))
	}
	return out, nil
}

func (w wire6) applyResourceChange(r request) (response, error) {
	resp, err := w.c.ApplyResourceChange(bg, &tfplugin6.ApplyResourceChange_Request{
		TypeName: r.typeName, PriorState: dyn6(r.prior), PlannedState: dyn6(r.planned), Config: dyn6(r.config),
		PlannedPrivate: r.private, ProviderMeta: dyn6(r.meta),
	})
	return response{diags: diags6(resp.GetDiagnostics()), value: value6(resp.GetNewState()), private: resp.GetPrivate(),
		legacyTypeSystem: resp.GetLegacyTypeSystem()}, err
}

func (w wire6) importResourceState(typeName, id string) (response, error) {
	resp, err := w.c.ImportResourceState(bg, &tfplugin6.ImportResourceState_Request{
		TypeName: typeName, Id: id, ClientCapabilities: clientCaps6,
	})
	if err != nil {
		return response{}, err
	}
	out := response{diags: diags6(resp.Diagnostics)}
	for _, ir := range resp.ImportedResources {
		out.imported = append(out.imported, importedObject{typeName: ir.TypeName, state: value6(ir.State), private: ir.Private})
	}
	return out, nil
}

func (w wire6) moveResourceState(r providers.MoveResourceStateRequest) (response, error) {
	resp, err := w.c.MoveResourceState(bg, &tfplugin6.MoveResourceState_Request{
		SourceProviderAddress: r.SourceProviderAddress,
		SourceTypeName:        r.SourceTypeName,
		SourceSchemaVersion:   r.SourceSchemaVersion,
		SourceState:           &tfplugin6.RawState{Json: r.SourceStateJSON},
		TargetTypeName:        r.TargetTypeName,
		SourcePrivate:         r.SourcePrivate,
	})
	return response{diags: diags6(resp.GetDiagnostics()), value: value6(resp.GetTargetState()), private: resp.GetTargetPrivate()}, err
}

func (w wire6) readDataSource(r request) (response, error) {
	resp, err := w.c.ReadDataSource(bg, &tfplugin6.ReadDataSource_Request{
		TypeName: r.typeName, Config: dyn6(r.config), ProviderMeta: dyn6(r.meta), ClientCapabilities: clientCaps6,
	})
	return response{diags: diags6(resp.GetDiagnostics()), value: value6(resp.GetState())}, err
}

func (w wire6) validateEphemeralResourceConfig(r request) (hcl.Diagnostics, error) {
	resp, err := w.c.ValidateEphemeralResourceConfig(bg, &tfplugin6.ValidateEphemeralResourceConfig_Request{TypeName: r.typeName, Config: dyn6(r.config)})
	return diags6(resp.GetDiagnostics()), err
}

func (w wire6) openEphemeralResource(r request) (response, error) {
	resp, err := w.c.OpenEphemeralResource(bg, &tfplugin6.OpenEphemeralResource_Request{
		TypeName: r.typeName, Config: dyn6(r.config), ClientCapabilities: clientCaps6,
	})
	if err != nil {
		return response{}, err
	}
	out := response{diags: diags6(resp.Diagnostics), value: value6(resp.Result), private: resp.Private, deferred: resp.Deferred != nil}
	if resp.RenewAt != nil {
		out.renewAt = resp.RenewAt.AsTime()
	}
	return out, nil
}

func (w wire6) renewEphemeralResource(r request) (response, error) {
	resp, err := w.c.RenewEphemeralResource(bg, &tfplugin6.RenewEphemeralResource_Request{TypeName: r.typeName, Private: r.private})
	if err != nil {
		return response{}, err
	}
	out := response{diags: diags6(resp.Diagnostics), private: resp.Private}
	if resp.RenewAt != nil {
		out.renewAt = resp.RenewAt.AsTime()
	}
	return out, nil
}

func (w wire6) closeEphemeralResource(r request) (hcl.Diagnostics, error) {
	resp, err := w.c.CloseEphemeralResource(bg, &tfplugin6.CloseEphemeralResource_Request{TypeName: r.typeName, Private: r.private})
	return diags6(resp.GetDiagnostics()), err
}

func (w wire6) getFunctions(provider string) (providers.GetFunctionsResponse, error) {
	resp, err := w.c.GetFunctions(bg, &tfplugin6.GetFunctions_Request{})
	if err != nil {
		return providers.GetFunctionsResponse{}, err
	}
	return functionDecls(resp.Functions, diags6(resp.Diagnostics), provider, function6), nil
}

func (w wire6) callFunction(name string, args [][]byte) (response, error) {
	dvs := make([]*tfplugin6.DynamicValue, len(args))
	for i, b := range args {
		dvs[i] = dyn6(b)
	}
	resp, err := w.c.CallFunction(bg, &tfplugin6.CallFunction_Request{Name: name, Arguments: dvs})
	if err != nil {
		return response{}, err
	}
	out := response{value: value6(resp.Result)}
	if fe := resp.Error; fe != nil {
		out.funcErr = functionError(fe.Text, fe.FunctionArgument)
	}
	return out, nil
}

func diags6(ds []*tfplugin6.Diagnostic) hcl.Diagnostics {
	if len(ds) == 0 {
		return nil
	}
	out := make(hcl.Diagnostics, 0, len(ds))
	for _, d := range ds {
		hd := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: d.Summary, Detail: d.Detail}
		if d.Severity == tfplugin6.Diagnostic_WARNING {
			hd.Severity = hcl.DiagWarning
		}
		if d.Attribute != nil && len(d.Attribute.Steps) > 0 {
			tfdiags.WithPath(hd, path6(d.Attribute))
		}
		out = append(out, hd)
	}
	return out
}

func path6(ap *tfplugin6.AttributePath) cty.Path {
	steps := make([]pathStep, 0, len(ap.Steps))
	for _, s := range ap.Steps {
		switch sel := s.Selector.(type) {
		case *tfplugin6.AttributePath_Step_AttributeName:
			steps = append(steps, pathStep{kind: 1, attr: sel.AttributeName})
		case *tfplugin6.AttributePath_Step_ElementKeyString:
			steps = append(steps, pathStep{kind: 2, strKey: sel.ElementKeyString})
		case *tfplugin6.AttributePath_Step_ElementKeyInt:
			steps = append(steps, pathStep{kind: 3, intKey: sel.ElementKeyInt})
		}
	}
	return buildPath(steps)
}

func schema6(s *tfplugin6.Schema) (providers.Schema, error) {
	if s == nil {
		return providers.Schema{Block: &configschema.Block{}}, nil
	}
	b, err := block6(s.Block)
	return providers.Schema{Version: s.Version, Block: b}, err
}

func block6(pb *tfplugin6.Schema_Block) (*configschema.Block, error) {
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
		a, err := attribute6(pa)
		if err != nil {
			return nil, err
		}
		b.Attributes[pa.Name] = a
	}
	if len(pb.BlockTypes) > 0 {
		b.BlockTypes = make(map[string]*configschema.NestedBlock, len(pb.BlockTypes))
	}
	for _, pnb := range pb.BlockTypes {
		inner, err := block6(pnb.Block)
		if err != nil {
			return nil, fmt.Errorf("%s.%w", pnb.TypeName, err)
		}
		nb := &configschema.NestedBlock{Block: *inner, MinItems: int(pnb.MinItems), MaxItems: int(pnb.MaxItems)}
		switch pnb.Nesting {
		case tfplugin6.Schema_NestedBlock_SINGLE:
			nb.Nesting = configschema.NestingSingle
		case tfplugin6.Schema_NestedBlock_GROUP:
			nb.Nesting = configschema.NestingGroup
		case tfplugin6.Schema_NestedBlock_LIST:
			nb.Nesting = configschema.NestingList
		case tfplugin6.Schema_NestedBlock_SET:
			nb.Nesting = configschema.NestingSet
		case tfplugin6.Schema_NestedBlock_MAP:
			nb.Nesting = configschema.NestingMap
		default:
			return nil, fmt.Errorf("%s: invalid nesting mode %v", pnb.TypeName, pnb.Nesting)
		}
		b.BlockTypes[pnb.TypeName] = nb
	}
	return b, nil
}

func attribute6(pa *tfplugin6.Schema_Attribute) (*configschema.Attribute, error) {
	a := &configschema.Attribute{
		Description: pa.Description,
		Required:    pa.Required,
		Optional:    pa.Optional,
		Computed:    pa.Computed,
		Sensitive:   pa.Sensitive,
		Deprecated:  pa.Deprecated || pa.DeprecationMessage != "",
		WriteOnly:   pa.WriteOnly,
	}
	if pa.NestedType != nil {
		o, err := object6(pa.NestedType)
		if err != nil {
			return nil, fmt.Errorf("%s.%w", pa.Name, err)
		}
		a.NestedType = o
		a.Type = o.ImpliedType()
		return a, nil
	}
	ty, err := safecty.UnmarshalType(pa.Type)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pa.Name, err)
	}
	a.Type = ty
	return a, nil
}

func object6(po *tfplugin6.Schema_Object) (*configschema.Object, error) {
	o := &configschema.Object{
		Attributes: make(map[string]*configschema.Attribute, len(po.Attributes)),
		MinItems:   int(po.MinItems),
		MaxItems:   int(po.MaxItems),
	}
	switch po.Nesting {
	case tfplugin6.Schema_Object_SINGLE:
		o.Nesting = configschema.NestingSingle
	case tfplugin6.Schema_Object_LIST:
		o.Nesting = configschema.NestingList
	case tfplugin6.Schema_Object_SET:
		o.Nesting = configschema.NestingSet
	case tfplugin6.Schema_Object_MAP:
		o.Nesting = configschema.NestingMap
	default:
		return nil, fmt.Errorf("invalid nested attribute nesting mode %v", po.Nesting)
	}
	for _, pa := range po.Attributes {
		a, err := attribute6(pa)
		if err != nil {
			return nil, err
		}
		o.Attributes[pa.Name] = a
	}
	return o, nil
}

func function6(f *tfplugin6.Function) (providers.FunctionDecl, error) {
	decl := providers.FunctionDecl{Summary: f.Summary, Description: f.Description, DeprecationMessage: f.DeprecationMessage}
	param := func(pp *tfplugin6.Function_Parameter) (providers.FunctionParam, error) {
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
