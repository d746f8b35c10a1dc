package configs

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// TestDeprecated: OpenTofu's deprecated argument on outputs and variables
// is accepted; a use of a deprecated child output (by attribute or the
// whole module) and a module argument setting a deprecated variable warn
// at the use; a root output's deprecation warns nobody; an empty message
// is an error.
func TestDeprecated(t *testing.T) {
	cfg, diags := loadInline(t, map[string]string{
		"main.tf": `
module "m" {
  source = "./m"
  old_in = "x"
  new_in = "y"
}
locals {
  a = module.m.old
  b = module.m.new
  c = module.m
}
resource "null_resource" "r" {
  triggers = { v = module.m.old }
}
output "root" {
  value      = local.b
  deprecated = "root outputs can be deprecated too"
}`,
		"m/main.tf": `
variable "old_in" {
  default    = ""
  deprecated = "use new_in"
}
variable "new_in" {
  default = ""
}
output "old" {
  value      = 1
  deprecated = "use new instead"
}
output "new" {
  value = 2
}`,
	})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var got []string
	for _, d := range diags {
		if d.Severity != hcl.DiagWarning {
			t.Errorf("not a warning: %s", d.Summary)
		}
		got = append(got, diagPlace(d)+": "+d.Summary+": "+strings.ReplaceAll(d.Detail, "\n", " "))
	}
	sort.Strings(got)
	want := []string{
		"main.tf:10: Value derived from a deprecated source: This value is derived from module.m.old, which is deprecated with the following message:  use new instead",
		"main.tf:13: Value derived from a deprecated source: This value is derived from module.m.old, which is deprecated with the following message:  use new instead",
		`main.tf:4: Variable marked as deprecated by the module author: Variable "old_in" of module "m" is marked as deprecated with the following message: use new_in`,
		"main.tf:8: Value derived from a deprecated source: This value is derived from module.m.old, which is deprecated with the following message:  use new instead",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("warnings (-want +got):\n%s", d)
	}
	if got := cfg.Children["m"].Module.Outputs["old"].Deprecated; got != "use new instead" {
		t.Errorf("Deprecated = %q", got)
	}
	if got := cfg.Children["m"].Module.Variables["old_in"].Deprecated; got != "use new_in" {
		t.Errorf("variable Deprecated = %q", got)
	}

	_, diags = loadInline(t, map[string]string{"main.tf": "output \"o\" {\n  value      = 1\n  deprecated = \" \"\n}"})
	if d := cmp.Diff([]string{"main.tf:3: Invalid deprecated message"}, diagSummaries(diags)); d != "" {
		t.Errorf("empty message (-want +got):\n%s", d)
	}
}
