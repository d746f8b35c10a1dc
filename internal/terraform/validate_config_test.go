package terraform

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/providertest"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/tfdiags"
)

// TestPlanValidatesOncePerDistinctConfig checks that the provider
// validates the configuration of a resource block whose body does not use
// count or each once per module instance, not once per instance; that
// bodies using them are validated per instance; and that a failing
// validation still fails every instance.
func TestPlanValidatesOncePerDistinctConfig(t *testing.T) {
	tests := []struct {
		name, config, mod string
		want              int
	}{
		{"same config for every instance", `resource "test_thing" "c" {
  count = 50
  name  = "same"
}`, "", 1},
		{"config uses count.index", `resource "test_thing" "c" {
  count = 5
  name  = "n${count.index}"
}`, "", 5},
		{"for_each in two module instances, body without each", `module "m" {
  source   = "./m"
  for_each = toset(["x", "y"])
}`, `variable "v" { default = "v" }
resource "test_thing" "e" {
  for_each = { a = "1", b = "1", c = "2" }
  name     = var.v
}`, 2},
		{"for_each in two module instances, body with each.value", `module "m" {
  source   = "./m"
  for_each = toset(["x", "y"])
}`, `resource "test_thing" "e" {
  for_each = { a = "1", b = "1", c = "2" }
  name     = each.value
}`, 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newTestProvider()
			cfg := loadConfig(t, map[string]string{"main.tf": tc.config, "m/main.tf": tc.mod})
			mustPlan(t, testContext(t, p, 4), cfg, nil, nil)
			if got := len(p.CallsOf(providertest.ValidateResourceConfig)); got != tc.want {
				t.Errorf("ValidateResourceConfig called %d times, want %d", got, tc.want)
			}
		})
	}
	t.Run("invalid configuration fails each time", func(t *testing.T) {
		p := newTestProvider()
		p.ValidateResourceFn = func(req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
			if req.Config.GetAttr("name").RawEquals(cty.StringVal("bad")) {
				return providers.ValidateResourceConfigResponse{Diagnostics: hcl.Diagnostics{tfdiags.Error("Bad name", "no")}}
			}
			return providers.ValidateResourceConfigResponse{}
		}
		cfg := loadConfig(t, map[string]string{"main.tf": `resource "test_thing" "c" {
  count = 3
  name  = "bad"
}`})
		plan, diags := testContext(t, p, 4).Plan(t.Context(), cfg, nil, nil)
		if !diags.HasErrors() || len(plan.Changes.Resources) != 0 {
			t.Errorf("plan with an invalid configuration: %d changes, diagnostics %q", len(plan.Changes.Resources), diagsString(diags))
		}
	})
}
