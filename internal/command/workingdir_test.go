package command

import (
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWorkingDirIsChdir: with -chdir, path.cwd, abspath and the file
// functions resolve against the -chdir directory (as if the process had
// changed into it, which Terraform does), in the root module and in a
// child module using "${path.module}/...". The test process runs
// elsewhere (the package directory), so resolving against the process's
// directory would fail.
func TestWorkingDirIsChdir(t *testing.T) {
	dir := writeConfig(t, map[string]string{
		"main.tf": `
module "m" { source = "./mod" }
output "cwd"   { value = path.cwd }
output "abs"   { value = abspath("x/y") }
output "root"  { value = file("${path.module}/data.txt") }
output "child" { value = module.m.text }
`,
		"data.txt":    "root data",
		"mod/main.tf": `output "text" { value = file("${path.module}/d.txt") }`,
		"mod/d.txt":   "child data",
	})
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	m, out, errb := countingMeta(t, &calls)
	if code := Apply(m, []string{"-chdir=" + dir, "-no-color", "-auto-approve"}); code != 0 {
		t.Fatalf("apply: exit %d\n%s\n%s", code, out, errb)
	}
	sf := readStateFile(t, filepath.Join(dir, "terraform.tfstate"))
	got := map[string]string{}
	for name, ov := range sf.State.RootOutputValues() {
		got[name] = ov.Value.AsString()
	}
	want := map[string]string{"cwd": abs, "abs": filepath.Join(abs, "x/y"), "root": "root data", "child": "child data"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("outputs (-want +got):\n%s", d)
	}
}
