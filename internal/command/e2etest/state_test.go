package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateWriteFailureKeepsState: when the state cannot be written after
// the apply created real objects (here a provisioner replaces the state's
// directory with a file, which even root cannot write through), the state
// is not lost: apply exits 1 naming errored.tfstate in the working
// directory, and that file, put in place, is the state of what exists
// (a new plan has no changes).
func TestStateWriteFailureKeepsState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	stDir := filepath.Join(dir, "st")
	writeFile(t, filepath.Join(dir, "main.tf"), `variable "st" {
  type = string
}

resource "null_resource" "a" {}

resource "terraform_data" "breaks_state_dir" {
  depends_on = [null_resource.a]
  provisioner "local-exec" {
    # The background persister may write into the directory while it goes
    # (rm fails) or recreate it between rm and touch (PersistState creates
    # a missing directory): retry until the path is a plain file, which
    # nothing in plankit replaces.
    command = "until rm -rf '${var.st}' && touch '${var.st}' && [ -f '${var.st}' ]; do :; done"
  }
}

# Created after the directory is gone, so the state always has a change
# that cannot be written, however the background persister's writes fall.
# Its trigger makes it follow a replacement of breaks_state_dir too.
resource "null_resource" "after" {
  triggers = { dep = terraform_data.breaks_state_dir.id }
}
`)
	state := "-state=st/s.tfstate"
	must(t, plan(t, dir, "-no-color", state, "-var", "st="+stDir, "-out=p.tfplan"), 0, "plan")
	r := apply(t, dir, "-no-color", state, "p.tfplan")
	must(t, r, 1, "apply whose state cannot be written")
	contains(t, r.stderr, "apply's errors", "Failed to save state", "errored.tfstate", "cp errored.tfstate st/s.tfstate",
		// The lock file went with the directory; the message names it right.
		"removed by hand (st/.s.tfstate.lock.info)")

	// The recovery file replaces the state as is.
	if err := os.Remove(stDir); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(stDir, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(dir, "errored.tfstate"), filepath.Join(stDir, "s.tfstate"))
	r = plan(t, dir, "-no-color", state, "-var", "st="+stDir, "-detailed-exitcode")
	must(t, r, 0, "plan after restoring errored.tfstate")
	contains(t, r.stdout, "plan after restoring", "No changes.")

	// A second failure never overwrites the first recovery file.
	must(t, plan(t, dir, "-no-color", state, "-var", "st="+stDir, "-replace=terraform_data.breaks_state_dir", "-out=p2.tfplan"), 0, "plan a replacement")
	r = apply(t, dir, "-no-color", state, "p2.tfplan")
	must(t, r, 1, "second apply whose state cannot be written")
	contains(t, r.stderr, "second apply's errors", "errored-1.tfstate")
	first, err := os.ReadFile(filepath.Join(dir, "errored.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := os.ReadFile(filepath.Join(dir, "errored-1.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if string(first) == string(second) || !strings.Contains(string(second), `"serial"`) {
		t.Errorf("errored-1.tfstate should be a new state beside the first:\n%s", second)
	}
}

// TestUnlockFailureFailsApply checks that an apply whose state was saved
// but whose lock could not be released exits non-zero: the next run would
// find the lock in its way, so a CI job must not go on as if all was well.
func TestUnlockFailureFailsApply(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `resource "terraform_data" "drops_lock" {
  provisioner "local-exec" {
    command = "rm -f st/.s.tfstate.lock.info && mkdir -p st/.s.tfstate.lock.info/x"
  }
}
`)
	state := "-state=st/s.tfstate"
	must(t, plan(t, dir, "-no-color", state, "-out=p.tfplan"), 0, "plan")
	r := apply(t, dir, "-no-color", state, "p.tfplan")
	must(t, r, 1, "apply whose lock could not be released")
	contains(t, r.stderr, "apply's errors", "Error releasing the state lock")
	contains(t, r.stdout, "apply's output", "Apply complete!")
	// The damaged lock stops the next run, with advice that works.
	r = plan(t, dir, "-no-color", state, "-detailed-exitcode")
	must(t, r, 1, "plan with the damaged lock in place")
	contains(t, r.stderr, "plan's errors", "remove the lock file by hand", "st/.s.tfstate.lock.info")
	if err := os.RemoveAll(filepath.Join(dir, "st", ".s.tfstate.lock.info")); err != nil {
		t.Fatal(err)
	}
	// The state itself was saved.
	r = plan(t, dir, "-no-color", state, "-detailed-exitcode")
	must(t, r, 0, "plan after removing the lock")
}
