package statemgr

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/plankit/plankit/internal/atomicfile"
)

// TestStateBackupAndLockThroughSymlinks: with terraform.tfstate, its
// backup and its lock file all symbolic links into another directory, the
// files there are read, updated and locked, and the links stay links.
// Today's code renamed a new file over each link: the real state was never
// updated and the next run read a different file.
func TestStateBackupAndLockThroughSymlinks(t *testing.T) {
	root := t.TempDir()
	work, real := filepath.Join(root, "work"), filepath.Join(root, "real")
	for _, d := range []string{work, real} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	seed := NewFilesystem(filepath.Join(real, "real.tfstate"))
	seed.WriteState(stateWith(1))
	if err := seed.PersistState(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(work, "terraform.tfstate")
	links := map[string]string{
		path:             "../real/real.tfstate",
		path + ".backup": "../real/real.tfstate.backup", // missing until written
		filepath.Join(work, ".terraform.tfstate.lock.info"): "../real/lock.info",
	}
	for l, dest := range links {
		if err := os.Symlink(dest, l); err != nil {
			t.Fatal(err)
		}
	}

	m := NewFilesystem(path)
	id, err := m.Lock(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(real, "lock.info")); err != nil {
		t.Errorf("the lock was not taken where its link points: %v", err)
	}
	// A second manager sees the lock through the link.
	if _, err := NewFilesystem(path).Lock(nil); !errors.Is(err, ErrLocked) {
		t.Errorf("second Lock: %v, want ErrLocked", err)
	}
	m.WriteState(stateWith(3))
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	if err := m.Unlock(id); err != nil {
		t.Fatal(err)
	}

	for l := range links {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link (%v)", l, err)
		}
	}
	if got := len(readFile(t, filepath.Join(real, "real.tfstate")).State.AllResourceInstances()); got != 3 {
		t.Errorf("the real state holds %d instances, want 3", got)
	}
	if got := len(readFile(t, filepath.Join(real, "real.tfstate.backup")).State.AllResourceInstances()); got != 1 {
		t.Errorf("the real backup holds %d instances, want 1", got)
	}
	if _, err := os.Stat(filepath.Join(real, "lock.info")); !os.IsNotExist(err) {
		t.Errorf("the lock file is still there after Unlock: %v", err)
	}
}

// TestStateNeverReplacesNonRegularFiles: a backup path or lock path that
// is a FIFO (or a link to a device) is refused, and stays what it was.
func TestStateNeverReplacesNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	seed := NewFilesystem(path)
	seed.WriteState(stateWith(1))
	if err := seed.PersistState(); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "backup.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	m := NewFilesystem(path)
	m.SetBackupPath(fifo)
	m.WriteState(stateWith(2))
	if err := m.PersistState(); !errors.Is(err, atomicfile.ErrNotRegular) {
		t.Errorf("persist with a FIFO backup: %v, want ErrNotRegular", err)
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", fi.Mode())
	}
	if got := len(readFile(t, path).State.AllResourceInstances()); got != 1 {
		t.Errorf("the state changed to %d instances though its backup failed", got)
	}

	if err := os.Symlink("/dev/null", m.LockInfoPath()); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Lock(nil); !errors.Is(err, atomicfile.ErrNotRegular) {
		t.Errorf("lock through a link to /dev/null: %v, want ErrNotRegular", err)
	}
}
