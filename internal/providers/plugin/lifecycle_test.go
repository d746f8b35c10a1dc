package plugin

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/objchange"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// with returns the block's empty value with the given attributes set.
func with(b *configschema.Block, attrs map[string]cty.Value) cty.Value {
	m := b.EmptyValue().AsValueMap()
	for k, v := range attrs {
		m[k] = v
	}
	return cty.ObjectVal(m)
}

// change plans and applies config against prior (null prior: create;
// null config: delete), as the core does, and returns both responses.
func change(t *testing.T, p providers.Interface, typeName string, prior cty.Value, priorPrivate []byte, config cty.Value) (providers.PlanResourceChangeResponse, providers.ApplyResourceChangeResponse) {
	t.Helper()
	s := p.GetProviderSchema().ResourceTypes[typeName].Block
	vr := p.ValidateResourceConfig(providers.ValidateResourceConfigRequest{TypeName: typeName, Config: config})
	if !config.IsNull() {
		noErrors(t, "validate", vr.Diagnostics)
	}
	proposed := objchange.ProposedNew(s, prior, config)
	plan := p.PlanResourceChange(providers.PlanResourceChangeRequest{
		TypeName: typeName, PriorState: prior, ProposedNewState: proposed, Config: config, PriorPrivate: priorPrivate,
	})
	noErrors(t, "plan", plan.Diagnostics)
	apply := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{
		TypeName: typeName, PriorState: prior, PlannedState: plan.PlannedState, Config: config, PlannedPrivate: plan.PlannedPrivate,
	})
	noErrors(t, "apply", apply.Diagnostics)
	return plan, apply
}

func TestFrameworkLifecycle(t *testing.T) {
	p, dir := testProvider(t, "fw")
	configure(t, p)
	s := p.GetProviderSchema().ResourceTypes["fwtest_thing"].Block
	null := cty.NullVal(s.ImpliedType())
	single := cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "s": cty.StringVal("hush")})
	list := cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("l0"), "n": cty.NumberIntVal(7)})})
	set := cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("s0")})})
	mapCfg := cty.MapVal(map[string]cty.Value{"k": cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("low"), "c": cty.NullVal(cty.String)})})
	dyn := cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(1), "l": cty.TupleVal([]cty.Value{cty.True, cty.StringVal("x")})})
	config := with(s, map[string]cty.Value{
		"name": cty.StringVal("a"), "value": cty.StringVal("v1"), "secret": cty.StringVal("shh"),
		"password_wo": cty.StringVal("pw"), "dyn": dyn,
		"single": single, "list": list, "set": set, "map": mapCfg,
	})

	// Create: computed attributes are unknown in the plan, the write-only
	// value reaches the provider but neither plan nor state.
	plan, created := change(t, p, "fwtest_thing", null, nil, config)
	for _, path := range []cty.Path{cty.GetAttrPath("id"), cty.GetAttrPath("revision"), cty.GetAttrPath("map").IndexString("k").GetAttr("c")} {
		v, err := path.Apply(plan.PlannedState)
		if err != nil || v.IsKnown() {
			t.Errorf("planned %#v = %#v, %v; want unknown", path, v, err)
		}
	}
	st := created.NewState
	if !st.GetAttr("password_wo").IsNull() || !plan.PlannedState.GetAttr("password_wo").IsNull() {
		t.Errorf("write-only value stored: plan %#v, state %#v", plan.PlannedState.GetAttr("password_wo"), st.GetAttr("password_wo"))
	}
	if got := st.GetAttr("map").Index(cty.StringVal("k")).GetAttr("c"); !got.RawEquals(cty.StringVal("LOW")) {
		t.Errorf("map[k].c = %#v", got)
	}
	if !st.GetAttr("dyn").RawEquals(dyn) {
		t.Errorf("dyn = %#v, want %#v", st.GetAttr("dyn"), dyn)
	}
	if !st.GetAttr("single").RawEquals(single) || !st.GetAttr("list").RawEquals(list) || !st.GetAttr("set").RawEquals(set) {
		t.Errorf("nested attributes changed: %#v", st)
	}
	id := st.GetAttr("id").AsString()
	want := map[string]any{"id": id, "name": "a", "value": "v1", "secret": "shh", "password_wo_sha256": "30c952fab122c3f9759f02a6d95c3758b246b4fee239957b2d4fee46e26170c4", "revision": 1.0, "private": ""}
	if diff := cmp.Diff(want, readObject(t, dir, "thing", id)); diff != "" {
		t.Errorf("created object (-want +got):\n%s", diff)
	}

	// Refresh without drift keeps the state.
	read := p.ReadResource(providers.ReadResourceRequest{TypeName: "fwtest_thing", PriorState: st, Private: created.Private})
	noErrors(t, "read", read.Diagnostics)
	if !read.NewState.RawEquals(st) {
		t.Errorf("refresh changed the state:\n%#v\n%#v", st, read.NewState)
	}

	// Update in place: the private data of the create reaches the update.
	config2 := with(s, map[string]cty.Value{"name": cty.StringVal("a"), "value": cty.StringVal("v2"), "single": single, "list": list, "set": set, "map": mapCfg})
	plan2, updated := change(t, p, "fwtest_thing", st, read.Private, config2)
	if len(plan2.RequiresReplace) != 0 {
		t.Errorf("update requires replace: %#v", plan2.RequiresReplace)
	}
	if !plan2.PlannedState.GetAttr("id").RawEquals(st.GetAttr("id")) {
		t.Errorf("planned id %#v, want the prior id (UseStateForUnknown)", plan2.PlannedState.GetAttr("id"))
	}
	if plan2.PlannedState.GetAttr("revision").IsKnown() {
		t.Errorf("planned revision is known")
	}
	obj := readObject(t, dir, "thing", id)
	if obj["value"] != "v2" || obj["revision"] != 2.0 || obj["private"] != `{"created":"a"}` {
		t.Errorf("updated object = %v", obj)
	}
	if got := fwPrivate(t, updated.Private); got != `{"created":"a","updates":1}` {
		t.Errorf("private after update = %s", got)
	}

	// Drift: the object changed and then vanished outside plankit.
	obj["value"] = "drifted"
	writeObject(t, dir, "thing", id, obj)
	read = p.ReadResource(providers.ReadResourceRequest{TypeName: "fwtest_thing", PriorState: updated.NewState, Private: updated.Private})
	noErrors(t, "read", read.Diagnostics)
	if got := read.NewState.GetAttr("value"); !got.RawEquals(cty.StringVal("drifted")) {
		t.Errorf("refreshed value = %#v", got)
	}

	// Replace: a new name requires replacement.
	config3 := with(s, map[string]cty.Value{"name": cty.StringVal("b")})
	plan3 := p.PlanResourceChange(providers.PlanResourceChangeRequest{
		TypeName: "fwtest_thing", PriorState: updated.NewState, ProposedNewState: objchange.ProposedNew(s, updated.NewState, config3), Config: config3,
	})
	noErrors(t, "plan replace", plan3.Diagnostics)
	if diff := cmp.Diff([]cty.Path{cty.GetAttrPath("name")}, plan3.RequiresReplace, cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) })); diff != "" {
		t.Errorf("requires replace (-want +got):\n%s", diff)
	}

	// Delete.
	del := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: "fwtest_thing", PriorState: updated.NewState, PlannedState: null, Config: cty.NullVal(s.ImpliedType())})
	noErrors(t, "delete", del.Diagnostics)
	if !del.NewState.IsNull() || objectExists(dir, "thing", id) {
		t.Errorf("after delete: state %#v, file exists %v", del.NewState, objectExists(dir, "thing", id))
	}
	read = p.ReadResource(providers.ReadResourceRequest{TypeName: "fwtest_thing", PriorState: updated.NewState})
	noErrors(t, "read gone", read.Diagnostics)
	if !read.NewState.IsNull() {
		t.Errorf("refresh of a deleted object = %#v, want null", read.NewState)
	}
}

func TestSDKLifecycle(t *testing.T) {
	p, dir := testProvider(t, "sdk")
	configure(t, p)
	s := p.GetProviderSchema().ResourceTypes["sdktest_thing"].Block
	null := cty.NullVal(s.ImpliedType())
	nested := cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("n")})})
	config := with(s, map[string]cty.Value{
		"name": cty.StringVal("a"), "value": cty.StringVal("v1"),
		"tags":   cty.MapVal(map[string]cty.Value{"k": cty.StringVal("t")}),
		"nested": nested,
	})
	plan, created := change(t, p, "sdktest_thing", null, nil, config)
	if !plan.LegacyTypeSystem || !created.LegacyTypeSystem {
		t.Errorf("LegacyTypeSystem = %v/%v, want true from the SDK", plan.LegacyTypeSystem, created.LegacyTypeSystem)
	}
	if plan.PlannedState.GetAttr("created_at").IsKnown() || plan.PlannedState.GetAttr("id").IsKnown() {
		t.Errorf("computed attributes known in plan: %#v", plan.PlannedState)
	}
	st := created.NewState
	id := st.GetAttr("id").AsString()
	if st.GetAttr("created_at").AsString() == "" {
		t.Errorf("created_at not set: %#v", st)
	}
	if obj := readObject(t, dir, "sdkthing", id); obj["value"] != "v1" || obj["name"] != "a" {
		t.Errorf("object = %v", obj)
	}
	if !st.GetAttr("nested").RawEquals(nested) {
		t.Errorf("nested = %#v", st.GetAttr("nested"))
	}

	// Update in place.
	config2 := with(s, map[string]cty.Value{"name": cty.StringVal("a"), "value": cty.StringVal("v2"), "nested": nested})
	plan2, updated := change(t, p, "sdktest_thing", st, created.Private, config2)
	if len(plan2.RequiresReplace) != 0 {
		t.Errorf("update requires replace: %#v", plan2.RequiresReplace)
	}
	if obj := readObject(t, dir, "sdkthing", id); obj["value"] != "v2" {
		t.Errorf("updated object = %v", obj)
	}

	// ForceNew.
	config3 := with(s, map[string]cty.Value{"name": cty.StringVal("b")})
	plan3 := p.PlanResourceChange(providers.PlanResourceChangeRequest{
		TypeName: "sdktest_thing", PriorState: updated.NewState, ProposedNewState: objchange.ProposedNew(s, updated.NewState, config3), Config: config3, PriorPrivate: updated.Private,
	})
	noErrors(t, "plan replace", plan3.Diagnostics)
	found := false
	for _, rp := range plan3.RequiresReplace {
		found = found || rp.Equals(cty.GetAttrPath("name"))
	}
	if !found {
		t.Errorf("requires replace = %#v, want name", plan3.RequiresReplace)
	}

	// Delete.
	del := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{TypeName: "sdktest_thing", PriorState: updated.NewState, PlannedState: null, Config: null, PlannedPrivate: updated.Private})
	noErrors(t, "delete", del.Diagnostics)
	if !del.NewState.IsNull() || objectExists(dir, "sdkthing", id) {
		t.Errorf("after delete: %#v", del.NewState)
	}
}
