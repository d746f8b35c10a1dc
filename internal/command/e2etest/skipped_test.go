package e2etest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSkippedNamesInstances fails a resource that a counted module depends
// on and checks that apply's skipped-objects warning names every instance
// it left undone with its module and resource keys.
func TestSkippedNamesInstances(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "site"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "main.tf"), `
resource "null_resource" "fail" {
  provisioner "local-exec" { command = "exit 1" }
}
module "site" {
  source     = "./site"
  count      = 2
  depends_on = [null_resource.fail]
}
`)
	writeFile(t, filepath.Join(dir, "site", "main.tf"), `
resource "local_file" "page" {
  for_each = toset(["a"])
  filename = "${path.module}/page-${each.key}.txt"
  content  = "x"
}
`)
	must(t, plan(t, dir, "-no-color", "-out=p"), 0, "plan")
	ap := apply(t, dir, "-no-color", "p")
	must(t, ap, 1, "apply")
	contains(t, ap.stdout+ap.stderr, "apply output", "Objects skipped after errors",
		"2 planned changes were not applied", `module.site[0].local_file.page["a"]`, `module.site[1].local_file.page["a"]`)
}
