package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/plankit/plankit/testdata/providers/internal/store"
)

// legacyResource is fwtest_legacy, a plain older resource type whose
// objects fwtest_thing accepts through MoveResourceState. It shares the
// thing files, so a moved object stays the same real object.
type legacyResource struct{ st store.Store }

var _ resource.ResourceWithConfigure = (*legacyResource)(nil)

type legacyModel struct {
	ID    types.String `tfsdk:"id"`
	Name  types.String `tfsdk:"name"`
	Value types.String `tfsdk:"value"`
}

func legacySchema() *schema.Schema {
	return &schema.Schema{Attributes: map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed:      true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"name": schema.StringAttribute{
			Required:      true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"value": schema.StringAttribute{Optional: true},
	}}
}

func (r *legacyResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = legacyType
}

func (r *legacyResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = *legacySchema()
}

func (r *legacyResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if st, ok := req.ProviderData.(store.Store); ok {
		r.st = st
	}
}

func (r *legacyResource) put(m legacyModel) error {
	rec := store.Record{"id": m.ID.ValueString(), "name": m.Name.ValueString(), "revision": 1}
	if !m.Value.IsNull() {
		rec["value"] = m.Value.ValueString()
	}
	return r.st.Put(thingKind, m.ID.ValueString(), rec)
}

func (r *legacyResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m legacyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.ID = types.StringValue(store.NewID())
	if err := r.put(m); err != nil {
		resp.Diagnostics.AddError("Cannot write thing", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *legacyResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m legacyModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	rec, ok, err := r.st.Get(thingKind, m.ID.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Cannot read thing", err.Error())
		return
	}
	if !ok {
		resp.State.RemoveResource(ctx)
		return
	}
	m.Name = types.StringValue(rec.String("name"))
	m.Value = optString(rec, "value")
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *legacyResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m legacyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.put(m); err != nil {
		resp.Diagnostics.AddError("Cannot write thing", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *legacyResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m legacyModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.st.Delete(thingKind, m.ID.ValueString()); err != nil {
		resp.Diagnostics.AddError("Cannot delete thing", err.Error())
	}
}
