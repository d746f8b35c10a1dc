package command

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/plankit/plankit/planfile"
)

// TestPlanOutRefusesNonRegularFiles: -out naming a FIFO, or a link to a
// device, is an error naming the file, and the node stays what it was.
// Today's code exited 0 and replaced the node with a plain file.
func TestPlanOutRefusesNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(`resource "null_resource" "a" {}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "plan.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	devLink := filepath.Join(dir, "null.tfplan")
	if err := os.Symlink("/dev/null", devLink); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{fifo, devLink} {
		var calls atomic.Int64
		m, _, errb := countingMeta(t, &calls)
		before, _ := os.Lstat(out)
		code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-out=" + out})
		if code != ExitError {
			t.Errorf("plan -out=%s: exit %d, want 1\n%s", out, code, errb)
		}
		if !strings.Contains(errb.String(), out) || !strings.Contains(errb.String(), "not a regular file") {
			t.Errorf("plan -out=%s: the error does not name the file and the reason:\n%s", out, errb)
		}
		if after, _ := os.Lstat(out); after.Mode() != before.Mode() {
			t.Errorf("%s changed from %v to %v", out, before.Mode(), after.Mode())
		}
	}
}

// TestPlanOutThroughSymlink: -out naming a link writes the archive where
// the link points and keeps the link.
func TestPlanOutThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(`resource "null_resource" "a" {}`), 0o644); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(t.TempDir(), "real.tfplan")
	link := filepath.Join(dir, "link.tfplan")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	m, _, errb := countingMeta(t, &calls)
	if code := Plan(m, []string{"-chdir=" + dir, "-no-color", "-out=" + link}); code != ExitOK {
		t.Fatalf("plan: exit %d\n%s", code, errb)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced (%v)", err)
	}
	r, err := planfile.Open(real)
	if err != nil {
		t.Fatalf("the archive is not where the link points: %v", err)
	}
	r.Close()
}
