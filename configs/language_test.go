package configs

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// TestLanguageBlock: OpenTofu 1.12's language block loads: other tools'
// arguments in compatible_with are ignored, a constraint that admits
// OpenTofu before 1.12 is a warning at its place, and the mistakes OpenTofu
// refuses (another edition, an experiment, a second opentofu constraint,
// a bad constraint, the block in an override file) are errors.
func TestLanguageBlock(t *testing.T) {
	tests := []struct {
		name, src string
		override  bool
		want      []string // "severity: summary @line"
	}{
		{"accepted", `language {
  compatible_with {
    opentofu = ">= 1.12"
    other    = "ignored"
    other_tool {}
  }
  edition     = tofu2024
  experiments = []
}
resource "null_resource" "a" {}
`, false, nil},
		{"ineffective constraint", "language {\n  compatible_with {\n    opentofu = \">= 1.11\"\n  }\n}\n", false,
			[]string{"warning: Ineffective version constraint @3"}},
		{"no opentofu", "language {\n  compatible_with {\n    other = \"x\"\n  }\n}\n", false, nil},
		{"edition", "language {\n  edition = TF2021\n}\n", false, []string{"error: Unsupported language edition @2"}},
		{"experiment", "language {\n  experiments = [foo]\n}\n", false, []string{"error: Unknown experiment keyword @2"}},
		{"duplicate", "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n  compatible_with {\n    opentofu = \">= 1.13\"\n  }\n}\n", false,
			[]string{"error: Duplicate compatible_with block @5"}},
		{"bad constraint", "language {\n  compatible_with {\n    opentofu = \"soon\"\n  }\n}\n", false, []string{"error: Invalid version constraint @3"}},
		{"unknown argument", "language {\n  version = 2\n}\n", false, []string{"error: Unsupported argument @2"}},
		{"override file", "language {\n  compatible_with {\n    opentofu = \">= 1.12\"\n  }\n}\n", true, []string{"error: Language block in an override file @1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "main.tf"
			files := map[string]string{}
			if tt.override {
				name = "main_override.tf"
				files["main.tf"] = `resource "null_resource" "a" {}`
			}
			files[name] = tt.src
			_, diags := loadInline(t, files)
			var got []string
			for _, d := range diags {
				sev := "error"
				if d.Severity == hcl.DiagWarning {
					sev = "warning"
				}
				line := 0
				if d.Subject != nil {
					line = d.Subject.Start.Line
					if d.Subject.Filename != name {
						t.Errorf("%s is reported in %s, want %s", d.Summary, d.Subject.Filename, name)
					}
				}
				got = append(got, sev+": "+d.Summary+" @"+strconv.Itoa(line))
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("diagnostics (-want +got):\n%s\n%v", d, diags)
			}
		})
	}
}
