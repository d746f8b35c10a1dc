package terraform

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBuiltinProvidersPlanApply plans and applies a configuration using
// every built-in provider, then plans again: the second plan must be all
// no-ops, and changing triggers must replace.
func TestBuiltinProvidersPlanApply(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"main.tf": `
variable "out" { type = string }
resource "terraform_data" "d" { input = "hello" }
resource "null_resource" "n" { triggers = { v = terraform_data.d.output } }
resource "random_id" "i" { byte_length = 4 }
resource "random_integer" "k" {
  min = 1
  max = 5
}
resource "local_file" "f" {
  filename = var.out
  content  = "id=${random_id.i.hex}"
}
output "hex" { value = random_id.i.hex }
`}
	cfg := loadConfig(t, files)
	c := builtinContext(t)
	opts := &PlanOpts{SetVariables: InputValues{"out": {Value: ctyString(filepath.Join(dir, "out.txt")), SourceType: ValueFromCLIArg}}}
	plan := mustPlan(t, c, cfg, nil, opts)
	actions := map[string]string{}
	for a, ch := range renderChanges(plan.Changes.Resources) {
		actions[a] = ch.Action
	}
	want := map[string]string{"terraform_data.d": "Create", "null_resource.n": "Create", "random_id.i": "Create", "random_integer.k": "Create", "local_file.f": "Create"}
	if d := cmp.Diff(want, actions); d != "" {
		t.Fatalf("first plan (-want +got):\n%s", d)
	}
	st, diags := c.Apply(context.Background(), plan, cfg, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if ov := st.RootOutputValues()["hex"]; ov == nil || len(ov.Value.AsString()) != 8 {
		t.Errorf("output hex = %v", ov)
	}
	plan2 := mustPlan(t, c, cfg, st, opts)
	for _, ch := range plan2.Changes.Resources {
		if ch.Action.String() != "NoOp" {
			t.Errorf("second plan: %s %s", ch.Addr, ch.Action)
		}
	}
	files["main.tf"] = files["main.tf"][:0] + `
variable "out" { type = string }
resource "terraform_data" "d" {
  input            = "hello"
  triggers_replace = "v2"
}
`
	cfg3 := loadConfig(t, files)
	plan3 := mustPlan(t, c, cfg3, st, opts)
	got := renderChanges(plan3.Changes.Resources)
	if got["terraform_data.d"].Action != "DeleteThenCreate" || got["terraform_data.d"].Reason != "ReplaceBecauseCannotUpdate" {
		t.Errorf("triggers_replace: %+v", got["terraform_data.d"])
	}
	if got["local_file.f"].Action != "Delete" || got["local_file.f"].Reason != "DeleteBecauseNoResourceConfig" {
		t.Errorf("removed local_file: %+v", got["local_file.f"])
	}
}
