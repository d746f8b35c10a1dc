package configs

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/plankit/plankit/bench/gen"
)

// TestLoadModuleFromFilesManyFiles loads a module of many files, some
// broken and one override, and checks every file's resources arrive, the
// override applies after all primaries, and the diagnostics come out in
// file order.
func TestLoadModuleFromFilesManyFiles(t *testing.T) {
	files := map[string][]byte{}
	var want []string
	var wantDiags []string
	for i := range 24 {
		name := fmt.Sprintf("f%02d.tf", i)
		src := fmt.Sprintf("resource \"terraform_data\" \"r%d\" {\n  input = \"v%d\"\n}\n", i, i)
		want = append(want, fmt.Sprintf("terraform_data.r%d", i))
		if i%5 == 0 {
			src += "bogus {}\n"
			wantDiags = append(wantDiags, name+":4,1-6")
		}
		files[name] = []byte(src)
	}
	files["z_override.tf"] = []byte("resource \"terraform_data\" \"r3\" {\n  input = \"overridden\"\n}\n")
	for range 5 {
		m, diags := (&Loader{}).LoadModuleFromFiles(".", files)
		var got []string
		for k := range m.ManagedResources {
			got = append(got, k)
		}
		sort.Strings(got)
		sort.Strings(want)
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("resources (-want +got):\n%s", d)
		}
		var gotDiags []string
		for _, d := range diags {
			gotDiags = append(gotDiags, fmt.Sprintf("%s:%d,%d-%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, d.Subject.End.Column))
		}
		if d := cmp.Diff(wantDiags, gotDiags); d != "" {
			t.Fatalf("diagnostics in file order (-want +got):\n%s\n%v", d, diags)
		}
		attrs, _ := m.ManagedResources["terraform_data.r3"].Config.JustAttributes()
		v, _ := attrs["input"].Expr.Value(nil)
		if v.AsString() != "overridden" {
			t.Fatalf("override not applied: input = %#v", v)
		}
	}
}

// BenchmarkLoadVsParse loads generated configurations with LoadConfigDir
// and, in the same iteration, parses the same files with a bare
// hclsyntax.ParseConfig (one file after another, as a plain tool would),
// reporting both times and their ratio (load/parse; the target is
// at most 1.2). Run: go test -run '^$' -bench LoadVsParse ./configs/
func BenchmarkLoadVsParse(b *testing.B) {
	for _, c := range []struct {
		name       string
		shape      gen.Shape
		files, per int
	}{
		{"1file-chain-1000", gen.Chain, 1, 1000},
		{"1file-4000", gen.Independent, 1, 4000},
		{"1file-100000", gen.Independent, 1, 100000},
		{"16files-1000", gen.Independent, 16, 1000},
	} {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			srcs := map[string][]byte{}
			for i := range c.files {
				src, err := gen.Config(c.shape, c.per)
				if err != nil {
					b.Fatal(err)
				}
				if c.files > 1 { // distinct names per file
					src = renameResources(src, fmt.Sprintf("f%d_", i))
				}
				name := fmt.Sprintf("main%02d.tf", i)
				srcs[name] = []byte(src)
				if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			var loadT, parseT time.Duration
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				for name, src := range srcs {
					_, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
					if diags.HasErrors() {
						b.Fatal(diags)
					}
				}
				t1 := time.Now()
				cfg, diags := LoadConfigDir(dir)
				if diags.HasErrors() {
					b.Fatal(diags)
				}
				t2 := time.Now()
				if got := len(cfg.Module.ManagedResources); got != c.files*c.per {
					b.Fatalf("%d resources, want %d", got, c.files*c.per)
				}
				parseT += t1.Sub(t0)
				loadT += t2.Sub(t1)
			}
			b.ReportMetric(float64(parseT.Nanoseconds())/float64(b.N), "parse-ns/op")
			b.ReportMetric(float64(loadT.Nanoseconds())/float64(b.N), "load-ns/op")
			b.ReportMetric(float64(loadT)/float64(parseT), "load/parse")
		})
	}
}

// renameResources prefixes every generated resource name ("r123").
func renameResources(src, prefix string) string {
	out := make([]byte, 0, len(src)+len(src)/8)
	for i := 0; i < len(src); i++ {
		out = append(out, src[i])
		if src[i] == '"' && i+1 < len(src) && src[i+1] == 'r' && i >= 2 && src[i-2] == '"' {
			out = append(out, prefix...)
		}
	}
	return string(out)
}
