// Command terraform-provider-fwtest is a small provider built on
// terraform-plugin-framework, served over plugin protocol 6 only. It exists
// to test plankit's plugin client; see the package doc of the parent
// module.
package main

import (
	"context"
	"log"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/plankit/plankit/testdata/providers/internal/store"
)

// Address is the provider's source address.
const Address = "registry.terraform.io/plankit/fwtest"

func main() {
	err := providerserver.Serve(context.Background(), func() provider.Provider { return &fwProvider{} }, providerserver.ServeOpts{
		Address:         Address,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err)
	}
}

type fwProvider struct{}

var (
	_ provider.Provider              = (*fwProvider)(nil)
	_ provider.ProviderWithFunctions = (*fwProvider)(nil)

	_ provider.ProviderWithEphemeralResources = (*fwProvider)(nil)
)

type providerModel struct {
	StateDir types.String `tfsdk:"state_dir"`
	Token    types.String `tfsdk:"token"`
}

func (p *fwProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "fwtest"
}

func (p *fwProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Test provider on terraform-plugin-framework.",
		Attributes: map[string]schema.Attribute{
			"state_dir": schema.StringAttribute{
				Optional:    true,
				Description: "Directory holding the objects; default $FWTEST_STATE_DIR.",
			},
			"token": schema.StringAttribute{
				Optional:    true,
				Sensitive:   true,
				Description: "Must not be \"bad\"; fwtest_thing objects record it as provider_token.",
			},
		},
	}
}

func (p *fwProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Token.ValueString() == "bad" {
		resp.Diagnostics.AddAttributeError(path.Root("token"), "Invalid token", "The token \"bad\" is refused.")
		return
	}
	dir := os.Getenv("FWTEST_STATE_DIR")
	if !m.StateDir.IsNull() && !m.StateDir.IsUnknown() {
		dir = m.StateDir.ValueString()
	}
	// The token goes into what fwtest_thing writes, so tests can see the
	// value the provider was configured with.
	st := store.Store{Dir: dir, Token: m.Token.ValueString()}
	if !m.Token.IsNull() && !m.Token.IsUnknown() && dir != "" {
		// The digest of the token configured last: tests check that the
		// value reached the provider without it being kept anywhere.
		if err := st.Put("provider", "token", store.Record{"sha256": sha256Hex(m.Token.ValueString())}); err != nil {
			resp.Diagnostics.AddError("Cannot record the token", err.Error())
			return
		}
	}
	resp.ResourceData = st
	resp.DataSourceData = st
}

func (p *fwProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		func() resource.Resource { return &thingResource{} },
		func() resource.Resource { return &legacyResource{} },
	}
}

func (p *fwProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		func() datasource.DataSource { return &thingDataSource{} },
	}
}

func (p *fwProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		func() ephemeral.EphemeralResource { return secretEphemeral{} },
	}
}

func (p *fwProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{
		func() function.Function { return reverseFunction{} },
	}
}

// reverseFunction is provider::fwtest::reverse(s): s with its characters in
// reverse order; the argument "error" is refused.
type reverseFunction struct{}

func (reverseFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "reverse"
}

func (reverseFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:     "Reverses a string",
		Description: "Returns the characters of the input in reverse order.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "input", Description: "The string to reverse."},
		},
		Return: function.StringReturn{},
	}
}

func (reverseFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var in string
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &in))
	if resp.Error != nil {
		return
	}
	if in == "error" {
		resp.Error = function.NewArgumentFuncError(0, "the input \"error\" is refused")
		return
	}
	r := []rune(in)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	resp.Error = function.ConcatFuncErrors(resp.Result.Set(ctx, strings.Clone(string(r))))
}
