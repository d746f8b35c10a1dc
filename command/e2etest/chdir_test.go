package e2etest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestChdirFirstPlanWithDataSource is a first run with no state under
// -chdir: a data "local_file" reads a relative filename at plan time and a
// local_file writes one. The archive made from no state holds the data
// source, yet applies to the still-absent state; relative filenames
// resolve in the -chdir directory, not the process's; a second plan made
// from no state is refused once the first has created a state.
func TestChdirFirstPlanWithDataSource(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	cfg := filepath.Join(top, "cfg")
	if err := os.Mkdir(cfg, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(cfg, "in.txt"), "hello\n")
	writeFile(t, filepath.Join(cfg, "main.tf"), `
data "local_file" "in" {
  filename = "in.txt"
}
resource "local_file" "out" {
  filename = "out.txt"
  content  = upper(data.local_file.in.content)
}
`)
	must(t, plan(t, top, "-chdir=cfg", "-no-color", "-out=first.tfplan"), 0, "first plan")
	must(t, plan(t, top, "-chdir=cfg", "-no-color", "-out=second.tfplan"), 0, "second plan")
	must(t, plan(t, top, "-chdir=cfg", "graph"), 0, "graph")
	ap := apply(t, top, "-chdir=cfg", "-no-color", "first.tfplan")
	must(t, ap, 0, "apply of the first plan")
	contains(t, ap.stdout, "apply output", "Apply complete! Resources: 1 added, 0 changed, 0 destroyed.")
	got, err := os.ReadFile(filepath.Join(cfg, "out.txt"))
	if err != nil || string(got) != "HELLO\n" {
		t.Errorf("cfg/out.txt = %q, %v; want HELLO", got, err)
	}
	if _, err := os.Stat(filepath.Join(top, "out.txt")); err == nil {
		t.Errorf("out.txt was written in the process's directory, not the -chdir one")
	}
	stale := apply(t, top, "-chdir=cfg", "-no-color", "second.tfplan")
	must(t, stale, 1, "apply of a second plan made from no state")
	contains(t, stale.stderr, "stale apply", "Saved plan is stale")
	must(t, plan(t, top, "-chdir=cfg", "-no-color", "-detailed-exitcode"), 0, "re-plan")
}
