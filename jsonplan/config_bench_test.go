package jsonplan

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/configs"
)

// BenchmarkMarshalConfig is the "configuration" section of show -json
// for n test_thing resources with one constant argument each (the
// bench/cmd/gen independent shape), made and encoded; the configuration
// is loaded once, outside the timing; with the shortcuts of
// config_fast.go ("fast") and without them ("general").
// Run: go test -run '^$' -bench MarshalConfig -benchmem ./jsonplan/
func BenchmarkMarshalConfig(b *testing.B) {
	for _, c := range []struct {
		n    int
		fast bool
	}{{10_000, true}, {10_000, false}, {100_000, true}, {100_000, false}} {
		n := c.n
		name := map[bool]string{true: "fast", false: "general"}[c.fast]
		b.Run(fmt.Sprintf("%d/%s", n, name), func(b *testing.B) {
			defer func(saved bool) { configFast = saved }(configFast)
			configFast = c.fast
			dir := b.TempDir()
			var src strings.Builder
			for i := range n {
				fmt.Fprintf(&src, "resource \"test_thing\" \"r%d\" {\n  input = \"v%d\"\n}\n", i, i)
			}
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src.String()), 0o644); err != nil {
				b.Fatal(err)
			}
			cfg, diags := configs.LoadConfigDir(dir)
			if diags.HasErrors() {
				b.Fatal(diags.Error())
			}
			p := manyPlan(1)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				e := &encoder{w: io.Discard, buf: make([]byte, 0, flushAt+flushAt/4)}
				if err := e.encode(marshalConfig(cfg, p.ProviderSchemas, nil)); err != nil {
					b.Fatal(err)
				}
				if err := e.flush(true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
