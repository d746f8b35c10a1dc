package terraform_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// TestPlanChecks: every input variable with validation blocks is a
// checkable object, with one result per instance of its module, as
// Terraform records them for the plan's "checks": pass, or unknown while
// the value is not known.
func TestPlanChecks(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/main.tf", `
variable "n" {
  default = 2
  validation {
    condition     = var.n > 0
    error_message = "positive"
  }
}
variable "plain" {
  default = 1
}
resource "random_id" "r" {
  byte_length = 2
}
module "m" {
  source = "./m"
  count  = 2
  x      = count.index == 0 ? "known" : random_id.r.hex
}
`)
	writeFile(t, dir+"/m/main.tf", `
variable "x" {
  validation {
    condition     = length(var.x) > 0
    error_message = "empty"
  }
}
`)
	c, diags := terraform.NewContext(&terraform.ContextOpts{Providers: builtin.FactoriesIn(dir), WorkingDir: dir})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	cfg := loadCompatConfig(t, dir)
	plan, diags := c.Plan(context.Background(), cfg, states.NewState(), &terraform.PlanOpts{Mode: plans.NormalMode,
		SetVariables: terraform.InputValues{"n": {Value: cty.NumberIntVal(3), SourceType: terraform.ValueFromCLIArg}}})
	if diags.HasErrors() {
		t.Fatal(diagsText(diags))
	}
	want := []*plans.CheckResult{
		{Kind: "var", Name: "n", Status: plans.CheckPass, Objects: []plans.CheckObject{{Status: plans.CheckPass}}},
		{Kind: "var", Module: "module.m", Name: "x", Status: plans.CheckUnknown, Objects: []plans.CheckObject{
			{Module: "module.m[0]", Status: plans.CheckPass}, {Module: "module.m[1]", Status: plans.CheckUnknown}}},
	}
	if d := cmp.Diff(want, plan.Checks); d != "" {
		t.Errorf("checks (-want +got):\n%s", d)
	}
}
