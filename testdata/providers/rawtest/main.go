// Command terraform-provider-rawtest is a minimal provider written directly
// on terraform-plugin-go (tfprotov6 and tf6server, protocol 6), with no
// framework in between, so each call costs the provider little more than
// the wire: benchmarks use it to measure plankit's side of the gRPC path.
// It keeps no objects of its own: ReadResource returns the stored state
// unchanged. See the package doc of the parent module.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Address is the provider's source address.
const Address = "registry.terraform.io/plankit/rawtest"

func main() {
	if err := tf6server.Serve(Address, func() tfprotov6.ProviderServer { return &server{} }); err != nil {
		log.Fatal(err)
	}
}

// thingType is the object type of rawtest_thing: id is computed, name is
// required (changing it replaces the object), value is optional and
// updated in place.
var thingType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"id":    tftypes.String,
	"name":  tftypes.String,
	"value": tftypes.String,
}}

var thingSchema = &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
	{Name: "id", Type: tftypes.String, Computed: true},
	{Name: "name", Type: tftypes.String, Required: true},
	{Name: "value", Type: tftypes.String, Optional: true},
}}}

// server implements the calls plankit makes. The embedded interface is
// nil: the protocol's other calls (actions, list resources, state stores,
// ephemeral resources) are never made to this provider, and would fail
// loudly if they were.
type server struct {
	tfprotov6.ProviderServer
}

func errDiag(summary string, err error) []*tfprotov6.Diagnostic {
	return []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityError, Summary: summary, Detail: err.Error()}}
}

func (s *server) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	return &tfprotov6.GetMetadataResponse{
		ServerCapabilities: &tfprotov6.ServerCapabilities{GetProviderSchemaOptional: true},
		Resources:          []tfprotov6.ResourceMetadata{{TypeName: "rawtest_thing"}},
	}, nil
}

func (s *server) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return &tfprotov6.GetProviderSchemaResponse{
		ServerCapabilities: &tfprotov6.ServerCapabilities{GetProviderSchemaOptional: true},
		Provider:           &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{}},
		ResourceSchemas:    map[string]*tfprotov6.Schema{"rawtest_thing": thingSchema},
		DataSourceSchemas:  map[string]*tfprotov6.Schema{},
	}, nil
}

func (s *server) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{}, nil
}

func (s *server) GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return &tfprotov6.GetFunctionsResponse{}, nil
}

func (s *server) ValidateProviderConfig(_ context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config}, nil
}

func (s *server) ConfigureProvider(context.Context, *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

func (s *server) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}

func (s *server) ValidateResourceConfig(_ context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	if _, err := req.Config.Unmarshal(thingType); err != nil {
		return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: errDiag("Invalid configuration", err)}, nil
	}
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}

func (s *server) UpgradeResourceState(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	v, err := req.RawState.Unmarshal(thingType)
	if err != nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: errDiag("Invalid stored state", err)}, nil
	}
	dv, err := tfprotov6.NewDynamicValue(thingType, v)
	if err != nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: errDiag("Invalid stored state", err)}, nil
	}
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &dv}, nil
}

func (s *server) ReadResource(_ context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, Private: req.Private}, nil
}

// attrs unmarshals an object value of thingType; ok is false for null.
func attrs(dv *tfprotov6.DynamicValue) (map[string]tftypes.Value, bool, error) {
	if dv == nil {
		return nil, false, nil
	}
	v, err := dv.Unmarshal(thingType)
	if err != nil || v.IsNull() {
		return nil, false, err
	}
	m := map[string]tftypes.Value{}
	if err := v.As(&m); err != nil {
		return nil, false, err
	}
	return m, true, nil
}

func (s *server) PlanResourceChange(_ context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	proposed, ok, err := attrs(req.ProposedNewState)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errDiag("Invalid proposed state", err)}, nil
	}
	if !ok { // destroy
		return &tfprotov6.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}, nil
	}
	prior, hadPrior, err := attrs(req.PriorState)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errDiag("Invalid prior state", err)}, nil
	}
	resp := &tfprotov6.PlanResourceChangeResponse{}
	switch {
	case !hadPrior:
		proposed["id"] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	case !prior["name"].Equal(proposed["name"]):
		proposed["id"] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
		resp.RequiresReplace = []*tftypes.AttributePath{tftypes.NewAttributePath().WithAttributeName("name")}
	default:
		proposed["id"] = prior["id"]
	}
	dv, err := tfprotov6.NewDynamicValue(thingType, tftypes.NewValue(thingType, proposed))
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errDiag("Invalid planned state", err)}, nil
	}
	resp.PlannedState = &dv
	return resp, nil
}

func (s *server) ApplyResourceChange(_ context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	planned, ok, err := attrs(req.PlannedState)
	if err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errDiag("Invalid planned state", err)}, nil
	}
	if !ok { // destroyed
		return &tfprotov6.ApplyResourceChangeResponse{NewState: req.PlannedState}, nil
	}
	if !planned["id"].IsKnown() {
		var name string
		if err := planned["name"].As(&name); err != nil {
			return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errDiag("Invalid name", err)}, nil
		}
		planned["id"] = tftypes.NewValue(tftypes.String, "raw-"+name)
	}
	dv, err := tfprotov6.NewDynamicValue(thingType, tftypes.NewValue(thingType, planned))
	if err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errDiag("Invalid new state", err)}, nil
	}
	return &tfprotov6.ApplyResourceChangeResponse{NewState: &dv, Private: req.PlannedPrivate}, nil
}

func (s *server) ImportResourceState(_ context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	v := tftypes.NewValue(thingType, map[string]tftypes.Value{
		"id":    tftypes.NewValue(tftypes.String, req.ID),
		"name":  tftypes.NewValue(tftypes.String, req.ID),
		"value": tftypes.NewValue(tftypes.String, nil),
	})
	dv, err := tfprotov6.NewDynamicValue(thingType, v)
	if err != nil {
		return &tfprotov6.ImportResourceStateResponse{Diagnostics: errDiag("Invalid imported state", err)}, nil
	}
	return &tfprotov6.ImportResourceStateResponse{ImportedResources: []*tfprotov6.ImportedResource{{TypeName: req.TypeName, State: &dv}}}, nil
}

func (s *server) MoveResourceState(context.Context, *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return &tfprotov6.MoveResourceStateResponse{Diagnostics: []*tfprotov6.Diagnostic{{
		Severity: tfprotov6.DiagnosticSeverityError, Summary: "Move not supported",
		Detail: "rawtest_thing cannot be moved from another resource type.",
	}}}, nil
}
