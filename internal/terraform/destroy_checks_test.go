package terraform

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/plans"
)

// TestDestroyPlanChecks: a destroy plan evaluates no condition; its checks
// are every checkable object of the configuration with status unknown
// and no instances, but a root output's one instance, as OpenTofu
// reports them (tofu 1.12.6 on this configuration, with terraform_data
// for test_thing). (A normal plan of the same configuration evaluates them.)
func TestDestroyPlanChecks(t *testing.T) {
	cfg := loadConfig(t, map[string]string{
		"main.tf": `
variable "n" {
  type    = number
  default = 1
  validation {
    condition     = var.n > 0
    error_message = "n must be positive."
  }
}
resource "test_thing" "a" {
  name = "a"
  lifecycle {
    postcondition {
      condition     = self.name == "a"
      error_message = "name"
    }
  }
}
output "o" {
  value = test_thing.a.name
  precondition {
    condition     = var.n > 0
    error_message = "n"
  }
}
check "c" {
  assert {
    condition     = var.n > 0
    error_message = "n"
  }
}
module "m" {
  source = "./m"
}
`,
		"m/main.tf": `
variable "v" {
  default = "x"
}
output "mo" {
  value = var.v
  precondition {
    condition     = var.v != ""
    error_message = "never"
  }
}
`})
	type check struct {
		Kind, Module, Name string
		Status             plans.CheckStatus
		Objects            []plans.CheckObject
	}
	render := func(p *plans.Plan) []check {
		var out []check
		for _, c := range p.Checks {
			out = append(out, check{c.Kind, c.Module, c.Name, c.Status, c.Objects})
		}
		return out
	}
	prior := mustPlan(t, testContext(t, newTestProvider(), 2), cfg, nil, nil)
	if len(prior.Checks) == 0 || prior.Checks[0].Status == plans.CheckUnknown && len(prior.Checks[0].Objects) == 0 {
		t.Fatalf("the normal plan evaluated no check: %+v", render(prior))
	}
	st, diags := testContext(t, newTestProvider(), 2).Apply(t.Context(), prior, cfg, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if st.RootOutputValues()["o"] == nil || !st.RootOutputValues()["o"].Value.RawEquals(cty.StringVal("a")) {
		t.Fatalf("apply: output o is %v", st.RootOutputValues()["o"])
	}
	p := mustPlan(t, testContext(t, newTestProvider(), 2), cfg, st, &PlanOpts{Mode: plans.DestroyMode})
	u := plans.CheckUnknown
	want := []check{
		{"check", "", "c", u, nil},
		{"output", "", "o", u, []plans.CheckObject{{Addr: "output.o", Status: u}}},
		{"resource", "", "test_thing.a", u, nil},
		{"var", "", "n", u, nil},
		{"output", "module.m", "mo", u, nil},
	}
	if d := cmp.Diff(want, render(p)); d != "" {
		t.Errorf("destroy plan checks (-want +got):\n%s", d)
	}
}
