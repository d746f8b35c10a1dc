package plugin

import (
	"context"
	"errors"
	"fmt"

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

// This file is the only one that knows plugin protocol 5 (package
// tfplugin5): it copies fields between the protocol-neutral values of
// grpc_provider.go and protocol 5's messages. Protocol 5 has no nested
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
type provider5 = provider[wire5]

var _ providers.Interface = (*provider5)(nil)

func newProvider5(raw any, p *process) providers.Interface {
	return newProvider(wire5{raw.(tfplugin5.ProviderClient)}, p)
}

// wire5 is protocol 5's side of the translation.
type wire5 struct{ c tfplugin5.ProviderClient }

var clientCaps5 = &tfplugin5.ClientCapabilities{WriteOnlyAttributesAllowed: true}

func dyn5(b []byte) *tfplugin5.DynamicValue { return &tfplugin5.DynamicValue{Msgpack: b} }

func value5(dv *tfplugin5.DynamicValue) wireValue {
	return wireValue{msgpack: dv.GetMsgpack(), json: dv.GetJson()}
}

func (w wire5) getProviderSchema(provider string) (providers.GetProviderSchemaResponse, error) {
	resp, err := w.c.GetSchema(bg, &tfplugin5.GetProviderSchema_Request{})
	if err != nil {
		return providers.GetProviderSchemaResponse{}, err
	}
	return schemaResponse5(resp, provider), nil
}

// schemaResponse5 translates a schema response; provider names the
// provider in diagnostics.
func schemaResponse5(resp *tfplugin5.GetProviderSchema_Response, provider string) providers.GetProviderSchemaResponse {
	c := resp.ServerCapabilities
	return schemaResponse(schemaMessages[*tfplugin5.Schema, *tfplugin5.Function]{
		diags:        diags5(resp.Diagnostics),
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
	}, provider, schema5, function5)
}

func (w wire5) validateProviderConfig(config []byte) (hcl.Diagnostics, error) {
	resp, err := w.c.PrepareProviderConfig(bg, &tfplugin5.PrepareProviderConfig_Request{Config: dyn5(config)})
	return diags5(resp.GetDiagnostics()), err
}

func (w wire5) validateResourceConfig(r request) (hcl.Diagnostics, error) {
	resp, err := w.c.ValidateResourceTypeConfig(bg, &tfplugin5.ValidateResourceTypeConfig_Request{
		TypeName: r.typeName, Config: dyn5(r.config), ClientCapabilities: clientCaps5,
	})
	return diags5(resp.GetDiagnostics()), err
}

func (w wire5) validateDataResourceConfig(r request) (hcl.Diagnostics, error) {
	resp, err := w.c.ValidateDataSourceConfig(bg, &tfplugin5.ValidateDataSourceConfig_Request{TypeName: r.typeName, Config: dyn5(r.config)})
	return diags5(resp.GetDiagnostics()), err
}

func (w wire5) upgradeResourceState(r providers.UpgradeResourceStateRequest) (response, error) {
	raw := &tfplugin5.RawState{Json: r.RawStateJSON}
	if r.RawStateJSON == nil {
		raw.Flatmap = r.RawStateFlatmap
	}
	resp, err := w.c.UpgradeResourceState(bg, &tfplugin5.UpgradeResourceState_Request{
		TypeName: r.TypeName, Version: r.Version, RawState: raw,
	})
	return response{diags: diags5(resp.GetDiagnostics()), value: value5(resp.GetUpgradedState())}, err
}

func (w wire5) configureProvider(terraformVersion string, config []byte) (hcl.Diagnostics, error) {
	resp, err := w.c.Configure(bg, &tfplugin5.Configure_Request{
		TerraformVersion: terraformVersion, Config: dyn5(config), ClientCapabilities: clientCaps5,
	})
	return diags5(resp.GetDiagnostics()), err
}

func (w wire5) stopProvider(ctx context.Context) (string, error) {
	resp, err := w.c.Stop(ctx, &tfplugin5.Stop_Request{})
	return resp.GetError(), err
}

func (w wire5) readResource(r request) (response, error) {
	resp, err := w.c.ReadResource(bg, &tfplugin5.ReadResource_Request{
		TypeName: r.typeName, CurrentState: dyn5(r.prior), Private: r.private, ProviderMeta: dyn5(r.meta), ClientCapabilities: clientCaps5,
	})
	return response{diags: diags5(resp.GetDiagnostics()), value: value5(resp.GetNewState()), private: resp.GetPrivate()}, err
}

func (w wire5) planResourceChange(r request) (response, error) {
	resp, err := w.c.PlanResourceChange(bg, &tfplugin5.PlanResourceChange_Request{
		TypeName: r.typeName, PriorState: dyn5(r.prior), ProposedNewState: dyn5(r.proposed), Config: dyn5(r.config),
		PriorPrivate: r.private, ProviderMeta: dyn5(r.meta), ClientCapabilities: clientCaps5,
	})
	if err != nil {
		return response{}, err
	}
	out := response{diags: diags5(resp.Diagnostics), value: value5(resp.PlannedState), private: resp.PlannedPrivate,
		legacyTypeSystem: resp.LegacyTypeSystem}
	for _, ap := range resp.RequiresReplace {
		out.requiresReplace = append(out.requiresReplace, path5(ap))
	}
	return out, nil
}

func (w wire5) applyResourceChange(r request) (response, error) {
	resp, err := w.c.ApplyResourceChange(bg, &tfplugin5.ApplyResourceChange_Request{
		TypeName: r.typeName, PriorState: dyn5(r.prior), PlannedState: dyn5(r.planned), Config: dyn5(r.config),
		PlannedPrivate: r.private, ProviderMeta: dyn5(r.meta),
	})
	return response{diags: diags5(resp.GetDiagnostics()), value: value5(resp.GetNewState()), private: resp.GetPrivate(),
		legacyTypeSystem: resp.GetLegacyTypeSystem()}, err
}

func (w wire5) importResourceState(typeName, id string) (response, error) {
	resp, err := w.c.ImportResourceState(bg, &tfplugin5.ImportResourceState_Request{
		TypeName: typeName, Id: id, ClientCapabilities: clientCaps5,
	})
	if err != nil {
		return response{}, err
	}
	out := response{diags: diags5(resp.Diagnostics)}
	for _, ir := range resp.ImportedResources {
		out.imported = append(out.imported, importedObject{typeName: ir.TypeName, state: value5(ir.State), private: ir.Private})
	}
	return out, nil
}

func (w wire5) moveResourceState(r providers.MoveResourceStateRequest) (response, error) {
	resp, err := w.c.MoveResourceState(bg, &tfplugin5.MoveResourceState_Request{
		SourceProviderAddress: r.SourceProviderAddress,
		SourceTypeName:        r.SourceTypeName,
		SourceSchemaVersion:   r.SourceSchemaVersion,
		SourceState:           &tfplugin5.RawState{Json: r.SourceStateJSON},
		TargetTypeName:        r.TargetTypeName,
		SourcePrivate:         r.SourcePrivate,
	})
	return response{diags: diags5(resp.GetDiagnostics()), value: value5(resp.GetTargetState()), private: resp.GetTargetPrivate()}, err
}

func (w wire5) readDataSource(r request) (response, error) {
	resp, err := w.c.ReadDataSource(bg, &tfplugin5.ReadDataSource_Request{
		TypeName: r.typeName, Config: dyn5(r.config), ProviderMeta: dyn5(r.meta), ClientCapabilities: clientCaps5,
	})
	return response{diags: diags5(resp.GetDiagnostics()), value: value5(resp.GetState())}, err
}

func (w wire5) validateEphemeralResourceConfig(r request) (hcl.Diagnostics, error) {
	resp, err := w.c.ValidateEphemeralResourceConfig(bg, &tfplugin5.ValidateEphemeralResourceConfig_Request{TypeName: r.typeName, Config: dyn5(r.config)})
	return diags5(resp.GetDiagnostics()), err
}

func (w wire5) openEphemeralResource(r request) (response, error) {
	resp, err := w.c.OpenEphemeralResource(bg, &tfplugin5.OpenEphemeralResource_Request{
		TypeName: r.typeName, Config: dyn5(r.config), ClientCapabilities: clientCaps5,
	})
	if err != nil {
		return response{}, err
	}
	out := response{diags: diags5(resp.Diagnostics), value: value5(resp.Result), private: resp.Private, deferred: resp.Deferred != nil}
	if resp.RenewAt != nil {
		out.renewAt = resp.RenewAt.AsTime()
	}
	return out, nil
}

func (w wire5) renewEphemeralResource(r request) (response, error) {
	resp, err := w.c.RenewEphemeralResource(bg, &tfplugin5.RenewEphemeralResource_Request{TypeName: r.typeName, Private: r.private})
	if err != nil {
		return response{}, err
	}
	out := response{diags: diags5(resp.Diagnostics), private: resp.Private}
	if resp.RenewAt != nil {
		out.renewAt = resp.RenewAt.AsTime()
	}
	return out, nil
}

func (w wire5) closeEphemeralResource(r request) (hcl.Diagnostics, error) {
	resp, err := w.c.CloseEphemeralResource(bg, &tfplugin5.CloseEphemeralResource_Request{TypeName: r.typeName, Private: r.private})
	return diags5(resp.GetDiagnostics()), err
}

func (w wire5) getFunctions(provider string) (providers.GetFunctionsResponse, error) {
	resp, err := w.c.GetFunctions(bg, &tfplugin5.GetFunctions_Request{})
	if err != nil {
		return providers.GetFunctionsResponse{}, err
	}
	return functionDecls(resp.Functions, diags5(resp.Diagnostics), provider, function5), nil
}

func (w wire5) callFunction(name string, args [][]byte) (response, error) {
	dvs := make([]*tfplugin5.DynamicValue, len(args))
	for i, b := range args {
		dvs[i] = dyn5(b)
	}
	resp, err := w.c.CallFunction(bg, &tfplugin5.CallFunction_Request{Name: name, Arguments: dvs})
	if err != nil {
		return response{}, err
	}
	out := response{value: value5(resp.Result)}
	if fe := resp.Error; fe != nil {
		out.funcErr = functionError(fe.Text, fe.FunctionArgument)
	}
	return out, nil
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
