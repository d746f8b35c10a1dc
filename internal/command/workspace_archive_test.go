package command

import (
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestApplyArchiveWorkspaceMissing: a plan made in workspace "blue",
// applied alone in a fresh directory, is refused with an error that names
// the plan's workspace (not a "selected" one) and where to apply it; after
// the workspace is created there, the plan (made for an empty workspace)
// applies.
func TestApplyArchiveWorkspaceMissing(t *testing.T) {
	work := writeConfig(t, map[string]string{"main.tf": "resource \"terraform_data\" \"a\" {}\n"})
	fresh := t.TempDir()
	for _, step := range [][]string{{"workspace", "new", "blue"}, {"-out=blue.tfplan"}} {
		m, out, errb := countingMeta(t, new(atomic.Int64))
		if code := Plan(m, append([]string{"-chdir=" + work}, step...)); code != ExitOK {
			t.Fatalf("plan %v: exit %d\n%s\n%s", step, code, out, errb)
		}
	}
	copyTestFile(t, work, "blue.tfplan", filepath.Join("..", filepath.Base(fresh), "blue.tfplan"))

	m, out, errb := countingMeta(t, new(atomic.Int64))
	if code := Apply(m, []string{"-chdir=" + fresh, "-no-color", "blue.tfplan"}); code != ExitError {
		t.Fatalf("apply: exit %d\n%s\n%s", code, out, errb)
	}
	got := strings.Join(strings.Fields(errb.String()), " ")
	for _, want := range []string{"Error: Workspace does not exist", `The plan was made for workspace "blue", which does not exist in the local backend here.`, `plan workspace new blue`} {
		if !strings.Contains(got, want) {
			t.Errorf("error lacks %q:\n%s", want, errb)
		}
	}
	if strings.Contains(got, "selected") {
		t.Errorf("the error speaks of a selected workspace, where none was selected:\n%s", errb)
	}

	m, out, errb = countingMeta(t, new(atomic.Int64))
	if code := Plan(m, []string{"-chdir=" + fresh, "workspace", "new", "blue"}); code != ExitOK {
		t.Fatalf("workspace new: exit %d\n%s\n%s", code, out, errb)
	}
	m, out, errb = countingMeta(t, new(atomic.Int64))
	if code := Apply(m, []string{"-chdir=" + fresh, "-no-color", "blue.tfplan"}); code != ExitOK || !strings.Contains(out.String(), "Apply complete! Resources: 1 added") {
		t.Fatalf("apply after workspace new: exit %d\n%s\n%s", code, out, errb)
	}
}
