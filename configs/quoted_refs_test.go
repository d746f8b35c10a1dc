package configs

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// TestQuotedReferences: the pre-0.12 quoted forms of static references
// and keywords still work, each with a deprecation warning at its place,
// as in Terraform and OpenTofu.
func TestQuotedReferences(t *testing.T) {
	cfg, diags := loadInline(t, map[string]string{
		"main.tf": `
provider "null" {
  alias = "foo"
}
resource "null_resource" "a" {}
resource "null_resource" "b" {
  depends_on = ["null_resource.a", module.m]
  provider   = "null.foo"
  lifecycle {
    ignore_changes = ["triggers"]
  }
  provisioner "local-exec" {
    command    = "true"
    when       = "destroy"
    on_failure = "continue"
  }
}
module "m" {
  source    = "./m"
  providers = { null = "null.foo" }
}
`,
		"m/main.tf": `resource "null_resource" "c" {}`,
	})
	if diags.HasErrors() {
		t.Fatalf("errors: %s", diags.Error())
	}
	want := []string{
		"main.tf:10: Quoted references are deprecated",
		"main.tf:14: Quoted keywords are deprecated",
		"main.tf:15: Quoted keywords are deprecated",
		"main.tf:20: Quoted references are deprecated",
		"main.tf:7: Quoted references are deprecated",
		"main.tf:8: Quoted references are deprecated",
	}
	for _, d := range diags {
		if d.Severity != hcl.DiagWarning {
			t.Errorf("not a warning: %s", d.Summary)
		}
	}
	got := diagSummaries(diags)
	sort.Strings(got)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
	r := cfg.Module.ManagedResources["null_resource.b"]
	var deps []string
	for _, tr := range r.DependsOn {
		deps = append(deps, traversalString(tr))
	}
	if d := cmp.Diff([]string{"null_resource.a", "module.m"}, deps); d != "" {
		t.Errorf("depends_on (-want +got):\n%s", d)
	}
	if got := r.ProviderConfigAddr().String(); got != "null.foo" {
		t.Errorf("provider = %s, want null.foo", got)
	}
	if len(r.Managed.IgnoreChanges) != 1 || traversalString(r.Managed.IgnoreChanges[0]) != "triggers" {
		t.Errorf("ignore_changes = %v", r.Managed.IgnoreChanges)
	}
	if p := r.Managed.Provisioners[0]; p.When != ProvisionerWhenDestroy || p.OnFailure != ProvisionerOnFailureContinue {
		t.Errorf("provisioner when/on_failure = %v/%v", p.When, p.OnFailure)
	}
	pp := cfg.Module.ModuleCalls["m"].Providers
	if len(pp) != 1 || pp[0].InParent.String() != "null.foo" || pp[0].InChild.String() != "null" {
		t.Errorf("providers map = %+v", pp)
	}
}
