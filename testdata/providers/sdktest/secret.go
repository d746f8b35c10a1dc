package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The SDK v2 has no ephemeral resources: withSecret adds one at the
// protocol level, ephemeral "sdktest_secret", so that the client's
// protocol 5 side of them is tested against a real protocol 5 server. It
// reads the file at path and appends "open NAME", "renew NAME" and
// "close NAME" to the file at log.
type withSecret struct {
	tfprotov5.ProviderServer
}

const secretType = "sdktest_secret"

var secretObject = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"name": tftypes.String, "path": tftypes.String, "log": tftypes.String, "value": tftypes.String,
}}

var secretSchema = &tfprotov5.Schema{Block: &tfprotov5.SchemaBlock{Attributes: []*tfprotov5.SchemaAttribute{
	{Name: "name", Type: tftypes.String, Required: true},
	{Name: "path", Type: tftypes.String, Required: true},
	{Name: "log", Type: tftypes.String, Optional: true},
	{Name: "value", Type: tftypes.String, Computed: true, Sensitive: true},
}}}

type secretPrivate struct{ Name, Log string }

func errorDiags(summary string, err error) []*tfprotov5.Diagnostic {
	return []*tfprotov5.Diagnostic{{Severity: tfprotov5.DiagnosticSeverityError, Summary: summary, Detail: err.Error()}}
}

func (s withSecret) GetMetadata(ctx context.Context, req *tfprotov5.GetMetadataRequest) (*tfprotov5.GetMetadataResponse, error) {
	resp, err := s.ProviderServer.GetMetadata(ctx, req)
	if resp != nil {
		resp.EphemeralResources = append(resp.EphemeralResources, tfprotov5.EphemeralResourceMetadata{TypeName: secretType})
	}
	return resp, err
}

func (s withSecret) GetProviderSchema(ctx context.Context, req *tfprotov5.GetProviderSchemaRequest) (*tfprotov5.GetProviderSchemaResponse, error) {
	resp, err := s.ProviderServer.GetProviderSchema(ctx, req)
	if resp != nil {
		if resp.EphemeralResourceSchemas == nil {
			resp.EphemeralResourceSchemas = map[string]*tfprotov5.Schema{}
		}
		resp.EphemeralResourceSchemas[secretType] = secretSchema
	}
	return resp, err
}

func (s withSecret) ValidateEphemeralResourceConfig(ctx context.Context, req *tfprotov5.ValidateEphemeralResourceConfigRequest) (*tfprotov5.ValidateEphemeralResourceConfigResponse, error) {
	if req.TypeName != secretType {
		return s.ProviderServer.ValidateEphemeralResourceConfig(ctx, req)
	}
	return &tfprotov5.ValidateEphemeralResourceConfigResponse{}, nil
}

func secretLog(file, what, name string) error {
	if file == "" {
		return nil
	}
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%s %s\n", what, name)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (s withSecret) OpenEphemeralResource(ctx context.Context, req *tfprotov5.OpenEphemeralResourceRequest) (*tfprotov5.OpenEphemeralResourceResponse, error) {
	if req.TypeName != secretType {
		return s.ProviderServer.OpenEphemeralResource(ctx, req)
	}
	v, err := req.Config.Unmarshal(secretObject)
	if err != nil {
		return &tfprotov5.OpenEphemeralResourceResponse{Diagnostics: errorDiags("Invalid configuration", err)}, nil
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		return &tfprotov5.OpenEphemeralResourceResponse{Diagnostics: errorDiags("Invalid configuration", err)}, nil
	}
	var p secretPrivate
	var path string
	_ = attrs["name"].As(&p.Name)
	_ = attrs["path"].As(&path)
	if !attrs["log"].IsNull() {
		_ = attrs["log"].As(&p.Log)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return &tfprotov5.OpenEphemeralResourceResponse{Diagnostics: errorDiags("Cannot read secret", err)}, nil
	}
	if err := secretLog(p.Log, "open", p.Name); err != nil {
		return &tfprotov5.OpenEphemeralResourceResponse{Diagnostics: errorDiags("Cannot write log", err)}, nil
	}
	attrs["value"] = tftypes.NewValue(tftypes.String, strings.TrimRight(string(b), "\n"))
	result, err := tfprotov5.NewDynamicValue(secretObject, tftypes.NewValue(secretObject, attrs))
	if err != nil {
		return &tfprotov5.OpenEphemeralResourceResponse{Diagnostics: errorDiags("Cannot encode result", err)}, nil
	}
	priv, _ := json.Marshal(p)
	return &tfprotov5.OpenEphemeralResourceResponse{Result: &result, Private: priv}, nil
}

func (s withSecret) RenewEphemeralResource(ctx context.Context, req *tfprotov5.RenewEphemeralResourceRequest) (*tfprotov5.RenewEphemeralResourceResponse, error) {
	if req.TypeName != secretType {
		return s.ProviderServer.RenewEphemeralResource(ctx, req)
	}
	var p secretPrivate
	if err := json.Unmarshal(req.Private, &p); err != nil {
		return &tfprotov5.RenewEphemeralResourceResponse{Diagnostics: errorDiags("Invalid private data", err)}, nil
	}
	if err := secretLog(p.Log, "renew", p.Name); err != nil {
		return &tfprotov5.RenewEphemeralResourceResponse{Diagnostics: errorDiags("Cannot write log", err)}, nil
	}
	return &tfprotov5.RenewEphemeralResourceResponse{Private: req.Private}, nil
}

func (s withSecret) CloseEphemeralResource(ctx context.Context, req *tfprotov5.CloseEphemeralResourceRequest) (*tfprotov5.CloseEphemeralResourceResponse, error) {
	if req.TypeName != secretType {
		return s.ProviderServer.CloseEphemeralResource(ctx, req)
	}
	var p secretPrivate
	if err := json.Unmarshal(req.Private, &p); err != nil {
		return &tfprotov5.CloseEphemeralResourceResponse{Diagnostics: errorDiags("Invalid private data", err)}, nil
	}
	if err := secretLog(p.Log, "close", p.Name); err != nil {
		return &tfprotov5.CloseEphemeralResourceResponse{Diagnostics: errorDiags("Cannot write log", err)}, nil
	}
	return &tfprotov5.CloseEphemeralResourceResponse{}, nil
}
