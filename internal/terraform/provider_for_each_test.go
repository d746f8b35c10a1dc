package terraform_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// TestProviderForEach runs OpenTofu's provider for_each through plan,
// apply (the state through the v4 file between steps), a re-plan with no
// changes, a key removed (its object destroyed by the instance its state
// recorded) and destroy. The written state names each instance's
// provider instance as OpenTofu writes it.
func TestProviderForEach(t *testing.T) {
	dir := t.TempDir()
	config := func(keys string) string {
		return `
variable "keys" {
  default = ` + keys + `
}
provider "null" {
  alias    = "by"
  for_each = toset(var.keys)
}
resource "null_resource" "r" {
  for_each = toset(var.keys)
  provider = null.by[each.key]
  triggers = { k = each.key }
}
resource "null_resource" "fixed" {
  provider = null.by["a"]
}
`
	}
	c, diags := terraform.NewContext(&terraform.ContextOpts{Providers: builtin.FactoriesIn(dir), WorkingDir: dir})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	writeFile(t, dir+"/main.tf", config(`["a", "b"]`))
	cfg := loadCompatConfig(t, dir)
	sf := &statefile.File{Lineage: "l", State: states.NewState()}
	plan := compatPlan(t, c, cfg, sf, dir, nil, plans.NormalMode)
	if d := cmp.Diff(map[string]string{`null_resource.r["a"]`: "Create", `null_resource.r["b"]`: "Create", "null_resource.fixed": "Create"}, actionsOf(plan)); d != "" {
		t.Fatalf("first plan (-want +got):\n%s", d)
	}
	sf = compatApply(t, c, cfg, plan, sf)
	var buf bytes.Buffer
	if err := statefile.Write(sf, &buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"provider": "provider[\"registry.terraform.io/hashicorp/null\"].by[\"a\"]"`,
		`"provider": "provider[\"registry.terraform.io/hashicorp/null\"].by[\"b\"]"`,
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("state lacks %s:\n%s", want, buf.String())
		}
	}
	r := sf.State.Resource(addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "r"}.Absolute(nil))
	if r == nil || r.Instances[addrs.StringKey("b")].ProviderKey != addrs.StringKey("b") {
		t.Fatalf("instance b's provider key not recorded: %+v", r)
	}
	compatNoChanges(t, c, cfg, sf, dir, nil, "after apply")

	// Drop key b: its object is destroyed by the b instance the state names
	// (still configured here through the provider's own for_each).
	writeFile(t, dir+"/main.tf", strings.Replace(config(`["a", "b"]`), "for_each = toset(var.keys)\n  provider = null.by[each.key]", "for_each = toset([\"a\"])\n  provider = null.by[each.key]", 1))
	cfg = loadCompatConfig(t, dir)
	plan = compatPlan(t, c, cfg, sf, dir, nil, plans.NormalMode)
	if d := cmp.Diff(map[string]string{`null_resource.r["b"]`: "Delete"}, actionsOf(plan)); d != "" {
		t.Fatalf("plan without b (-want +got):\n%s", d)
	}
	sf = compatApply(t, c, cfg, plan, sf)
	plan = compatPlan(t, c, cfg, sf, dir, nil, plans.DestroyMode)
	sf = compatApply(t, c, cfg, plan, sf)
	if insts := sf.State.AllResourceInstances(); len(insts) != 0 {
		t.Errorf("after destroy: %v", insts)
	}
}

// TestProviderForEachThroughModule: a module called with for_each gets one
// provider instance per call instance through its providers map
// (providers = { null = null.by[each.key] }), as OpenTofu's documentation
// shows for per-region modules.
func TestProviderForEachThroughModule(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/main.tf", `
locals {
  regions = toset(["eu", "us"])
}
provider "null" {
  alias    = "by"
  for_each = local.regions
}
module "site" {
  source    = "./site"
  for_each  = local.regions
  providers = { null = null.by[each.key] }
}
`)
	writeFile(t, dir+"/site/main.tf", `
resource "null_resource" "a" {}
resource "null_resource" "b" {
  count = 2
}
`)
	c, diags := terraform.NewContext(&terraform.ContextOpts{Providers: builtin.FactoriesIn(dir), WorkingDir: dir})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	cfg := loadCompatConfig(t, dir)
	sf := &statefile.File{Lineage: "l", State: states.NewState()}
	plan := compatPlan(t, c, cfg, sf, dir, nil, plans.NormalMode)
	if got := len(actionsOf(plan)); got != 6 {
		t.Fatalf("first plan: %v", actionsOf(plan))
	}
	sf = compatApply(t, c, cfg, plan, sf)
	for _, mi := range sf.State.ModuleInstances() {
		for _, r := range sf.State.Module(mi).Resources {
			region := addrs.StringKey(strings.TrimSuffix(strings.TrimPrefix(mi.String(), `module.site["`), `"]`))
			for k, ri := range r.Instances {
				if ri.ProviderKey != region {
					t.Errorf("%s: provider key %v, want %v", r.Addr.Instance(k), ri.ProviderKey, region)
				}
			}
		}
	}
	compatNoChanges(t, c, cfg, sf, dir, nil, "after apply")
	plan = compatPlan(t, c, cfg, sf, dir, nil, plans.DestroyMode)
	sf = compatApply(t, c, cfg, plan, sf)
	if insts := sf.State.AllResourceInstances(); len(insts) != 0 {
		t.Errorf("after destroy: %v", insts)
	}
}
