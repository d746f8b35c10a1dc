package terraform

import (
	"fmt"
	"strings"
	"testing"
)

func TestPlanDataDeferredThroughIndirectDependencies(t *testing.T) {
	const mod = `
variable "v" {
  type    = string
  default = "m"
}
resource "test_thing" "r" { name = "new" }
output "out" { value = test_thing.r.name }
data "test_data" "inner" { input = var.v }
`
	tests := []struct {
		name    string
		files   map[string]string
		state   map[string]string
		addr    string
		pending bool
	}{
		{
			name: "through a local",
			files: map[string]string{"main.tf": `
resource "test_thing" "a" { name = "new" }
locals { x = test_thing.a.name }
data "test_data" "d" { input = local.x }`},
			state: map[string]string{"test_thing.a": thing("A", "old")}, addr: "data.test_data.d", pending: true,
		},
		{
			name: "through a chain of locals",
			files: map[string]string{"main.tf": `
resource "test_thing" "a" { name = "new" }
locals {
  x = test_thing.a.name
  y = upper(local.x)
  z = "${local.y}-z"
}
data "test_data" "d" { input = local.z }`},
			state: map[string]string{"test_thing.a": thing("A", "old")}, addr: "data.test_data.d", pending: true,
		},
		{
			name:  "through a module output",
			files: map[string]string{"main.tf": `module "m" { source = "./m" }` + "\n" + `data "test_data" "d" { input = module.m.out }`, "m/main.tf": mod},
			state: map[string]string{"module.m.test_thing.r": thing("R", "old")}, addr: "data.test_data.d", pending: true,
		},
		{
			name: "through a module variable",
			files: map[string]string{"main.tf": `
resource "test_thing" "a" { name = "new" }
module "m" {
  source = "./m"
  v      = test_thing.a.name
}`, "m/main.tf": mod},
			state: map[string]string{"test_thing.a": thing("A", "old"), "module.m.test_thing.r": thing("R", "new")}, addr: "module.m.data.test_data.inner", pending: true,
		},
		{
			name: "through the module call's depends_on",
			files: map[string]string{"main.tf": `
resource "test_thing" "a" { name = "new" }
module "m" {
  source     = "./m"
  depends_on = [test_thing.a]
}`, "m/main.tf": mod},
			state: map[string]string{"test_thing.a": thing("A", "old"), "module.m.test_thing.r": thing("R", "new")}, addr: "module.m.data.test_data.inner", pending: true,
		},
		{
			name: "a local not depending on the change",
			files: map[string]string{"main.tf": `
resource "test_thing" "a" { name = "new" }
locals { x = "constant" }
data "test_data" "d" { input = local.x }`},
			state: map[string]string{"test_thing.a": thing("A", "old")}, addr: "data.test_data.d", pending: false,
		},
		{
			name: "a local on a resource without changes",
			files: map[string]string{"main.tf": `
resource "test_thing" "a" { name = "same" }
locals { x = test_thing.a.name }
data "test_data" "d" { input = local.x }`},
			state: map[string]string{"test_thing.a": thing("A", "same")}, addr: "data.test_data.d", pending: false,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, tc.files)
			plan := mustPlan(t, testContext(t, newTestProvider(), 4), cfg, thingState(t, tc.state), nil)
			c, ok := renderChanges(plan.Changes.Resources)[tc.addr]
			if tc.pending {
				if !ok || c.Action != "Read" || c.Reason != "ReadBecauseDependencyPending" {
					t.Errorf("%s = %+v, want a read deferred because a dependency is pending", tc.addr, c)
				}
				return
			}
			if ok {
				t.Errorf("%s planned as %+v, want it read during the plan", tc.addr, c)
			}
			if plan.PriorState.ResourceInstance(mustInst(t, tc.addr)) == nil {
				t.Errorf("%s not read during the plan", tc.addr)
			}
		})
	}
}

// TestPlanDataChainLinear checks that deciding data source deferral stays
// linear on a chain of data sources each behind a local (a search of the
// ancestors per data source would be quadratic). Skipped in -short mode.
func TestPlanDataChainLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	timeOf := func(n int) float64 {
		var b strings.Builder
		b.WriteString("resource \"test_thing\" \"a\" { name = \"new\" }\nlocals { l0 = test_thing.a.name }\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "data \"test_data\" \"d%d\" { input = local.l%d }\nlocals { l%d = data.test_data.d%d.input }\n", i, i-1, i, i)
		}
		cfg := loadConfig(t, map[string]string{"main.tf": b.String()})
		c := testContext(t, newTestProvider(), 4)
		st := thingState(t, map[string]string{"test_thing.a": thing("A", "old")})
		return allocsOf(func() {
			mustPlan(t, c, cfg, st, nil)
		})
	}
	small, large := timeOf(250), timeOf(1000)
	ratio := large / small
	t.Logf("allocations grew %.1fx", ratio)
	if ratio > 10 {
		t.Errorf("a chain of 1000 data sources took %.1fx a chain of 250 (want ≤ 10x: linear is 4x, quadratic 16x)", ratio)
	}
}
