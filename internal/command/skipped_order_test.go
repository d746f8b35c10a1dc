package command

import (
	"bytes"
	"strings"
	"sync/atomic"
	"testing"
)

// TestSkippedWarningAfterErrors: with stdout and stderr writing to one
// terminal or log, the error comes before the "Objects skipped after
// errors" warning that points to it (plan, plan validate and apply
// without a plan file), and plan validate says the objects were not
// validated, never that they were not planned.
func TestSkippedWarningAfterErrors(t *testing.T) {
	dir := writeConfig(t, map[string]string{"main.tf": `resource "terraform_data" "a" {
  input = tonumber("x")
}
resource "terraform_data" "b" {
  input = terraform_data.a.output
}
`})
	tests := []struct {
		name string
		run  func(m *Meta) int
		verb string
	}{
		{"plan", func(m *Meta) int { return Plan(m, []string{"-chdir=" + dir, "-no-color"}) }, "not planned"},
		{"validate", func(m *Meta) int { return Plan(m, []string{"-chdir=" + dir, "validate", "-no-color"}) }, "not validated"},
		{"apply", func(m *Meta) int { return Apply(m, []string{"-chdir=" + dir, "-no-color", "-auto-approve"}) }, "not planned"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _, _ := countingMeta(t, new(atomic.Int64))
			var log bytes.Buffer
			m.Stdout, m.Stderr = &log, &log
			if code := tt.run(m); code != ExitError {
				t.Fatalf("exit %d\n%s", code, log.String())
			}
			out := log.String()
			e, w := strings.Index(out, "Error: Invalid function argument"), strings.Index(out, "Warning: Objects skipped after errors")
			if e < 0 || w < 0 || w < e {
				t.Errorf("the error (at %d) does not come before the warning about it (at %d):\n%s", e, w, out)
			}
			if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "1 object was "+tt.verb+" because") {
				t.Errorf("the warning does not say %q:\n%s", tt.verb, out)
			}
		})
	}
}
