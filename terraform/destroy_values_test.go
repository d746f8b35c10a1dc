package terraform

import (
	"context"
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
