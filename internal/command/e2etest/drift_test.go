package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDriftShownWhereRelevant: through the binaries, plan and plan show
// list an object changed outside plankit only when the plan depends on
// it, as OpenTofu does: both files are deleted behind plankit's back,
// and only local_file.a, whose id the planned update of
// terraform_data.user refers to, is reported; local_file.b's deletion is
// not news (its re-creation is in the plan). A refresh-only plan reports
// both.
func TestDriftShownWhereRelevant(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `
resource "local_file" "a" {
  filename = "${path.module}/a.txt"
  content  = "a"
}

resource "local_file" "b" {
  filename = "${path.module}/b.txt"
  content  = "b"
}

resource "terraform_data" "user" {
  input = local_file.a.id
}
`)
	must(t, apply(t, dir, "-no-color", "-auto-approve"), 0, "apply")
	for _, f := range []string{"a.txt", "b.txt"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	p := plan(t, dir, "-no-color", "-out=d.tfplan")
	must(t, p, 0, "plan")
	s := plan(t, dir, "show", "-no-color", "d.tfplan")
	must(t, s, 0, "plan show")
	for name, out := range map[string]string{"plan": p.stdout, "plan show": s.stdout} {
		contains(t, out, name, "Objects have changed outside of plankit", "# local_file.a has been deleted",
			"# local_file.b will be created", "# terraform_data.user will be updated in-place")
		if strings.Contains(out, "# local_file.b has been deleted") {
			t.Errorf("%s reports the deletion of local_file.b, which nothing in the plan depends on:\n%s", name, out)
		}
	}
	ro := plan(t, dir, "-no-color", "-refresh-only")
	must(t, ro, 0, "plan -refresh-only")
	contains(t, ro.stdout, "plan -refresh-only", "# local_file.a has been deleted", "# local_file.b has been deleted")
}
