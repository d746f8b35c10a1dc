package command

import (
	"encoding/json"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestVersionListsProviders: plan version lists the providers the working
// directory's lock file selects, sorted, one "+ provider ADDR vVERSION"
// line each after the platform line, as terraform version does; -json has
// them as provider_selections; with no lock file it lists none.
func TestVersionListsProviders(t *testing.T) {
	dir := writeConfig(t, map[string]string{".terraform.lock.hcl": `provider "registry.terraform.io/hashicorp/random" {
  version = "3.6.0"
}

provider "registry.opentofu.org/hashicorp/null" {
  version     = "3.2.1"
  constraints = "~> 3.0"
}
`})
	m, out, errb := countingMeta(t, new(atomic.Int64))
	if code := Plan(m, []string{"-chdir=" + dir, "version"}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	platform := runtime.GOOS + "_" + runtime.GOARCH
	want := "plankit v" + Version + "\nplan format 1.3\non " + platform + ", built with " + runtime.Version() + "\n" +
		"+ provider registry.opentofu.org/hashicorp/null v3.2.1\n+ provider registry.terraform.io/hashicorp/random v3.6.0\n"
	if d := cmp.Diff(want, out.String()); d != "" {
		t.Errorf("plan version (-want +got):\n%s", d)
	}

	m, out, errb = countingMeta(t, new(atomic.Int64))
	if code := Plan(m, []string{"version", "-json", "-chdir=" + dir}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var doc struct {
		Selections map[string]string `json:"provider_selections"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]string{"registry.opentofu.org/hashicorp/null": "3.2.1", "registry.terraform.io/hashicorp/random": "3.6.0"}, doc.Selections); d != "" {
		t.Errorf("provider_selections (-want +got):\n%s", d)
	}

	m, out, _ = countingMeta(t, new(atomic.Int64))
	if code := Plan(m, []string{"-chdir=" + t.TempDir(), "version"}); code != ExitOK || out.String() != "plankit v"+Version+"\nplan format 1.3\non "+platform+", built with "+runtime.Version()+"\n" {
		t.Errorf("without a lock file: exit %d\n%s", code, out)
	}
}
