package command

import (
	"strings"
	"sync/atomic"
	"testing"
)

// TestSubcommandBadInput: show, diff, graph and force-unlock refuse bad
// arguments and unreadable plan files with exit 1 and a message naming
// the problem, and without starting a provider.
func TestSubcommandBadInput(t *testing.T) {
	dir := writeConfig(t, map[string]string{
		"main.tf":     `output "o" { value = "v" }`,
		"junk.tfplan": "not a zip archive",
	})
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"show without a file", []string{"show"}, "exactly one plan file"},
		{"show a missing file", []string{"show", "nope.tfplan"}, "nope.tfplan"},
		{"diff with one file", []string{"diff", "junk.tfplan"}, "two plan files"},
		{"diff a corrupt file", []string{"diff", "junk.tfplan", "junk.tfplan"}, "Invalid plan file"},
		{"diff a missing file", []string{"diff", "nope.tfplan", "junk.tfplan"}, "nope.tfplan"},
		{"graph of an unknown type", []string{"graph", "-type=refresh"}, `-type must be plan, plan-destroy or apply, not "refresh"`},
		{"graph of a positional argument", []string{"graph", "x"}, "no positional arguments"},
		{"graph of a corrupt archive", []string{"graph", "-plan=junk.tfplan"}, "Invalid plan file"},
		{"force-unlock without an ID", []string{"force-unlock", "-force"}, "the lock ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int64
			m, out, errb := countingMeta(t, &calls)
			code := Plan(m, append([]string{"-chdir=" + dir}, tt.args...))
			if code != ExitError {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitError, out, errb)
			}
			if !strings.Contains(errb.String(), tt.want) {
				t.Errorf("stderr does not contain %q:\n%s", tt.want, errb)
			}
			if n := calls.Load(); n != 0 {
				t.Errorf("%d providers started", n)
			}
		})
	}
}
