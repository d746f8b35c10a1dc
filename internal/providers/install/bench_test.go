package install

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkFindVerify measures what discovery adds to every plan and
// apply for one provider: scanning the mirror and hashing the package
// (h1: of a 64 MiB executable, the size of a mid-sized provider). Run
// with -bench; it is not part of the default test run.
func BenchmarkFindVerify(b *testing.B) {
	dir := b.TempDir()
	pkg := filepath.Join(dir, provFoo.Hostname, provFoo.Namespace, provFoo.Type, "1.0.0", testPlatform)
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		b.Fatal(err)
	}
	data := make([]byte, 64<<20)
	if _, err := rand.Read(data); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "terraform-provider-foo_v1.0.0"), data, 0o755); err != nil {
		b.Fatal(err)
	}
	f := &Finder{Sources: []*Source{{Kind: PluginDir, Dir: dir, Origin: "-plugin-dir"}}, Platform: testPlatform, CacheDir: b.TempDir()}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		if _, err := f.Find(Requirement{Provider: provFoo}); err != nil {
			b.Fatal(err)
		}
	}
}
