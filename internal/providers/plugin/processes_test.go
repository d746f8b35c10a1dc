package plugin_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/plankit/plankit/internal/providers/plugin"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/states"
)

// TestOneProcessPerProviderConfiguration: a plan and an apply, each with a
// Context of its own (as the plan and apply commands have), start one
// process per provider configuration whatever the number of resources:
// the process that answered GetProviderSchema is the one the walk
// configures, not a second one. Every process is gone when the operation
// returns.
func TestOneProcessPerProviderConfiguration(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want int64
	}{
		{"one configuration per provider", `
terraform {
  required_providers {
    fwtest  = { source = "plankit/fwtest" }
    sdktest = { source = "plankit/sdktest" }
  }
}
resource "fwtest_thing" "a" {
  count = 5
  name  = "a${count.index}"
}
resource "sdktest_thing" "b" {
  count = 3
  name  = "b${count.index}"
}
`, 2},
		{"an aliased configuration is a process of its own", `
terraform {
  required_providers {
    fwtest = { source = "plankit/fwtest" }
  }
}
provider "fwtest" {}
provider "fwtest" {
  alias = "two"
}
resource "fwtest_thing" "a" {
  count = 4
  name  = "a${count.index}"
}
resource "fwtest_thing" "b" {
  provider = fwtest.two
  count    = 4
  name     = "b${count.index}"
}
`, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newCoreFixture(t)
			cfg := f.config(tc.src)
			before := plugin.ProcessesStarted()
			p, diags := f.newContext().Plan(context.Background(), cfg, states.NewState(), &terraform.PlanOpts{})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if got := plugin.ProcessesStarted() - before; got != tc.want {
				t.Errorf("plan started %d provider processes, want %d", got, tc.want)
			}
			if n := plugin.LiveProcesses(); n != 0 {
				t.Errorf("%d provider processes still running after the plan", n)
			}
			before = plugin.ProcessesStarted()
			if _, diags := f.newContext().Apply(context.Background(), p, cfg, nil); diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if got := plugin.ProcessesStarted() - before; got != tc.want {
				t.Errorf("apply started %d provider processes, want %d", got, tc.want)
			}
			if n := plugin.LiveProcesses(); n != 0 {
				t.Errorf("%d provider processes still running after the apply", n)
			}
		})
	}
}

// TestRawProvider drives the benchmarks' provider (terraform-plugin-go
// alone) through a plan, an apply and a second plan, which finds no
// changes: the benchmark measures a provider that works.
func TestRawProvider(t *testing.T) {
	f := newCoreFixture(t)
	cfg := f.config(benchConfig("rawtest", 3))
	p, st := f.mustPlanApply(cfg, states.NewState())
	for addr, a := range actions(p) {
		if a != "Create" {
			t.Errorf("%s: %s, want Create", addr, a)
		}
	}
	if len(actions(p)) != 3 {
		t.Errorf("planned %v, want 3 creates", actions(p))
	}
	again, diags := f.newContext().Plan(context.Background(), cfg, st, &terraform.PlanOpts{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for addr, a := range actions(again) {
		if a != "NoOp" {
			t.Errorf("second plan: %s: %s, want NoOp", addr, a)
		}
	}
}

// benchConfig is n resources of kind: "rawtest" (terraform-plugin-go
// alone: the cheapest calls a provider can answer), "fwtest"
// (terraform-plugin-framework) or "terraform_data" (in process). Every
// instance has its own configuration, so each is validated, planned and
// applied on its own.
func benchConfig(kind string, n int) string {
	switch kind {
	case "terraform_data":
		return fmt.Sprintf("resource \"terraform_data\" \"x\" {\n  count = %d\n  input = \"v${count.index}\"\n}\n", n)
	default:
		return fmt.Sprintf(`terraform {
  required_providers {
    %[1]s = { source = "plankit/%[1]s" }
  }
}
resource "%[1]s_thing" "x" {
  count = %[2]d
  name  = "n${count.index}"
  value = "v"
}
`, kind, n)
	}
}
