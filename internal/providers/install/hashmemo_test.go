package install

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/plankit/plankit/addrs"
)

// TestHashMemoSeesChanges checks that the remembered hashes of Find are
// recomputed whenever the package changes, even when a file is rewritten
// with the same size and its modification time set back, and that they
// always equal a fresh HashDir.
func TestHashMemoSeesChanges(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no status-change time: nothing is remembered")
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, "terraform-provider-x_v1.0.0")
	write := func(content string) {
		t.Helper()
		if err := os.WriteFile(exe, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	check := func(step string) string {
		t.Helper()
		want, err := HashDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			got, err := hashDirMemo(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("%s: remembered hash %s, fresh hash %s", step, got, want)
			}
		}
		return want
	}
	write("binary one")
	h1 := check("first")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(exe, old, old); err != nil {
		t.Fatal(err)
	}
	check("times set back")
	write("binary two") // same size
	if err := os.Chtimes(exe, old, old); err != nil {
		t.Fatal(err)
	}
	if h2 := check("rewritten, same size and mtime"); h2 == h1 {
		t.Fatal("rewritten package kept its hash")
	}
	if err := os.WriteFile(filepath.Join(dir, "extra"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("file added")

	root := t.TempDir()
	p := addrs.Provider{Hostname: "example.com", Namespace: "ns", Type: "x"}
	var zip string
	mk := func(content string) {
		t.Helper()
		zip = writePacked(t, root, p, "1.0.0", "linux_amd64", map[string]string{"terraform-provider-x_v1.0.0": content})
		if err := os.Chtimes(zip, old, old); err != nil {
			t.Fatal(err)
		}
	}
	for _, content := range []string{"zip one", "zip two"} {
		mk(content)
		wantH1, err := HashZip(zip)
		if err != nil {
			t.Fatal(err)
		}
		wantZH, err := HashZipFile(zip)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if got, _ := hashZipMemo(zip); got != wantH1 {
				t.Errorf("%s: remembered h1 %s, fresh %s", content, got, wantH1)
			}
			if got, _ := hashZipFileMemo(zip); got != wantZH {
				t.Errorf("%s: remembered zh %s, fresh %s", content, got, wantZH)
			}
		}
	}
}

// TestHashMemoErrorsNotKept checks that a failed hash is tried again.
func TestHashMemoErrorsNotKept(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pkg")
	if _, err := hashDirMemo(dir); err == nil {
		t.Fatal("hash of a missing directory succeeded")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := HashDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := hashDirMemo(dir); err != nil || got != want {
		t.Fatalf("after creating it: %s, %v; want %s", got, err, want)
	}
}

// TestHashMemoFollowsSymlinks checks that a package file that is a
// symbolic link (HashDir hashes its target's content) is fingerprinted by
// its target: rewriting the target is seen, though the link is unchanged.
func TestHashMemoFollowsSymlinks(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no status-change time: nothing is remembered")
	}
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "binary")
	if err := os.WriteFile(target, []byte("binary one"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "terraform-provider-x_v1.0.0")); err != nil {
		t.Fatal(err)
	}
	h1, err := hashDirMemo(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte("binary two"), 0o755); err != nil {
		t.Fatal(err)
	}
	want, err := HashDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want == h1 {
		t.Fatal("HashDir did not see the target change")
	}
	if got, err := hashDirMemo(dir); err != nil || got != want {
		t.Fatalf("after rewriting the link's target: remembered %s (%v), fresh %s", got, err, want)
	}
}
