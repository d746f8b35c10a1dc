package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealToolStatesPlanClean runs the binaries in the directories of
// testdata/fixtures/compat-state-*, whose terraform.tfstate is as OpenTofu
// 1.12 and Terraform 1.9 write it: plan -detailed-exitcode finds no
// changes (exit 0), and plan -out then apply keeps each state's provider
// addresses (registry.opentofu.org for OpenTofu's) and check results.
func TestRealToolStatesPlanClean(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ fixture, host string }{
		{"compat-state-opentofu", "registry.opentofu.org"},
		{"compat-state-terraform", "registry.terraform.io"},
	} {
		dir := fixture(t, tc.fixture)
		r := plan(t, dir, "-no-color", "-detailed-exitcode")
		must(t, r, 0, tc.fixture+": plan")
		if !strings.Contains(r.stdout, "No changes.") {
			t.Errorf("%s: plan output:\n%s", tc.fixture, r.stdout)
		}
		must(t, plan(t, dir, "-no-color", "-out=p.tfplan"), 0, tc.fixture+": plan -out")
		must(t, apply(t, dir, "-no-color", "p.tfplan"), 0, tc.fixture+": apply")
		b, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), `provider[\"`+tc.host+`/hashicorp/`); n != 4 {
			t.Errorf("%s: the state after apply names %s providers %d times, want 4:\n%s", tc.fixture, tc.host, n, b)
		}
		if !strings.Contains(string(b), `"check_results": [`) {
			t.Errorf("%s: check_results lost:\n%s", tc.fixture, b)
		}
	}
}
