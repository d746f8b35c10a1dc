package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/plankit/plankit/testdata/providers/internal/store"
)

// thingDataSource is data "fwtest_thing": reads a thing's file by id.
type thingDataSource struct{ st store.Store }

var _ datasource.DataSourceWithConfigure = (*thingDataSource)(nil)

type thingDataModel struct {
	ID       types.String `tfsdk:"id"`
	Name     types.String `tfsdk:"name"`
	Value    types.String `tfsdk:"value"`
	Secret   types.String `tfsdk:"secret"`
	Revision types.Int64  `tfsdk:"revision"`
	Info     types.Object `tfsdk:"info"`
}

var infoAttrTypes = map[string]attr.Type{"kind": types.StringType, "path": types.StringType}

func (d *thingDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = thingType
}

func (d *thingDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":       schema.StringAttribute{Required: true},
			"name":     schema.StringAttribute{Computed: true},
			"value":    schema.StringAttribute{Computed: true},
			"secret":   schema.StringAttribute{Computed: true, Sensitive: true},
			"revision": schema.Int64Attribute{Computed: true},
			"info": schema.SingleNestedAttribute{
				Computed: true,
				Attributes: map[string]schema.Attribute{
					"kind": schema.StringAttribute{Computed: true},
					"path": schema.StringAttribute{Computed: true},
				},
			},
		},
	}
}

func (d *thingDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	if st, ok := req.ProviderData.(store.Store); ok {
		d.st = st
	}
}

func (d *thingDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m thingDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	rec, ok, err := d.st.Get(thingKind, m.ID.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Cannot read thing", err.Error())
		return
	}
	if !ok {
		resp.Diagnostics.AddAttributeError(path.Root("id"), "No such thing", "There is no thing with id "+m.ID.ValueString()+".")
		return
	}
	m.Name = types.StringValue(rec.String("name"))
	m.Value = optString(rec, "value")
	m.Secret = optString(rec, "secret")
	if n, ok := rec["revision"].(float64); ok {
		m.Revision = types.Int64Value(int64(n))
	}
	info, diags := types.ObjectValue(infoAttrTypes, map[string]attr.Value{
		"kind": types.StringValue(thingKind),
		"path": types.StringValue(m.ID.ValueString() + ".json"),
	})
	resp.Diagnostics.Append(diags...)
	m.Info = info
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
