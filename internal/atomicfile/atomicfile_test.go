package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(path, []byte("new"), 0o640, nil); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "new" {
		t.Fatalf("content %q, %v", got, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	assertOnly(t, dir, "f")
}

func TestWriteFailuresKeepTheOldFile(t *testing.T) {
	boom := errors.New("boom")
	for name, tc := range map[string]struct {
		write        func(io.Writer) error
		beforeRename func() error
	}{
		"writer fails":        {write: func(io.Writer) error { return boom }},
		"crash before rename": {write: func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }, beforeRename: func() error { return boom }},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f")
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := Write(path, 0o644, tc.write, tc.beforeRename); !errors.Is(err, boom) {
				t.Fatalf("err = %v, want boom as is", err)
			}
			if got, _ := os.ReadFile(path); string(got) != "old" {
				t.Errorf("content %q after a failed write, want the old file", got)
			}
			assertOnly(t, dir, "f")
		})
	}
}

func TestWriteMissingDirectory(t *testing.T) {
	err := WriteBytes(filepath.Join(t.TempDir(), "no", "f"), []byte("x"), 0o644, nil)
	if err == nil {
		t.Fatal("writing into a missing directory succeeded")
	}
}

// assertOnly checks that dir holds exactly the named file: no temporary
// file is left behind.
func assertOnly(t *testing.T, dir, name string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != name {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only %s", names, name)
	}
}
