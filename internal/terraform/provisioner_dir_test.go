package terraform

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/internal/providers/builtin"
)

// TestLocalExecRunsInWorkingDir: a local-exec command runs in the
// Context's working directory (Terraform runs in the -chdir directory),
// and a relative working_dir is taken from there. Before, both were
// relative to the process's directory.
func TestLocalExecRunsInWorkingDir(t *testing.T) {
	wd := t.TempDir()
	if err := os.Mkdir(filepath.Join(wd, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := loadConfig(t, map[string]string{"main.tf": `
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "echo top > local-exec-top.txt"
  }
  provisioner "local-exec" {
    command     = "echo sub > local-exec-sub.txt"
    working_dir = "sub"
  }
}
`})
	c, diags := NewContext(&ContextOpts{Providers: builtin.FactoriesIn(wd), WorkingDir: wd})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	_, diags = c.Apply(context.Background(), mustPlan(t, c, cfg, nil, nil), cfg, nil)
	os.Remove("local-exec-top.txt") // if written in the package directory instead
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for _, p := range []string{"local-exec-top.txt", "sub/local-exec-sub.txt"} {
		if _, err := os.Stat(filepath.Join(wd, p)); err != nil {
			t.Errorf("%s not written under the working directory: %v", p, err)
		}
	}
}
