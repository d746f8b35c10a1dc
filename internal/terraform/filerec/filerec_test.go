package filerec

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/lang"
	"github.com/plankit/plankit/plans"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRecordThenReplay records what a plan's functions see, changes the
// disk, and checks that a Replay still answers as the plan saw it, and
// falls back to the disk only for names the plan never looked at.
func TestRecordThenReplay(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"m/a.txt": "A", "m/b.txt": "B", "m/sub/c.txt": "C", "seen.txt": "S"})
	rec := NewRecorder(lang.OSFiles(dir))
	var wg sync.WaitGroup // functions run from parallel graph nodes
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec.ReadFile("m/a.txt")
			rec.Stat("seen.txt")
			rec.Stat("m/a.txt") // read too: stays content
			rec.ReadFile("gone.txt")
			rec.Stat("m") // a directory: not recorded
			rec.ListFiles("m")
			rec.ListFiles("nodir")
		}()
	}
	wg.Wait()
	want := []*plans.File{
		{Path: "gone.txt", Kind: plans.FileAbsent},
		{Path: "m", Kind: plans.FileDir, List: []string{"a.txt", "b.txt", "sub/c.txt"}},
		{Path: "m/a.txt", Kind: plans.FileContent, Content: []byte("A")},
		{Path: "nodir", Kind: plans.FileAbsent},
		{Path: "seen.txt", Kind: plans.FileExists},
	}
	got := rec.Files()
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("recorded (-want +got):\n%s", d)
	}
	if err := plans.CheckFiles(got); err != nil {
		t.Fatal(err)
	}

	// The disk changes after the plan.
	writeFiles(t, dir, map[string]string{"m/a.txt": "EDITED", "m/new.txt": "N", "gone.txt": "now here", "seen.txt": "S2", "later.txt": "L"})
	rp := NewReplay(got, lang.OSFiles(dir))
	read := func(name string) string {
		b, err := rp.ReadFile(name)
		if err != nil {
			return "error: " + err.Error()
		}
		return string(b)
	}
	if g := read("m/a.txt"); g != "A" {
		t.Errorf("m/a.txt = %q, want the planned content", g)
	}
	if _, err := rp.ReadFile("gone.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("gone.txt: %v, want absent as planned", err)
	}
	if g := read("seen.txt"); g != "S2" {
		t.Errorf("seen.txt (only checked at plan) = %q, want the disk's", g)
	}
	if g := read("later.txt"); g != "L" {
		t.Errorf("later.txt (not seen at plan) = %q, want the disk's", g)
	}
	if l, _ := rp.ListFiles("m"); !cmp.Equal(l, want[1].List) {
		t.Errorf("ListFiles(m) = %v, want the planned listing", l)
	}
	if _, err := rp.ListFiles("nodir"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ListFiles(nodir): %v, want absent", err)
	}
	for name, want := range map[string]bool{"m/a.txt": true, "seen.txt": true, "m": false} {
		mode, err := rp.Stat(name)
		if err != nil || mode.IsRegular() != want {
			t.Errorf("Stat(%s) = %v, %v; regular want %v", name, mode, err, want)
		}
	}
	if _, err := rp.Stat("gone.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(gone.txt): %v, want absent", err)
	}
	// Callers may not alter the plan's bytes through what they get.
	b, _ := rp.ReadFile("m/a.txt")
	b[0] = 'X'
	if g := read("m/a.txt"); g != "A" {
		t.Errorf("the replayed content was aliased: %q", g)
	}
}

func TestRecorderEmpty(t *testing.T) {
	if f := NewRecorder(lang.OSFiles(t.TempDir())).Files(); f != nil {
		t.Errorf("Files() = %v, want nil", f)
	}
}
