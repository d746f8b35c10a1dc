package plugin_test

import (
	"context"
	"testing"

	"github.com/plankit/plankit/providers/plugin"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/terraform"
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
