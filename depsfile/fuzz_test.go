package depsfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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
	// Nesting deep enough to overflow the HCL parser's stack, and binary
	// input (one error, not one per byte): both crashed or crawled before
	// the lock file got the configuration's guards.
	f.Add([]byte("x = " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000)))
	f.Add([]byte("provider \"registry.terraform.io/a/b\" {\n  version = \"1.0.0\"\n  hashes = [" + strings.Repeat("(", 100000) + "]\n}\n"))
	f.Add(append([]byte{0}, bytes.Repeat([]byte{0xff, '"', '{'}, 40000)...))
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
