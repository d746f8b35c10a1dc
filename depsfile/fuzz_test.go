package depsfile

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoadLocksFromBytes checks that the reader never panics and that
// anything it accepts writes and reads back to equal locks. Seeds:
// testdata/fuzz/FuzzLoadLocksFromBytes plus the testdata lock files.
func FuzzLoadLocksFromBytes(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.lock.hcl")
	for _, p := range paths {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		locks, diags := LoadLocksFromBytes(src, "fuzz.lock.hcl")
		if diags.HasErrors() {
			return
		}
		out, diags := SaveLocksToBytes(locks)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		back, diags := LoadLocksFromBytes(out, "out.lock.hcl")
		if diags.HasErrors() {
			t.Fatalf("our own output does not parse: %s\n%s", diags, out)
		}
		if !back.Equal(locks) {
			t.Fatalf("round trip changed the locks:\n%s", out)
		}
	})
}
