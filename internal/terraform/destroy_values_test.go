package terraform

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/plans"
)

// TestDestroyApplyValuesOfDeletedObjects: a destroy apply must not
// evaluate outputs (Terraform only removes them), and a local that reads
// an object being destroyed sees the object as it was, whether the delete
// has run yet or not (the apply and destroy nodes of one instance are not
// ordered: here a's destroy node is ready at once, its apply node only
// after b's). Before, an expression evaluated after the delete read null
// and failed with "Attempt to get attribute from null value".
func TestDestroyApplyValuesOfDeletedObjects(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "terraform_data" "b" {
  input = "b"
}
resource "null_resource" "a" {
  triggers = { b = terraform_data.b.output }
}
locals {
  upper = upper(null_resource.a.id)
}
output "a_id" {
  value = null_resource.a.id
}
output "upper" {
  value = local.upper
}
`})
	for i := 0; i < 20; i++ {
		c := builtinContext(t)
		plan := mustPlan(t, c, cfg, nil, nil)
		st, diags := c.Apply(context.Background(), plan, cfg, nil)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		destroy := mustPlan(t, c, cfg, st, &PlanOpts{Mode: plans.DestroyMode})
		st, diags = c.Apply(context.Background(), destroy, cfg, nil)
		if diags.HasErrors() {
			t.Fatalf("destroy apply, run %d: %s", i, diags.Error())
		}
		if !st.Empty() {
			t.Fatalf("state after destroy: %v, outputs %v", st.AllResourceInstances(), st.RootOutputValues())
		}
	}
}

// TestDestroyApplyRemovesDataResources: as in Terraform, a destroy leaves
// an empty state: the data sources' last results go too (they were left
// behind, so a destroyed configuration's state still listed them).
func TestDestroyApplyRemovesDataResources(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(src, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := loadConfig(t, map[string]string{"main.tf": `
variable "src" { type = string }
data "local_file" "in" {
  filename = var.src
}
module "m" {
  source = "./m"
  src    = var.src
}
resource "terraform_data" "copy" {
  input = data.local_file.in.content
}
`, "m/main.tf": `
variable "src" { type = string }
data "local_file" "in" {
  count    = 2
  filename = var.src
}
`})
	c := builtinContext(t)
	opts := &PlanOpts{SetVariables: InputValues{"src": {Value: ctyString(src), SourceType: ValueFromCLIArg}}}
	st, diags := c.Apply(context.Background(), mustPlan(t, c, cfg, nil, opts), cfg, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := len(st.AllResourceInstances()); got != 4 {
		t.Fatalf("after apply: %v", st.AllResourceInstances())
	}
	destroy := *opts
	destroy.Mode = plans.DestroyMode
	st, diags = c.Apply(context.Background(), mustPlan(t, c, cfg, st, &destroy), cfg, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if !st.Empty() {
		t.Errorf("state after destroy still has %v", st.AllResourceInstances())
	}
}
