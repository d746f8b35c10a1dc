package terraform

import (
	"context"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/plans"
)

// TestVariableValidationReferences: validation rules may refer to other
// objects of their module (Terraform 1.9): other variables, locals,
// resources, including objects that depend on the variable itself.
func TestVariableValidationReferences(t *testing.T) {
	tests := []struct {
		name        string
		files       map[string]string
		vars        map[string]cty.Value
		planDiags   []string
		planChecks  []string
		applyDiags  []string
		applyChecks []string
	}{
		{
			name: "another variable and a local",
			files: map[string]string{"main.tf": `variable "min" { default = 5 }
variable "n" {
  default = 3
  validation {
    condition     = var.n >= var.min
    error_message = "n (${var.n}) must be at least ${var.min}."
  }
}
locals { allowed = ["a", "b"] }
variable "name" {
  default = "a"
  validation {
    condition     = contains(local.allowed, var.name)
    error_message = "name must be one of ${join(", ", local.allowed)}."
  }
}`},
			planDiags:  []string{"error main.tf:2: Invalid value for variable: n (3) must be at least 5.\n\nThis was checked by the validation rule at main.tf:4,3-13."},
			planChecks: []string{"var |n fail", `  module "" fail`, "var |name pass", `  module "" pass`},
		},
		{
			name: "a local that depends on the variable: no cycle",
			files: map[string]string{"main.tf": `variable "name" {
  default = "web"
  validation {
    condition     = length(local.full) < 7
    error_message = "${local.full} is too long."
  }
}
locals { full = "app-${var.name}" }`},
			planDiags:  []string{"error main.tf:1: Invalid value for variable: app-web is too long.\n\nThis was checked by the validation rule at main.tf:3,3-13."},
			planChecks: []string{"var |name fail", `  module "" fail`},
		},
		{
			name: "a module variable checked against a resource: unknown at plan, decided at apply",
			files: map[string]string{
				"main.tf": `module "m" {
  source = "./m"
  want   = "test_thing-1"
}`,
				"m/main.tf": `variable "want" {
  validation {
    condition     = var.want == test_thing.a.id
    error_message = "want ${var.want}, the thing has ${test_thing.a.id}."
  }
}
resource "test_thing" "a" { name = "a" }`},
			planChecks:  []string{"var module.m|want unknown", `  module "module.m" unknown`},
			applyChecks: []string{"var module.m|want pass", `  module "module.m" pass`},
		},
		{
			name: "failing at apply",
			files: map[string]string{"main.tf": `variable "want" {
  default = "other"
  validation {
    condition     = var.want == test_thing.a.id
    error_message = "want ${var.want}, the thing has ${test_thing.a.id}."
  }
}
resource "test_thing" "a" { name = "a" }`},
			planChecks:  []string{"var |want unknown", `  module "" unknown`},
			applyDiags:  []string{"error main.tf:1: Invalid value for variable: want other, the thing has test_thing-1.\n\nThis was checked by the validation rule at main.tf:3,3-13."},
			applyChecks: []string{"var |want fail", `  module "" fail`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, tc.files)
			c := testContext(t, newTestProvider(), 2)
			opts := &PlanOpts{SetVariables: InputValues{}}
			for k, v := range tc.vars {
				opts.SetVariables[k] = &InputValue{Value: v, SourceType: ValueFromCLIArg}
			}
			plan, diags := c.Plan(context.Background(), cfg, nil, opts)
			got := diagLines(diags)
			sort.Strings(got)
			if d := cmp.Diff(tc.planDiags, got); d != "" {
				t.Errorf("plan diagnostics (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.planChecks, checkLines(plan.Checks)); d != "" {
				t.Errorf("plan checks (-want +got):\n%s", d)
			}
			if tc.applyChecks == nil {
				return
			}
			var checks []*plans.CheckResult
			_, adiags := c.Apply(context.Background(), roundTripPlan(t, plan), cfg, &ApplyOpts{Checks: func(cs []*plans.CheckResult) { checks = cs }})
			if d := cmp.Diff(tc.applyDiags, diagLines(adiags)); d != "" {
				t.Errorf("apply diagnostics (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.applyChecks, checkLines(checks)); d != "" {
				t.Errorf("apply checks (-want +got):\n%s", d)
			}
		})
	}
}
