package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Ephemeral variables and child-module outputs load; a root module's
// ephemeral output is refused, naming it.
func TestEphemeralVariablesAndOutputs(t *testing.T) {
	cfg := mustLoad(t, map[string]string{
		"main.tf": `
variable "secret" {
  type      = string
  ephemeral = true
}
variable "plain" {}
module "c" {
  source = "./c"
  in     = var.secret
}`,
		"c/main.tf": `
variable "in" { ephemeral = true }
output "o" {
  value     = var.in
  ephemeral = true
}
output "p" { value = 1 }`,
		"override.tf": `
variable "plain" { ephemeral = true }`,
	})
	got := map[string]bool{
		"var.secret": cfg.Module.Variables["secret"].Ephemeral,
		"var.plain":  cfg.Module.Variables["plain"].Ephemeral,
		"c.var.in":   cfg.Children["c"].Module.Variables["in"].Ephemeral,
		"c.output.o": cfg.Children["c"].Module.Outputs["o"].Ephemeral,
		"c.output.p": cfg.Children["c"].Module.Outputs["p"].Ephemeral,
	}
	want := map[string]bool{"var.secret": true, "var.plain": true, "c.var.in": true, "c.output.o": true, "c.output.p": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ephemeral flags (-want +got):\n%s", diff)
	}
}

func TestEphemeralErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"root output", map[string]string{"main.tf": "output \"o\" {\n  value = 1\n}\n\noutput \"e\" {\n  value     = 1\n  ephemeral = true\n}"},
			[]string{"main.tf:5: Ephemeral output in the root module"}},
		{"not a constant", map[string]string{"main.tf": "variable \"a\" {}\nvariable \"v\" {\n  ephemeral = var.a\n}"},
			[]string{"main.tf:3: Variables not allowed"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := loadInline(t, tc.files)
			if diff := cmp.Diff(tc.want, diagSummaries(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s\n%s", diff, diags.Error())
			}
		})
	}
}
