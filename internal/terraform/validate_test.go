package terraform

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		wantErr string
	}{
		{"valid with unknown count and required var", `
variable "n" { type = number }
resource "test_thing" "a" {
  count = var.n
  name  = "x${count.index}"
}
module "m" {
  source = "./mod"
  v      = test_thing.a[0].id
}`, ""},
		{"undeclared variable", `resource "test_thing" "a" { name = var.nope }`, "Reference to undeclared input variable"},
		{"unknown attribute", `resource "test_thing" "a" { bogus = 1 }`, "bogus"},
		{"undeclared resource", `resource "test_thing" "a" { name = test_thing.zz.id }`, "Reference to undeclared resource"},
		{"each outside for_each", `resource "test_thing" "a" { name = each.key }`, `Reference to "each"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, map[string]string{"main.tf": tc.src, "mod/main.tf": `variable "v" {}`})
			diags := testContext(t, newTestProvider(), 2).Validate(cfg)
			got := diagsString(diags)
			if tc.wantErr == "" {
				if diags.HasErrors() {
					t.Fatalf("unexpected errors: %s", got)
				}
				return
			}
			if !strings.Contains(got, tc.wantErr) {
				t.Errorf("diagnostics %q do not contain %q", got, tc.wantErr)
			}
		})
	}
}

func TestGraphDOTDeterministic(t *testing.T) {
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "test_thing" "a" {}
resource "test_thing" "b" { name = test_thing.a.id }`})
	c := testContext(t, newTestProvider(), 2)
	a, diags := c.GraphDOT(cfg, nil, nil, GraphKindPlan)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	b, _ := c.GraphDOT(cfg, nil, nil, GraphKindPlan)
	if a != b || !strings.Contains(a, `"test_thing.b" -> "test_thing.a"`) {
		t.Errorf("DOT:\n%s", a)
	}
}
