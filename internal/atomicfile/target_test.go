package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteThroughSymlinks: a write to a link updates the file it points
// to, and the link stays a link. Today's code renamed a new file over the
// link, so the real file was never updated.
func TestWriteThroughSymlinks(t *testing.T) {
	for name, tc := range map[string]struct {
		link   string // link target as written in the link
		chain  bool   // link -> link2 -> real
		exists bool   // the real file exists before the write
	}{
		"relative link":           {link: "../real/state", exists: true},
		"absolute link":           {link: "ABS", exists: true},
		"chain of links":          {link: "../real/state", chain: true, exists: true},
		"link to a missing file":  {link: "../real/state"},
		"absolute link, missing":  {link: "ABS"},
		"chain to a missing file": {link: "../real/state", chain: true},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			for _, d := range []string{"work", "real"} {
				if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			real := filepath.Join(root, "real", "state")
			if tc.exists {
				if err := os.WriteFile(real, []byte("old"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			dest := tc.link
			if dest == "ABS" {
				dest = real
			}
			link := filepath.Join(root, "work", "state")
			if tc.chain {
				if err := os.Symlink(dest, filepath.Join(root, "work", "state2")); err != nil {
					t.Fatal(err)
				}
				dest = "state2"
			}
			if err := os.Symlink(dest, link); err != nil {
				t.Fatal(err)
			}
			if err := WriteBytes(link, []byte("new"), 0o640, nil); err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("the link was replaced: %v, %v", fi, err)
			}
			if got, err := os.ReadFile(real); err != nil || string(got) != "new" {
				t.Errorf("the link's target holds %q (%v), want new", got, err)
			}
			// The temporary file lived beside the target and is gone.
			assertOnly(t, filepath.Join(root, "real"), "state")
		})
	}
}

// TestWriteRefusesNonRegularFiles: a device, a FIFO, a directory, or a
// link to one, is never replaced by a plain file. Today's code renamed a
// file over /dev-style nodes and exited 0.
func TestWriteRefusesNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	linkToNull := filepath.Join(dir, "null-link")
	if err := os.Symlink("/dev/null", linkToNull); err != nil {
		t.Fatal(err)
	}
	linkToFifo := filepath.Join(dir, "fifo-link")
	if err := os.Symlink("fifo", linkToFifo); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink("loop", loop); err != nil {
		t.Fatal(err)
	}
	paths := []string{fifo, sub, linkToNull, linkToFifo, loop}
	// A device node of our own (as root); never a real /dev entry, which a
	// failing run would replace.
	dev := filepath.Join(dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		paths = append(paths, dev)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			before, _ := os.Lstat(path)
			err := WriteBytes(path, []byte("x"), 0o644, nil)
			if err == nil {
				t.Fatalf("writing over %s succeeded", path)
			}
			if path != loop && !errors.Is(err, ErrNotRegular) {
				t.Errorf("err = %v, want ErrNotRegular", err)
			}
			after, _ := os.Lstat(path)
			if before.Mode() != after.Mode() {
				t.Errorf("%s changed from %v to %v", path, before.Mode(), after.Mode())
			}
		})
	}
	// Nothing was left behind in dir.
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(paths) {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v", names)
	}
}
