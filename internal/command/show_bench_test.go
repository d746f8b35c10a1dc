package command_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/command"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/planfile"
)

// BenchmarkShowJSON is the whole `plan show -json` of a plan of n
// independent terraform_data resources, in process: opening and checking
// the archive, decoding the plan, copying the members made from the
// configuration from tfshow.json ("stored") or, for an archive without
// it as older plankit versions write, parsing the configuration
// snapshot ("snapshot"), and writing the document (to io.Discard). The
// plan is made once, outside the timing.
// Run: go test -run '^$' -bench ShowJSON -benchmem ./command/
func BenchmarkShowJSON(b *testing.B) {
	for _, n := range []int{4000} {
		m, stored := benchPlanFile(b, n)
		snapshot := rewriteArchive(b, stored, "snapshot.tfplan", func(entries map[string][]byte) {
			delete(entries, planfile.EntryShowJSON)
		})
		for _, c := range []struct{ name, path string }{{"stored", stored}, {"snapshot", snapshot}} {
			b.Run(fmt.Sprintf("%d/%s", n, c.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if code := command.Plan(m, []string{"show", "-json", c.path}); code != command.ExitOK {
						b.Fatalf("show -json: exit %d", code)
					}
				}
			})
		}
	}
}

// benchPlanFile plans n independent terraform_data resources into a plan
// file in a temporary directory, for the show benchmarks: the Meta to
// run show with (output discarded) and the file's path.
func benchPlanFile(b *testing.B, n int) (*command.Meta, string) {
	b.Helper()
	dir := b.TempDir()
	var src strings.Builder
	for i := range n {
		fmt.Fprintf(&src, "resource \"terraform_data\" \"r%d\" {\n  input = \"v%d\"\n}\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(dir, "p.tfplan")
	m := &command.Meta{Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}, Environment: operation.Environment{Providers: builtin.Factories()}}
	if code := command.Plan(m, []string{"-chdir=" + dir, "-state=" + filepath.Join(dir, "s.tfstate"), "-out=" + out}); code != command.ExitOK {
		b.Fatalf("plan: exit %d", code)
	}
	return m, out
}
