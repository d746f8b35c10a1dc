package terraform

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/providertest"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
)

// TestConditionsModes covers the rules that depend on the plan's mode and
// options: refresh-only plans warn, destroy plans skip conditions, a
// resource with no instances passes, an instance whose planning failed
// and a check block -target left out are unknown.
func TestConditionsModes(t *testing.T) {
	post := `resource "test_thing" "a" {
  count = var.n
  name  = "a"
  lifecycle {
    postcondition {
      condition     = self.name == var.want
      error_message = "Name is ${self.name}."
    }
  }
}
variable "n" { default = 1 }
variable "want" { default = "a" }
check "c" {
  assert {
    condition     = length(test_thing.a) == var.n
    error_message = "count"
  }
}
`
	tests := []struct {
		name   string
		state  map[string]string
		opts   *PlanOpts
		setup  func(p *providertest.Provider)
		diags  []string
		checks []string
	}{
		{
			name:  "refresh-only plan: postconditions on the refreshed object warn",
			state: map[string]string{"test_thing.a[0]": thing("A", "drifted")},
			opts:  &PlanOpts{Mode: plans.RefreshOnlyMode},
			diags: []string{"warning main.tf:6: Resource postcondition failed: Name is drifted."},
			checks: []string{"check |c pass", "  check.c pass",
				"resource |test_thing.a fail", "  test_thing.a[0] fail Name is drifted."},
		},
		{
			// Each checkable object is listed unknown, as OpenTofu does.
			name:   "destroy plan: no conditions are evaluated",
			state:  map[string]string{"test_thing.a[0]": thing("A", "drifted")},
			opts:   &PlanOpts{Mode: plans.DestroyMode},
			checks: []string{"check |c unknown", "resource |test_thing.a unknown"},
		},
		{
			name:   "no instances: the resource passes",
			opts:   &PlanOpts{SetVariables: InputValues{"n": &InputValue{Value: cty.NumberIntVal(0), SourceType: ValueFromCLIArg}}},
			checks: []string{"check |c pass", "  check.c pass", "resource |test_thing.a pass"},
		},
		{
			name: "planning failed before the postcondition: unknown",
			setup: func(p *providertest.Provider) {
				p.Inject(&providertest.Fault{Method: providertest.PlanResourceChange, Err: errors.New("boom")})
			},
			diags:  []string{"error main.tf:1: Injected failure in PlanResourceChange: boom\n\n(test_thing.a[0])"},
			checks: []string{"check |c unknown", "resource |test_thing.a unknown", "  test_thing.a[0] unknown"},
		},
		{
			name: "a check block -target leaves out is unknown",
			opts: &PlanOpts{Targets: []addrs.Targetable{mustInst(t, "test_thing.a[0]")}},
			checks: []string{"check |c unknown",
				"resource |test_thing.a pass", "  test_thing.a[0] pass"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, map[string]string{"main.tf": post})
			p := newTestProvider()
			if tc.setup != nil {
				tc.setup(p)
			}
			plan, diags := testContext(t, p, 2).Plan(context.Background(), cfg, thingState(t, tc.state), tc.opts)
			if d := cmp.Diff(tc.diags, diagLines(diags)); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.checks, checkLines(plan.Checks)); d != "" {
				t.Errorf("checks (-want +got):\n%s", d)
			}
		})
	}
}

// TestValidateConditions: validation reports errors in the conditions'
// expressions but judges none (values are unknown).
func TestValidateConditions(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		diags []string
	}{
		{
			name: "conditions with unknown values are not judged",
			src: `variable "x" {}
resource "test_thing" "a" {
  lifecycle {
    precondition {
      condition     = var.x == "y"
      error_message = "x"
    }
    postcondition {
      condition     = self.id == "y"
      error_message = "x"
    }
  }
}
output "o" {
  value = 1
  precondition {
    condition     = var.x == "y"
    error_message = "x"
  }
}
check "c" {
  assert {
    condition     = test_thing.a.id == "y"
    error_message = "x"
  }
}`,
		},
		{
			name: "undeclared references in conditions",
			src: `resource "test_thing" "a" {
  lifecycle {
    postcondition {
      condition     = self.id == var.nope
      error_message = "x"
    }
  }
}
check "c" {
  assert {
    condition     = test_thing.b.id == "y"
    error_message = "x"
  }
}`,
			diags: []string{
				`error main.tf:11: Reference to undeclared resource: A resource "test_thing.b" has not been declared in the root module. Declare it, or fix the reference.`,
				`error main.tf:4: Reference to undeclared input variable: An input variable named "nope" has not been declared in the root module. Declare it with a variable block.`,
			},
		},
		{
			name: "errors in error messages show before any condition fails",
			src: `variable "x" {}
output "o" {
  value = 1
  precondition {
    condition     = var.x != ""
    error_message = "Bad ${var.nope}."
  }
}`,
			diags: []string{`error main.tf:6: Reference to undeclared input variable: An input variable named "nope" has not been declared in the root module. Declare it with a variable block.`},
		},
		{
			name: "self in a precondition",
			src: `resource "test_thing" "a" {
  lifecycle {
    precondition {
      condition     = self.id != ""
      error_message = "x"
    }
  }
}`,
			diags: []string{`error main.tf:4: Invalid "self" reference: The "self" object is available only inside provisioner, connection and postcondition blocks, where it refers to the resource instance being configured or checked. Elsewhere, refer to the resource by its address.`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, map[string]string{"main.tf": tc.src})
			diags := testContext(t, newTestProvider(), 2).Validate(cfg)
			got := diagLines(diags)
			sort.Strings(got) // nodes run in parallel
			if d := cmp.Diff(tc.diags, got); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s", d)
			}
		})
	}
}

// TestRefreshOnlyApplyJudgesNoCondition: applying a refresh-only plan
// records the refreshed objects; the postcondition that warned when
// planning is not turned into an error (the plan has no changes to
// check, as in Terraform).
func TestRefreshOnlyApplyJudgesNoCondition(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `resource "test_thing" "a" {
  name = "a"
  lifecycle {
    postcondition {
      condition     = self.name == "a"
      error_message = "Name is ${self.name}."
    }
  }
}`})
	p := newTestProvider()
	p.Drift = func(req providers.ReadResourceRequest) cty.Value {
		m := req.PriorState.AsValueMap()
		m["name"] = cty.StringVal("drifted")
		return cty.ObjectVal(m)
	}
	c := testContext(t, p, 2)
	plan, diags := c.Plan(context.Background(), cfg, thingState(t, map[string]string{"test_thing.a": thing("A", "a")}), &PlanOpts{Mode: plans.RefreshOnlyMode})
	if d := cmp.Diff([]string{"warning main.tf:5: Resource postcondition failed: Name is drifted."}, diagLines(diags)); d != "" {
		t.Fatalf("plan diagnostics (-want +got):\n%s", d)
	}
	st, diags := c.Apply(context.Background(), roundTripPlan(t, plan), cfg, nil)
	if len(diags) > 0 {
		t.Fatalf("apply: %s", diagsString(diags))
	}
	if got := string(st.ResourceInstance(mustInst(t, "test_thing.a")).Current.AttrsJSON); !strings.Contains(got, `"drifted"`) {
		t.Errorf("refreshed object not recorded: %s", got)
	}
}

// TestChecksOfModulesWithoutInstances: the checkable objects of a module
// called with count = 0 pass with no instances, as in Terraform.
func TestChecksOfModulesWithoutInstances(t *testing.T) {
	cfg := loadConfig(t, map[string]string{
		"main.tf": `module "m" {
  source = "./m"
  count  = 0
}`,
		"m/main.tf": `resource "test_thing" "a" {
  lifecycle {
    postcondition {
      condition     = self.id != ""
      error_message = "x"
    }
  }
}
output "o" {
  value = 1
  precondition {
    condition     = test_thing.a.id != ""
    error_message = "x"
  }
}
check "c" {
  assert {
    condition     = test_thing.a.id != ""
    error_message = "x"
  }
}`})
	plan := mustPlan(t, testContext(t, newTestProvider(), 2), cfg, nil, nil)
	want := []string{"check module.m|c pass", "output module.m|o pass", "resource module.m|test_thing.a pass"}
	if d := cmp.Diff(want, checkLines(plan.Checks)); d != "" {
		t.Errorf("checks (-want +got):\n%s", d)
	}
}
