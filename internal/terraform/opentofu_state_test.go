package terraform_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states/statefile"
)

// TestOpenTofuProviderAddresses plans and applies over states naming the
// providers by the other public registry's host: OpenTofu writes
// registry.opentofu.org/hashicorp/null where plankit's configuration
// implies registry.terraform.io/hashicorp/null, and a configuration may
// name OpenTofu's address over a Terraform state. Both are the built-ins;
// the objects already in the state keep the address they had, so the tool
// that wrote the state still reads it as its own.
func TestOpenTofuProviderAddresses(t *testing.T) {
	const tofu = `provider[\"registry.opentofu.org/hashicorp/%s\"]`
	const tf = `provider[\"registry.terraform.io/hashicorp/%s\"]`
	res := func(typ, name, provider, attrs string) string {
		return `{"mode":"managed","type":"` + typ + `","name":"` + name + `","provider":"` + strings.ReplaceAll(provider, "%s", strings.SplitN(typ, "_", 2)[0]) + `","instances":[{"schema_version":0,"attributes":` + attrs + `,"sensitive_attributes":[]}]}`
	}
	state := func(rs ...string) string {
		return `{"version":4,"terraform_version":"1.12.6","serial":3,"lineage":"l","outputs":{},"resources":[` + strings.Join(rs, ",") + `],"check_results":null}`
	}
	tests := []struct {
		name   string
		config string
		state  string
		// want is the first plan's actions; after applying it, providers
		// is every resource's provider in the written state.
		want      map[string]string
		providers map[string]string
		// planHost is the host of every planned change's provider: the
		// configuration's, orphans included (they share its provider).
		planHost string
	}{
		{
			name: "OpenTofu state, implied providers",
			config: `
resource "null_resource" "a" {
  triggers = { v = "1" }
}
resource "random_pet" "p" {
  keepers = { k = null }
}
resource "null_resource" "b" {}
`,
			state: state(
				res("null_resource", "a", tofu, `{"id":"1","triggers":{"v":"1"}}`),
				res("null_resource", "c", tofu, `{"id":"2","triggers":null}`),
				res("random_pet", "p", tofu, `{"id":"fast-puffin","keepers":null,"length":2,"prefix":null,"separator":"-"}`),
			),
			want: map[string]string{"null_resource.b": "Create", "null_resource.c": "Delete", "random_pet.p": "Update"},
			providers: map[string]string{
				"null_resource.a": `provider["registry.opentofu.org/hashicorp/null"]`,
				"null_resource.b": `provider["registry.terraform.io/hashicorp/null"]`,
				"random_pet.p":    `provider["registry.opentofu.org/hashicorp/random"]`,
			},
			planHost: "registry.terraform.io",
		},
		{
			name: "OpenTofu state, provider under another local name",
			config: `
terraform {
  required_providers {
    mynull = { source = "hashicorp/null" }
  }
}
provider "mynull" {}
resource "null_resource" "a" {
  provider = mynull
}
`,
			state: state(
				res("null_resource", "a", tofu, `{"id":"1","triggers":null}`),
				res("null_resource", "gone", tofu, `{"id":"2","triggers":null}`),
			),
			want:      map[string]string{"null_resource.gone": "Delete"},
			providers: map[string]string{"null_resource.a": `provider["registry.opentofu.org/hashicorp/null"]`},
			planHost:  "registry.terraform.io",
		},
		{
			name: "OpenTofu state, replaced objects keep the address",
			config: `
resource "null_resource" "a" {
  triggers = { v = "2" }
}
resource "null_resource" "cbd" {
  triggers = { v = "2" }
  lifecycle {
    create_before_destroy = true
  }
}`,
			state: state(
				res("null_resource", "a", tofu, `{"id":"1","triggers":{"v":"1"}}`),
				res("null_resource", "cbd", tofu, `{"id":"2","triggers":{"v":"1"}}`),
			),
			want: map[string]string{"null_resource.a": "DeleteThenCreate", "null_resource.cbd": "CreateThenDelete"},
			providers: map[string]string{
				"null_resource.a":   `provider["registry.opentofu.org/hashicorp/null"]`,
				"null_resource.cbd": `provider["registry.opentofu.org/hashicorp/null"]`,
			},
			planHost: "registry.terraform.io",
		},
		{
			name: "Terraform state, configuration names OpenTofu's registry",
			config: `
terraform {
  required_providers {
    null = { source = "registry.opentofu.org/hashicorp/null" }
  }
}
resource "null_resource" "a" {}
resource "null_resource" "b" {}
`,
			state: state(res("null_resource", "a", tf, `{"id":"1","triggers":null}`)),
			want:  map[string]string{"null_resource.b": "Create"},
			providers: map[string]string{
				"null_resource.a": `provider["registry.terraform.io/hashicorp/null"]`,
				"null_resource.b": `provider["registry.opentofu.org/hashicorp/null"]`,
			},
			planHost: "registry.opentofu.org",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir+"/main.tf", tt.config)
			sf, err := statefile.Read(strings.NewReader(tt.state))
			if err != nil {
				t.Fatal(err)
			}
			c, diags := terraform.NewContext(&terraform.ContextOpts{Providers: builtin.FactoriesIn(dir), WorkingDir: dir})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			cfg := loadCompatConfig(t, dir)
			plan := compatPlan(t, c, cfg, sf, dir, nil, plans.NormalMode)
			if d := cmp.Diff(tt.want, actionsOf(plan)); d != "" {
				t.Fatalf("plan (-want +got):\n%s", d)
			}
			for _, rc := range plan.Changes.Resources {
				if h := rc.ProviderAddr.Provider.Hostname; h != tt.planHost {
					t.Errorf("%s is planned with %s, want the configuration's %s", rc.Addr, rc.ProviderAddr, tt.planHost)
				}
			}
			sf = compatApply(t, c, cfg, plan, sf)
			got := map[string]string{}
			for _, r := range sf.State.RootModule().Resources {
				got[r.Addr.String()] = r.ProviderConfig.String()
			}
			if d := cmp.Diff(tt.providers, got); d != "" {
				t.Errorf("providers in the applied state (-want +got):\n%s", d)
			}
			var buf bytes.Buffer
			if err := statefile.Write(sf, &buf); err != nil {
				t.Fatal(err)
			}
			for _, p := range tt.providers {
				if q := strings.ReplaceAll(p, `"`, `\"`); !strings.Contains(buf.String(), q) {
					t.Errorf("written state lacks %s:\n%s", q, buf.String())
				}
			}
			compatNoChanges(t, c, cfg, sf, dir, nil, "after apply")
		})
	}
}

// TestSkipDestroyOrphanRefused: an object OpenTofu marked skip_destroy
// (lifecycle { destroy = false }) whose resource block is gone is not
// planned for destruction (OpenTofu would forget it): the plan is an
// error saying so, in normal and destroy mode.
func TestSkipDestroyOrphanRefused(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/main.tf", `resource "null_resource" "other" {}`)
	sf, err := statefile.Read(strings.NewReader(`{"version":4,"terraform_version":"1.12.6","serial":1,"lineage":"l","outputs":{},"resources":[
{"mode":"managed","type":"null_resource","name":"keep","provider":"provider[\"registry.opentofu.org/hashicorp/null\"]","instances":[
 {"schema_version":0,"attributes":{"id":"1","triggers":null},"sensitive_attributes":[],"skip_destroy":true}]}],"check_results":null}`))
	if err != nil {
		t.Fatal(err)
	}
	c, diags := terraform.NewContext(&terraform.ContextOpts{Providers: builtin.FactoriesIn(dir), WorkingDir: dir})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	cfg := loadCompatConfig(t, dir)
	for _, mode := range []plans.Mode{plans.NormalMode, plans.DestroyMode} {
		_, diags := c.Plan(context.Background(), cfg, sf.State, &terraform.PlanOpts{Mode: mode})
		if !diags.HasErrors() || !strings.Contains(diagsText(diags), "null_resource.keep is marked skip_destroy") {
			t.Errorf("%s: want the skip_destroy error, got %q", mode, diagsText(diags))
		}
	}
}
