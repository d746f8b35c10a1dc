package terraform_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// TestPlanningMatchesOpenTofu holds the planning differences found by
// running OpenTofu 1.12 and plankit side by side on the same
// configurations (issue 11): each case is planned from an empty state,
// or from the state a first configuration's apply left, and checked
// against what OpenTofu and Terraform plan.
func TestPlanningMatchesOpenTofu(t *testing.T) {
	tests := []struct {
		name string
		// before, if set, is planned and applied first; config is then
		// planned against the resulting state.
		before, config string
		files          map[string]string
		vars           map[string]cty.Value
		// wantErr are substrings of the plan's error diagnostics (none
		// when empty); want are its non-NoOp actions otherwise.
		wantErr []string
		want    map[string]string
		// outputs are root output values the plan must have.
		outputs map[string]cty.Value
		// warnings are substrings of the plan's warnings.
		warnings []string
	}{
		{
			name: "null_resource triggers gaining null values updates in place",
			before: `
resource "null_resource" "a" {
  triggers = {}
}
resource "null_resource" "b" {}`,
			config: `
resource "null_resource" "a" {
  triggers = { key = null }
}
resource "null_resource" "b" {
  triggers = { key = null }
}`,
			want: map[string]string{"null_resource.a": "Update", "null_resource.b": "Update"},
		},
		{
			name: "random_password with every character class disabled is a plan error",
			config: `
resource "random_password" "p" {
  length  = 8
  upper   = false
  lower   = false
  numeric = false
  special = false
}`,
			wantErr: []string{"Invalid Attribute Combination", "numeric"},
		},
		{
			name: "a nullable variable given null is null",
			config: `
variable "v" {
  default = "d"
}
variable "strict" {
  default  = "d"
  nullable = false
}
module "m" {
  source = "./m"
  in     = null
}
output "v" { value = var.v == null ? "null" : var.v }
output "strict" { value = var.strict }
output "m" { value = module.m.out }`,
			files: map[string]string{"m/main.tf": `
variable "in" {
  default = "child default"
}
output "out" { value = var.in == null ? "null" : var.in }`},
			vars:    map[string]cty.Value{"v": cty.NullVal(cty.String), "strict": cty.NullVal(cty.String)},
			want:    map[string]string{},
			outputs: map[string]cty.Value{"v": cty.StringVal("null"), "strict": cty.StringVal("d"), "m": cty.StringVal("null")},
		},
		{
			name: "setting a deprecated root variable warns and works",
			config: `
variable "old" {
  default    = "d"
  deprecated = "use new"
}
output "o" { value = var.old }`,
			vars:     map[string]cty.Value{"old": cty.StringVal("x")},
			want:     map[string]string{},
			outputs:  map[string]cty.Value{"o": cty.StringVal("x")},
			warnings: []string{"Deprecated variable used from the root module"},
		},
		{
			name: "an output of a sensitive resource attribute must be declared sensitive",
			config: `
resource "random_password" "p" {
  length = 8
}
output "o" { value = { pw = random_password.p.result } }`,
			wantErr: []string{"Output refers to sensitive values"},
		},
		{
			name: "a module output of a sensitive value need not be declared sensitive (only root outputs are stored)",
			config: `
module "m" {
  source = "./m"
}`,
			files: map[string]string{"m/main.tf": `
variable "secret" {
  default   = "s"
  sensitive = true
}
output "o" { value = "prefix-${var.secret}" }`},
			want: map[string]string{},
		},
		{
			name: "pre-0.12 quoted references still work",
			config: `
provider "null" {
  alias = "foo"
}
resource "null_resource" "a" {}
resource "null_resource" "b" {
  depends_on = ["null_resource.a"]
  provider   = "null.foo"
}`,
			want: map[string]string{"null_resource.a": "Create", "null_resource.b": "Create"},
		},
		{
			name: "terraform_data output is an unknown of the input's type when the input changes",
			before: `
resource "terraform_data" "d" {
  input = "x"
}`,
			config: `
resource "terraform_data" "d" {
  input = { a = "y", n = 1 }
}
output "a" { value = terraform_data.d.output.a }
output "n" { value = terraform_data.d.output.n + 1 }`,
			want:    map[string]string{"terraform_data.d": "Update"},
			outputs: map[string]cty.Value{"a": cty.UnknownVal(cty.String), "n": cty.UnknownVal(cty.Number).RefineNotNull()},
		},
		{
			name: "terraform_data output keeps the input's type when replaced or when the input is unknown",
			before: `
resource "terraform_data" "d" {
  input            = { a = "x" }
  triggers_replace = 1
}`,
			config: `
resource "random_id" "r" {
  byte_length = 2
}
resource "terraform_data" "d" {
  input            = { a = "x" }
  triggers_replace = 2
}
resource "terraform_data" "u" {
  input = [random_id.r.hex]
}
output "a" { value = terraform_data.d.output.a }
output "u" { value = terraform_data.u.output[0] }`,
			want:    map[string]string{"random_id.r": "Create", "terraform_data.d": "DeleteThenCreate", "terraform_data.u": "Create"},
			outputs: map[string]cty.Value{"a": cty.UnknownVal(cty.String), "u": cty.UnknownVal(cty.String)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, src := range tt.files {
				writeFile(t, dir+"/"+name, src)
			}
			c, diags := terraform.NewContext(&terraform.ContextOpts{Providers: builtin.FactoriesIn(dir), WorkingDir: dir})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			sf := &statefile.File{Lineage: "l", State: states.NewState()}
			if tt.before != "" {
				writeFile(t, dir+"/main.tf", tt.before)
				cfg := loadCompatConfig(t, dir)
				sf = compatApply(t, c, cfg, compatPlan(t, c, cfg, sf, dir, nil, plans.NormalMode), sf)
			}
			writeFile(t, dir+"/main.tf", tt.config)
			cfg := loadCompatConfig(t, dir)
			in := terraform.InputValues{}
			for k, v := range tt.vars {
				in[k] = &terraform.InputValue{Value: v, SourceType: terraform.ValueFromCLIArg}
			}
			plan, diags := c.Plan(context.Background(), cfg, sf.State, &terraform.PlanOpts{Mode: plans.NormalMode, SetVariables: in})
			if len(tt.wantErr) > 0 {
				if !diags.HasErrors() {
					t.Fatalf("plan succeeded, want an error with %q", tt.wantErr)
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(diagsText(diags), w) {
						t.Errorf("errors lack %q:\n%s", w, diagsText(diags))
					}
				}
				return
			}
			if diags.HasErrors() {
				t.Fatalf("plan: %s", diagsText(diags))
			}
			if d := cmp.Diff(tt.want, actionsOf(plan)); d != "" {
				t.Errorf("actions (-want +got):\n%s", d)
			}
			for _, w := range tt.warnings {
				if !strings.Contains(diagsText(diags), w) {
					t.Errorf("warnings lack %q:\n%s", w, diagsText(diags))
				}
			}
			for name, want := range tt.outputs {
				found := false
				for _, oc := range plan.Changes.Outputs {
					if oc.Addr.Module.IsRoot() && oc.Addr.OutputValue.Name == name {
						found = true
						if !oc.After.RawEquals(want) {
							t.Errorf("output %s = %#v, want %#v", name, oc.After, want)
						}
					}
				}
				if !found {
					t.Errorf("no output %s in the plan", name)
				}
			}
		})
	}
}
