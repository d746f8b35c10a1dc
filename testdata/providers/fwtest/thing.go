package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/plankit/plankit/testdata/providers/internal/store"
)

// thingResource is fwtest_thing: one JSON file per object. Its schema
// exercises protocol 6: nested attributes of every nesting mode, sensitive
// and write-only attributes, plan modifiers, a dynamic attribute, a nested
// block, schema version 1 with an upgrader from version 0, import, moves
// from fwtest_legacy and private data. Setting crash = true makes create
// and update panic.
type thingResource struct{ st store.Store }

var (
	_ resource.ResourceWithConfigure      = (*thingResource)(nil)
	_ resource.ResourceWithImportState    = (*thingResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*thingResource)(nil)
	_ resource.ResourceWithMoveState      = (*thingResource)(nil)
	_ resource.ResourceWithValidateConfig = (*thingResource)(nil)
)

type thingModel struct {
	ID         types.String  `tfsdk:"id"`
	Name       types.String  `tfsdk:"name"`
	Value      types.String  `tfsdk:"value"`
	Secret     types.String  `tfsdk:"secret"`
	PasswordWO types.String  `tfsdk:"password_wo"`
	Crash      types.Bool    `tfsdk:"crash"`
	Revision   types.Int64   `tfsdk:"revision"`
	Dyn        types.Dynamic `tfsdk:"dyn"`
	Single     types.Object  `tfsdk:"single"`
	List       types.List    `tfsdk:"list"`
	Set        types.Set     `tfsdk:"set"`
	Map        types.Map     `tfsdk:"map"`
	Block      types.List    `tfsdk:"block"`
}

var (
	singleAttrTypes = map[string]attr.Type{"a": types.StringType, "s": types.StringType}
	listAttrTypes   = map[string]attr.Type{"a": types.StringType, "n": types.Int64Type}
	setAttrTypes    = map[string]attr.Type{"a": types.StringType}
	mapAttrTypes    = map[string]attr.Type{"a": types.StringType, "c": types.StringType}
	blockAttrTypes  = map[string]attr.Type{"x": types.StringType}
)

const (
	thingKind   = "thing"
	privateKey  = "fwtest"
	thingType   = "fwtest_thing"
	legacyType  = "fwtest_legacy"
	thingSchVer = 1
)

func (r *thingResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = thingType
}

func (r *thingResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if st, ok := req.ProviderData.(store.Store); ok {
		r.st = st
	}
}

func (r *thingResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version:     thingSchVer,
		Description: "A thing kept as a JSON file.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required:      true,
				Description:   "Changing the name replaces the thing.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"value":       schema.StringAttribute{Optional: true},
			"secret":      schema.StringAttribute{Optional: true, Sensitive: true},
			"password_wo": schema.StringAttribute{Optional: true, WriteOnly: true, Sensitive: true},
			"crash":       schema.BoolAttribute{Optional: true, Description: "Panic in create and update."},
			"revision":    schema.Int64Attribute{Computed: true, Description: "Counts writes."},
			"dyn":         schema.DynamicAttribute{Optional: true},
			"single": schema.SingleNestedAttribute{
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"a": schema.StringAttribute{Optional: true},
					"s": schema.StringAttribute{Optional: true, Sensitive: true},
				},
			},
			"list": schema.ListNestedAttribute{
				Optional: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"a": schema.StringAttribute{Optional: true},
					"n": schema.Int64Attribute{Optional: true},
				}},
			},
			"set": schema.SetNestedAttribute{
				Optional: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"a": schema.StringAttribute{Required: true},
				}},
			},
			"map": schema.MapNestedAttribute{
				Optional:           true,
				DeprecationMessage: "Use list instead.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"a": schema.StringAttribute{Optional: true},
					"c": schema.StringAttribute{Computed: true, Description: "Upper-cased a."},
				}},
			},
		},
		Blocks: map[string]schema.Block{
			"block": schema.ListNestedBlock{
				NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
					"x": schema.StringAttribute{Optional: true},
				}},
			},
		},
	}
}

// ValidateConfig refuses value = "invalid", with the attribute's path.
func (r *thingResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var v types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("value"), &v)...)
	if v.ValueString() == "invalid" {
		resp.Diagnostics.AddAttributeError(path.Root("value"), "Invalid value", "The value \"invalid\" is not allowed.")
	}
	var list types.List
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("list"), &list)...)
	for i, e := range list.Elements() {
		o, ok := e.(types.Object)
		if !ok {
			continue
		}
		if a, ok := o.Attributes()["a"].(types.String); ok && a.ValueString() == "invalid" {
			resp.Diagnostics.AddAttributeError(path.Root("list").AtListIndex(i).AtName("a"), "Invalid nested value", "The value \"invalid\" is not allowed.")
		}
	}
}

// record is what the object file holds. Nested attributes stay in
// Terraform's state only; the file holds what tests look at.
func record(m thingModel, private, token string) store.Record {
	rec := store.Record{
		"id":       m.ID.ValueString(),
		"name":     m.Name.ValueString(),
		"revision": m.Revision.ValueInt64(),
		"private":  private,
	}
	if !m.Value.IsNull() {
		rec["value"] = m.Value.ValueString()
	}
	if !m.Secret.IsNull() {
		rec["secret"] = m.Secret.ValueString()
	}
	if !m.PasswordWO.IsNull() {
		// A digest, as a real service keeps a password: tests compare it
		// with the value's and find the value itself nowhere.
		rec["password_wo_sha256"] = sha256Hex(m.PasswordWO.ValueString())
	}
	if token != "" {
		rec["provider_token"] = token
	}
	return rec
}

func (r *thingResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	var wo types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("password_wo"), &wo)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Crash.ValueBool() {
		panic(fmt.Sprintf("fwtest: crash requested while creating %q", m.Name.ValueString()))
	}
	m.ID = types.StringValue(store.NewID())
	m.Revision = types.Int64Value(1)
	m.PasswordWO = wo
	resp.Diagnostics.Append(fillMap(&m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	private := fmt.Sprintf(`{"created":%q}`, m.Name.ValueString())
	if err := r.st.Put(thingKind, m.ID.ValueString(), record(m, "", r.st.Token)); err != nil {
		resp.Diagnostics.AddError("Cannot write thing", err.Error())
		return
	}
	m.PasswordWO = types.StringNull()
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKey, []byte(private))...)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *thingResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m thingModel
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
	m.Secret = optString(rec, "secret")
	if n, ok := rec["revision"].(float64); ok {
		m.Revision = types.Int64Value(int64(n))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func optString(rec store.Record, key string) types.String {
	if !rec.Has(key) {
		return types.StringNull()
	}
	return types.StringValue(rec.String(key))
}

func (r *thingResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m, prior thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	var wo types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("password_wo"), &wo)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Crash.ValueBool() {
		panic(fmt.Sprintf("fwtest: crash requested while updating %q", m.Name.ValueString()))
	}
	private, d := req.Private.GetKey(ctx, privateKey)
	resp.Diagnostics.Append(d...)
	m.Revision = types.Int64Value(prior.Revision.ValueInt64() + 1)
	m.PasswordWO = wo
	resp.Diagnostics.Append(fillMap(&m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.st.Put(thingKind, m.ID.ValueString(), record(m, string(private), r.st.Token)); err != nil {
		resp.Diagnostics.AddError("Cannot write thing", err.Error())
		return
	}
	m.PasswordWO = types.StringNull()
	var pm map[string]any
	if len(private) > 0 && json.Unmarshal(private, &pm) == nil {
		pm["updates"] = m.Revision.ValueInt64() - 1
		b, _ := json.Marshal(pm)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKey, b)...)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *thingResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.st.Delete(thingKind, m.ID.ValueString()); err != nil {
		resp.Diagnostics.AddError("Cannot delete thing", err.Error())
	}
}

func (r *thingResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKey, []byte(`{"imported":true}`))...)
}

// fillMap sets the computed c of every map element to its upper-cased a.
func fillMap(m *thingModel) diag.Diagnostics {
	if m.Map.IsNull() || m.Map.IsUnknown() {
		return nil
	}
	var diags diag.Diagnostics
	elems := make(map[string]attr.Value, len(m.Map.Elements()))
	for k, v := range m.Map.Elements() {
		o := v.(types.Object)
		a, _ := o.Attributes()["a"].(types.String)
		c := types.StringValue(strings.ToUpper(a.ValueString()))
		nv, d := types.ObjectValue(mapAttrTypes, map[string]attr.Value{"a": a, "c": c})
		diags.Append(d...)
		elems[k] = nv
	}
	nm, d := types.MapValue(types.ObjectType{AttrTypes: mapAttrTypes}, elems)
	diags.Append(d...)
	m.Map = nm
	return diags
}

// nullThing is a thingModel with every attribute null but the given ones.
func nullThing(id, name, value string) thingModel {
	m := thingModel{
		ID:         types.StringValue(id),
		Name:       types.StringValue(name),
		Value:      types.StringNull(),
		Secret:     types.StringNull(),
		PasswordWO: types.StringNull(),
		Crash:      types.BoolNull(),
		Revision:   types.Int64Value(1),
		Dyn:        types.DynamicNull(),
		Single:     types.ObjectNull(singleAttrTypes),
		List:       types.ListNull(types.ObjectType{AttrTypes: listAttrTypes}),
		Set:        types.SetNull(types.ObjectType{AttrTypes: setAttrTypes}),
		Map:        types.MapNull(types.ObjectType{AttrTypes: mapAttrTypes}),
		Block:      types.ListValueMust(types.ObjectType{AttrTypes: blockAttrTypes}, nil),
	}
	if value != "" {
		m.Value = types.StringValue(value)
	}
	return m
}

// UpgradeState migrates version 0, whose "val" is now "value".
func (r *thingResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	v0 := &schema.Schema{Attributes: map[string]schema.Attribute{
		"id":   schema.StringAttribute{Computed: true},
		"name": schema.StringAttribute{Required: true},
		"val":  schema.StringAttribute{Optional: true},
	}}
	return map[int64]resource.StateUpgrader{
		0: {
			PriorSchema: v0,
			StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
				var old struct {
					ID   types.String `tfsdk:"id"`
					Name types.String `tfsdk:"name"`
					Val  types.String `tfsdk:"val"`
				}
				resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
				if resp.Diagnostics.HasError() {
					return
				}
				m := nullThing(old.ID.ValueString(), old.Name.ValueString(), "")
				m.Value = old.Val
				resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
			},
		},
	}
}

// MoveState accepts objects of fwtest_legacy (from this provider).
func (r *thingResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{{
		SourceSchema: legacySchema(),
		StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
			if req.SourceTypeName != legacyType || !strings.HasSuffix(req.SourceProviderAddress, "plankit/fwtest") {
				return
			}
			var old legacyModel
			resp.Diagnostics.Append(req.SourceState.Get(ctx, &old)...)
			if resp.Diagnostics.HasError() {
				return
			}
			m := nullThing(old.ID.ValueString(), old.Name.ValueString(), old.Value.ValueString())
			resp.Diagnostics.Append(resp.TargetState.Set(ctx, m)...)
			resp.Diagnostics.Append(resp.TargetPrivate.SetKey(ctx, privateKey, []byte(`{"moved":true}`))...)
		},
	}}
}
