package terraform

import (
	"context"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
)

// TestPlanTargetCountedModule: -target=module.m on a module with count
// plans every instance of the module, as in Terraform; module.m[1] only
// that module instance, including the dependencies inside it.
func TestPlanTargetCountedModule(t *testing.T) {
	cfg := loadConfig(t, map[string]string{
		"main.tf": `
module "m" {
  source = "./mod"
  count  = 2
}
resource "test_thing" "root" { name = "root" }`,
		"mod/main.tf": `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = test_thing.a.id }`,
	})
	tests := []struct {
		target string
		want   []string
	}{
		{"module.m", []string{"module.m[0].test_thing.a", "module.m[0].test_thing.b", "module.m[1].test_thing.a", "module.m[1].test_thing.b"}},
		{"module.m[1]", []string{"module.m[1].test_thing.a", "module.m[1].test_thing.b"}},
		// An instance target limits only the block it names: the block it
		// depends on is planned whole.
		{"module.m[0].test_thing.b", []string{"module.m[0].test_thing.a", "module.m[0].test_thing.b", "module.m[1].test_thing.a"}},
		{"module.m[1].test_thing.a", []string{"module.m[1].test_thing.a"}},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			tgt, diags := addrs.ParseTargetStr(tt.target)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			c := testContext(t, newTestProvider(), 0)
			plan := mustPlan(t, c, cfg, nil, &PlanOpts{Targets: []addrs.Targetable{tgt.Subject}})
			var got []string
			for _, rc := range plan.Changes.Resources {
				if rc.Action.String() != "NoOp" {
					got = append(got, rc.Addr.String())
				}
			}
			sort.Strings(got)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("planned (-want +got):\n%s", d)
			}
			st, diags := c.Apply(context.Background(), plan, cfg, nil)
			if diags.HasErrors() {
				t.Fatalf("apply: %s", diags.Error())
			}
			if d := cmp.Diff(tt.want, stateNames(st)); d != "" {
				t.Errorf("applied (-want +got):\n%s", d)
			}
		})
	}
}
