package operation

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/configs"
)

// TestUndeclaredWarningsCapped: as Terraform, three "Value for undeclared
// variable" warnings, then one counting the rest; a file of a million
// stray entries printed a million snippets.
func TestUndeclaredWarningsCapped(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("variable \"a\" {\n  default = 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfvars"), []byte("a = 2\nu1 = 1\nu2 = 2\nu3 = 3\nu4 = 4\nu5 = 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	config, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, diags = CollectVariables(config, dir, nil, nil)
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary)
	}
	want := []string{"Value for undeclared variable", "Value for undeclared variable", "Value for undeclared variable", "Values for undeclared variables"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("warnings (-want +got):\n%s", diff)
	}
	if d := diags[3].Detail; d != "In addition to the other similar warnings shown, 2 other variable(s) defined without being declared." {
		t.Errorf("summary detail: %s", d)
	}
}

func TestEnvMaxInstances(t *testing.T) {
	for _, tt := range []struct {
		env  []string
		want int
		err  bool
	}{
		{nil, 0, false},
		{[]string{"PLANKIT_MAX_INSTANCES=20000000"}, 20000000, false},
		{[]string{"PLANKIT_MAX_INSTANCES=1", "PLANKIT_MAX_INSTANCES=5"}, 5, false},
		{[]string{"PLANKIT_MAX_INSTANCES=0"}, 0, true},
		{[]string{"PLANKIT_MAX_INSTANCES=many"}, 0, true},
	} {
		n, diags := EnvMaxInstances(tt.env)
		if n != tt.want || diags.HasErrors() != tt.err {
			t.Errorf("%v: got %d, %v; want %d, error %v", tt.env, n, diags, tt.want, tt.err)
		}
	}
}
