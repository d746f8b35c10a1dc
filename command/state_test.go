package command

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// TestLocalBackendPath: the state goes where backend "local" { path }
// says, relative to the -chdir directory, in a directory apply creates;
// -state overrides the backend's path.
func TestLocalBackendPath(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		want  string // relative to the configuration directory
		wantN string // a state that must not be written
	}{
		{"backend path", nil, "st/x.tfstate", "terraform.tfstate"},
		{"-state overrides", []string{"-state=other.tfstate"}, "other.tfstate", "st/x.tfstate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeConfig(t, map[string]string{"main.tf": `
terraform {
  backend "local" { path = "st/x.tfstate" }
}
output "o" { value = "v" }
`})
			var calls atomic.Int64
			m, out, errb := countingMeta(t, &calls)
			args := append([]string{"-chdir=" + dir, "-no-color", "-auto-approve"}, tt.args...)
			if code := Apply(m, args); code != 0 {
				t.Fatalf("apply: exit %d\n%s\n%s", code, out, errb)
			}
			sf := readStateFile(t, filepath.Join(dir, tt.want))
			if got := sf.State.RootOutputValues()["o"]; got == nil || got.Value.AsString() != "v" {
				t.Errorf("output o in %s = %v, want \"v\"", tt.want, got)
			}
			if _, err := os.Stat(filepath.Join(dir, tt.wantN)); !os.IsNotExist(err) {
				t.Errorf("%s: err = %v, want it not written", tt.wantN, err)
			}
		})
	}
}
