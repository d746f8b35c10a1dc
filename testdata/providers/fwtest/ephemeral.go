package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// secretEphemeral is ephemeral "fwtest_secret": reads a secret from the
// file at path, renews it every renew_seconds while the client keeps it
// open, and appends one line per Open, Renew and Close ("open NAME") to
// the file at log, so tests can see the lifecycle the client drove.
type secretEphemeral struct{}

var (
	_ ephemeral.EphemeralResourceWithRenew          = secretEphemeral{}
	_ ephemeral.EphemeralResourceWithClose          = secretEphemeral{}
	_ ephemeral.EphemeralResourceWithValidateConfig = secretEphemeral{}
)

type secretModel struct {
	Name         types.String `tfsdk:"name"`
	Path         types.String `tfsdk:"path"`
	Log          types.String `tfsdk:"log"`
	RenewSeconds types.Int64  `tfsdk:"renew_seconds"`
	Value        types.String `tfsdk:"value"`
}

// secretPrivate is what Renew and Close get back from the client.
type secretPrivate struct {
	Name         string `json:"name"`
	Log          string `json:"log"`
	RenewSeconds int64  `json:"renew_seconds"`
}

func (secretEphemeral) Metadata(_ context.Context, _ ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = "fwtest_secret"
}

func (secretEphemeral) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A secret read from a file, never stored.",
		Attributes: map[string]schema.Attribute{
			"name":          schema.StringAttribute{Required: true, Description: "Names the secret in the log."},
			"path":          schema.StringAttribute{Required: true, Description: "File holding the secret."},
			"log":           schema.StringAttribute{Optional: true, Description: "File the calls are appended to."},
			"renew_seconds": schema.Int64Attribute{Optional: true, Description: "Renew this often; 0 or unset: never."},
			"value":         schema.StringAttribute{Computed: true, Sensitive: true},
		},
	}
}

func (secretEphemeral) ValidateConfig(ctx context.Context, req ephemeral.ValidateConfigRequest, resp *ephemeral.ValidateConfigResponse) {
	var m secretModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if !m.RenewSeconds.IsNull() && !m.RenewSeconds.IsUnknown() && m.RenewSeconds.ValueInt64() < 0 {
		resp.Diagnostics.AddAttributeError(path.Root("renew_seconds"), "Invalid renew_seconds", "renew_seconds must not be negative.")
	}
}

func logCall(file, what, name string) error {
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

func renewAt(seconds int64) time.Time {
	if seconds <= 0 {
		return time.Time{}
	}
	return time.Now().Add(time.Duration(seconds) * time.Second)
}

func (secretEphemeral) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m secretModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	b, err := os.ReadFile(m.Path.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("path"), "Cannot read secret", err.Error())
		return
	}
	p := secretPrivate{Name: m.Name.ValueString(), Log: m.Log.ValueString(), RenewSeconds: m.RenewSeconds.ValueInt64()}
	if err := logCall(p.Log, "open", p.Name); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("log"), "Cannot write log", err.Error())
		return
	}
	m.Value = types.StringValue(strings.TrimRight(string(b), "\n"))
	resp.Diagnostics.Append(resp.Result.Set(ctx, m)...)
	pb, _ := json.Marshal(p)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, "secret", pb)...)
	resp.RenewAt = renewAt(p.RenewSeconds)
}

func (secretEphemeral) Renew(ctx context.Context, req ephemeral.RenewRequest, resp *ephemeral.RenewResponse) {
	b, diags := req.Private.GetKey(ctx, "secret")
	resp.Diagnostics.Append(diags...)
	var p secretPrivate
	if err := json.Unmarshal(b, &p); err != nil {
		resp.Diagnostics.AddError("Invalid private data", err.Error())
		return
	}
	if err := logCall(p.Log, "renew", p.Name); err != nil {
		resp.Diagnostics.AddError("Cannot write log", err.Error())
		return
	}
	resp.RenewAt = renewAt(p.RenewSeconds)
	resp.Private = req.Private
}

func (secretEphemeral) Close(ctx context.Context, req ephemeral.CloseRequest, resp *ephemeral.CloseResponse) {
	b, diags := req.Private.GetKey(ctx, "secret")
	resp.Diagnostics.Append(diags...)
	var p secretPrivate
	if err := json.Unmarshal(b, &p); err != nil {
		resp.Diagnostics.AddError("Invalid private data", err.Error())
		return
	}
	if err := logCall(p.Log, "close", p.Name); err != nil {
		resp.Diagnostics.AddError("Cannot write log", err.Error())
	}
}
