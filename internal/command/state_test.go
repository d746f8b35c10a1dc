package command

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/operation"
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

// TestStatePathBackendValue: a number converts to its string, as in
// Terraform; a value that is not a string is an error naming the argument,
// never a silent fall back to terraform.tfstate.
func TestStatePathBackendValue(t *testing.T) {
	tests := []struct {
		path string // the expression after path =
		want string // the state file, relative to the directory; "" for an error
	}{
		{`"st/x.tfstate"`, "st/x.tfstate"},
		{`5`, "5"},
		{`true`, "true"},
		{`["a"]`, ""},
	}
	for _, tc := range tests {
		dir := writeConfig(t, map[string]string{"main.tf": "terraform {\n  backend \"local\" {\n    path = " + tc.path + "\n  }\n}\n"})
		config, diags := configs.LoadConfigDir(dir)
		if diags.HasErrors() {
			// configs may refuse it first: that is an error too.
			if tc.want != "" {
				t.Errorf("path = %s: loading failed: %s", tc.path, diags.Error())
			}
			continue
		}
		got, diags := operation.StatePath(dir, "", config)
		switch {
		case tc.want == "" && !diags.HasErrors():
			t.Errorf("path = %s: got %q, want an error", tc.path, got)
		case tc.want == "" && diags[0].Subject == nil:
			t.Errorf("path = %s: the error does not point at the argument: %s", tc.path, diags.Error())
		case tc.want != "" && (diags.HasErrors() || got != filepath.Join(dir, tc.want)):
			t.Errorf("path = %s: got %q, %v; want %s", tc.path, got, diags, filepath.Join(dir, tc.want))
		}
	}
}
