package tfdata

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/lifecycle"
)

func TestTerraformDataLifecycle(t *testing.T) {
	h := lifecycle.New(t, New(), "terraform_data")

	c1 := h.Config(`
input = { a = 1, b = ["x"] }
triggers_replace = "v1"`)
	pl := h.Plan(h.Null(), c1)
	out := pl.PlannedState.GetAttr("output")
	if out.IsKnown() || !out.Type().Equals(c1.GetAttr("input").Type()) {
		t.Fatalf("planned output %#v: want unknown of input's type", out)
	}
	s1 := h.Apply(h.Null(), pl.PlannedState, c1)
	if !s1.GetAttr("output").RawEquals(c1.GetAttr("input")) {
		t.Fatalf("output %#v != input", s1.GetAttr("output"))
	}
	if !regexp.MustCompile(`^[0-9a-f-]{36}$`).MatchString(s1.GetAttr("id").AsString()) {
		t.Fatalf("id %q", s1.GetAttr("id").AsString())
	}
	if got := h.Read(s1); !got.RawEquals(s1) {
		t.Fatal("read changed state")
	}
	if pl := h.Plan(s1, c1); len(pl.RequiresReplace) != 0 || !pl.PlannedState.RawEquals(s1) {
		t.Fatalf("no-op plan: %#v", pl.PlannedState)
	}

	// Input change: in-place update, id kept, output unknown until apply.
	c2 := h.Config(`
input = "new"
triggers_replace = "v1"`)
	pl = h.Plan(s1, c2)
	if len(pl.RequiresReplace) != 0 || !pl.PlannedState.GetAttr("id").RawEquals(s1.GetAttr("id")) || pl.PlannedState.GetAttr("output").IsKnown() {
		t.Fatalf("update plan %#v %v", pl.PlannedState, pl.RequiresReplace)
	}
	s2 := h.Apply(s1, pl.PlannedState, c2)
	if s2.GetAttr("output") != cty.StringVal("new") || !s2.GetAttr("id").RawEquals(s1.GetAttr("id")) {
		t.Fatalf("after update %#v", s2)
	}

	// Unknown input (from another resource): output unknown too.
	unk := c2.AsValueMap()
	unk["input"] = cty.UnknownVal(cty.String)
	if pl := h.Plan(s2, cty.ObjectVal(unk)); pl.PlannedState.GetAttr("output").IsKnown() {
		t.Fatal("unknown input gave known output")
	}

	// triggers_replace change: replacement.
	c3 := h.Config(`
input = "new"
triggers_replace = ["v2"]`)
	pl = h.Plan(s2, c3)
	if diff := cmp.Diff([]string{"triggers_replace"}, lifecycle.ReplacePaths(pl.RequiresReplace)); diff != "" {
		t.Fatal(diff)
	}
	if pl.PlannedState.GetAttr("id").IsKnown() {
		t.Fatal("replacement keeps id")
	}
	h.Destroy(s2)

	// Null input: output null at plan.
	c4 := h.Config(``)
	if pl := h.Plan(h.Null(), c4); !pl.PlannedState.GetAttr("output").IsNull() {
		t.Fatal("null input should plan null output")
	}
	if d := h.Invalid(`output = 1`); !d.HasErrors() {
		t.Fatal("configuring output accepted")
	}
}

func TestTerraformDataStateRoundTrip(t *testing.T) {
	h := lifecycle.New(t, New(), "terraform_data")
	// As Terraform writes it: dynamic values with their type.
	v, diags := h.Upgrade(0, `{"id":"abc","input":{"value":"x","type":"string"},"output":{"value":"x","type":"string"},"triggers_replace":null}`)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if v.GetAttr("output") != cty.StringVal("x") || v.GetAttr("id") != cty.StringVal("abc") {
		t.Fatalf("%#v", v)
	}
	imp, diags := h.Import("some-id")
	if diags.HasErrors() || imp.GetAttr("id") != cty.StringVal("some-id") {
		t.Fatalf("import %#v %v", imp, diags)
	}
}

// TestPlannedIDNotNull: Terraform plans a new terraform_data id as an
// unknown refined to not-null.
func TestPlannedIDNotNull(t *testing.T) {
	h := lifecycle.New(t, New(), "terraform_data")
	id := h.Plan(h.Null(), h.Config(`input = 1`)).PlannedState.GetAttr("id")
	if id.IsKnown() || id.Range().CouldBeNull() {
		t.Fatalf("planned id %#v: want unknown, refined not null", id)
	}
}
