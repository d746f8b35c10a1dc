package command

import (
	"regexp"
	"sync/atomic"
	"testing"
)

// TestApplyRendersOperations runs apply end to end with the built-in
// providers and checks the lines the apply UI prints, in order.
func TestApplyRendersOperations(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // regular expressions, matched in this order
	}{
		{
			name: "data source read at apply",
			src: `
resource "null_resource" "a" {}
data "null_data_source" "d" {
  inputs = { a = null_resource.a.id }
}`,
			want: []string{
				`null_resource\.a: Creating\.\.\.\n`,
				`null_resource\.a: Creation complete after 0s \[id=\d+\]\n`,
				`data\.null_data_source\.d: Reading\.\.\.\n`,
				`data\.null_data_source\.d: Read complete after 0s \[id=static\]\n`,
			},
		},
		{
			name: "creation completes after the provisioner's output",
			src: `
resource "null_resource" "p" {
  provisioner "local-exec" { command = "echo hello from ${self.id}" }
}`,
			want: []string{
				`null_resource\.p: Creating\.\.\.\n`,
				`null_resource\.p: Provisioning with 'local-exec'\.\.\.\n`,
				`null_resource\.p \(local-exec\): hello from \d+\n`,
				`null_resource\.p: Creation complete after 0s \[id=\d+\]\n`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeConfig(t, map[string]string{"main.tf": tt.src})
			var calls atomic.Int64
			m, out, errb := countingMeta(t, &calls)
			if code := Apply(m, []string{"-chdir=" + dir, "-no-color", "-auto-approve"}); code != 0 {
				t.Fatalf("apply: exit %d\n%s\n%s", code, out, errb)
			}
			rest := out.String()
			for _, w := range tt.want {
				loc := regexp.MustCompile(w).FindStringIndex(rest)
				if loc == nil {
					t.Fatalf("output lacks %s after the lines before it:\n%s", w, out)
				}
				rest = rest[loc[1]:]
			}
		})
	}
}
