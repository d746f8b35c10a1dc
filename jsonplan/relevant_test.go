package jsonplan

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/states"
)

// TestRelevantAttributes: relevant_attributes as OpenTofu computes it:
// resource instances by the module instance a reference is made in (the
// outputs of every module instance the plan has count as changed), the
// key a reference gives, a reference narrowed to the argument it names,
// no resources made up from a for expression's symbols, nothing from
// conditions or check blocks; in a refresh-only plan the outputs of the
// refreshed state's module instances, and in a destroy plan the
// references of the data sources the state holds (and no module
// outputs). (command/e2etest's "relevant" scenario compares a plan's
// whole list with OpenTofu 1.12.6's.)
func TestRelevantAttributes(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"main.tf": `
resource "test_thing" "src" {
  name = "src"
  tags = { k = test_thing.far.id }
}
resource "test_thing" "far" {}
resource "test_thing" "cnt" {
  count = 2
  name  = "c"
}
resource "test_thing" "checked" {}
module "m" {
  source   = "./m"
  for_each = toset(["a", "b"])
  in       = test_thing.src.id
}
resource "test_thing" "summary" {
  tags = { for k, t in module.m : k => t.id }
}
resource "test_thing" "narrow" {
  name = test_thing.src.name
  list = [test_thing.cnt[1].id]
}
data "test_data" "d" {
  input = test_thing.far.name
}
check "c" {
  assert {
    condition     = test_thing.checked.id != ""
    error_message = "empty"
  }
}
`,
		"m/main.tf": `
variable "in" {}
resource "test_thing" "r" {
  name = var.in
}
output "id" {
  value = test_thing.r.id
}
`,
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	thing := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":   {Type: cty.String, Computed: true},
		"name": {Type: cty.String, Optional: true},
		"tags": {Type: cty.Map(cty.String), Optional: true},
		"list": {Type: cty.List(cty.String), Optional: true},
	}}
	data := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"input": {Type: cty.String, Optional: true},
		"out":   {Type: cty.String, Computed: true},
	}}
	schemas := map[addrs.Provider]*providers.GetProviderSchemaResponse{testProvider: {
		ResourceTypes: map[string]providers.Schema{"test_thing": {Block: thing}},
		DataSources:   map[string]providers.Schema{"test_data": {Block: data}},
	}}
	inst := func(s string) addrs.AbsResourceInstance {
		a, d := addrs.ParseAbsResourceInstanceStr(s)
		if d.HasErrors() {
			t.Fatal(d.Error())
		}
		return a
	}
	changes := func(actions map[string]plans.Action) *plans.Changes {
		c := plans.NewChanges()
		for a, act := range actions {
			c.Resources = append(c.Resources, &plans.ResourceInstanceChange{Addr: inst(a), PrevRunAddr: inst(a),
				ProviderAddr: addrs.AbsProviderConfig{Provider: testProvider}, Change: plans.Change{Action: act}})
		}
		return c
	}
	withData := states.NewState()
	withData.SetResourceInstanceCurrent(inst("data.test_data.d"), &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{}`)},
		addrs.AbsProviderConfig{Provider: testProvider})
	inModule := states.NewState()
	inModule.SetResourceInstanceCurrent(inst(`module.m["b"].test_thing.r`), &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{}`)},
		addrs.AbsProviderConfig{Provider: testProvider})
	ra := func(res string, path ...any) resourceAttr {
		if path == nil {
			path = []any{}
		}
		return resourceAttr{Resource: res, Attribute: path}
	}
	tests := []struct {
		name string
		plan *plans.Plan
		want []resourceAttr
	}{
		{"nothing changes: no condition makes anything relevant", &plans.Plan{Changes: changes(nil)}, []resourceAttr{}},
		{"module instances' outputs count as changed", &plans.Plan{Changes: changes(map[string]plans.Action{
			`module.m["a"].test_thing.r`: plans.NoOp, `module.m["b"].test_thing.r`: plans.NoOp,
		})}, []resourceAttr{ra(`module.m["a"].test_thing.r`, "id"), ra(`module.m["b"].test_thing.r`, "id")}},
		{"a deleted module instance has no outputs (its deletion follows its arguments)", &plans.Plan{Changes: changes(map[string]plans.Action{
			`module.m["a"].test_thing.r`: plans.NoOp, `module.m["z"].test_thing.r`: plans.Delete,
		})}, []resourceAttr{ra(`module.m["a"].test_thing.r`, "id"), ra("test_thing.src", "id")}},
		{"a whole module call, not the for expression's symbols", &plans.Plan{Changes: changes(map[string]plans.Action{
			"test_thing.summary": plans.Update,
		})}, []resourceAttr{ra("module.m.test_thing.r", "id")}},
		{"a reference narrowed to one argument, a count instance's key", &plans.Plan{Changes: changes(map[string]plans.Action{
			"test_thing.narrow": plans.Update,
		})}, []resourceAttr{ra("test_thing.cnt[1]", "id"), ra("test_thing.src", "name")}},
		{"a module call's argument in the caller's module instance", &plans.Plan{Changes: changes(map[string]plans.Action{
			`module.m["a"].test_thing.r`: plans.Update,
		})}, []resourceAttr{ra(`module.m["a"].test_thing.r`, "id"), ra("test_thing.src", "id")}},
		{"refresh-only: the module instances of the refreshed state", &plans.Plan{UIMode: plans.RefreshOnlyMode, PriorState: inModule,
			Changes: changes(nil)}, []resourceAttr{ra(`module.m["b"].test_thing.r`, "id")}},
		{"destroy: the state's data sources, no module outputs", &plans.Plan{UIMode: plans.DestroyMode, PriorState: withData,
			Changes: changes(map[string]plans.Action{`module.m["a"].test_thing.r`: plans.Delete})},
			[]resourceAttr{ra("test_thing.far", "name"), ra("test_thing.src", "id")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.plan.ProviderSchemas = schemas
			got := relevantAttributes(cfg, tt.plan)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("relevant_attributes (-want +got):\n%s", d)
			}
			// Fed the plan's changes while it is made (PendingSections.Feed),
			// in reverse order, or fed a change the plan then dropped: the
			// same entries.
			fed := newRelevanceIndex(cfg, schemas).traversal()
			for i := len(tt.plan.Changes.Resources) - 1; i >= 0; i-- {
				if rc := tt.plan.Changes.Resources[i]; rc.Action != plans.NoOp {
					fed.feed(rc.Addr)
				}
			}
			if d := cmp.Diff(tt.want, fed.finish(tt.plan)); d != "" {
				t.Errorf("relevant_attributes fed the changes (-want +got):\n%s", d)
			}
			dropped := newRelevanceIndex(cfg, schemas).traversal()
			dropped.feed(inst("test_thing.narrow"))
			if d := cmp.Diff(tt.want, dropped.finish(tt.plan)); d != "" && tt.name != "a reference narrowed to one argument, a count instance's key" {
				t.Errorf("relevant_attributes fed a change the plan dropped (-want +got):\n%s", d)
			}
		})
	}
}
