package command_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/internal/command"
	"github.com/plankit/plankit/internal/command/render"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/planfile"
)

// TestShowHumanIsPlanRendering: plan show, which decodes each change's
// values as it renders it, prints what rendering the archive's whole
// decoded plan prints, and what plan printed before its -out advice; the
// plan is large enough to be rendered on several goroutines.
func TestShowHumanIsPlanRendering(t *testing.T) {
	dir := t.TempDir()
	var src strings.Builder
	for i := range 2600 {
		fmt.Fprintf(&src, "resource \"terraform_data\" \"r%d\" {\n  input = {a = \"v%d\", n = %d}\n}\n", i, i, i)
	}
	src.WriteString("output \"o\" {\n  value = terraform_data.r7.output\n}\n")
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var planOut bytes.Buffer
	m := &command.Meta{Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: &planOut, Stderr: io.Discard}, Environment: operation.Environment{Providers: builtin.Factories()}}
	out := filepath.Join(dir, "p.tfplan")
	if code := command.Plan(m, []string{"-chdir=" + dir, "-no-color", "-state=" + filepath.Join(dir, "s.tfstate"), "-out=" + out}); code != command.ExitOK {
		t.Fatalf("plan: exit %d", code)
	}

	var show bytes.Buffer
	m.Stdout = &show
	if code := command.Plan(m, []string{"show", "-no-color", out}); code != command.ExitOK {
		t.Fatalf("plan show: exit %d", code)
	}
	r, err := planfile.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p, err := r.ReadPlan()
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := render.Plan(&want, p, false); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.String(), show.String()); diff != "" {
		t.Errorf("plan show differs from the rendering of the decoded plan (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(planOut.String(), show.String()) || !strings.Contains(show.String(), "Plan: 2600 to add") {
		t.Errorf("plan show is not what plan printed")
	}
}

// firstWrite records when the first write after the header (the first
// resource change) arrives.
type firstWrite struct {
	writes int
	at     time.Time
}

func (w *firstWrite) Write(p []byte) (int, error) {
	if w.writes++; w.writes == 2 {
		w.at = time.Now()
	}
	return len(p), nil
}

// BenchmarkShowHuman is the whole `plan show -no-color` of a plan of n
// independent terraform_data resources, in process: opening and checking
// the archive, decoding the plan without its values, and rendering with
// each change's values decoded as it is rendered. first-change-ms is
// when the first resource change was written. The plan is made once,
// outside the timing.
// Run: go test -run '^$' -bench ShowHuman -benchmem ./command/
func BenchmarkShowHuman(b *testing.B) {
	for _, n := range []int{4000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m, out := benchPlanFile(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			var first time.Duration
			for range b.N {
				w := &firstWrite{}
				m.Stdout = w
				start := time.Now()
				if code := command.Plan(m, []string{"show", "-no-color", out}); code != command.ExitOK {
					b.Fatalf("show: exit %d", code)
				}
				first += w.at.Sub(start)
			}
			b.ReportMetric(float64(first.Microseconds())/1000/float64(b.N), "first-change-ms")
		})
	}
}

// TestShowHumanBadValue: plan show of an archive (consistent manifest,
// as a forger would make it) with an undecodable value exits 1 and
// explains it as an invalid plan file naming the archive, as reading the
// whole plan first did; what was rendered before it may have been
// written.
func TestShowHumanBadValue(t *testing.T) {
	const marker = "CORRUPT-ME-HERE"
	dir := t.TempDir()
	src := "resource \"terraform_data\" \"a\" {\n  input = \"ok\"\n}\nresource \"terraform_data\" \"b\" {\n  input = \"" + marker + "\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &command.Meta{Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}, Environment: operation.Environment{Providers: builtin.Factories()}}
	good := filepath.Join(dir, "p.tfplan")
	if code := command.Plan(m, []string{"-chdir=" + dir, "-no-color", "-state=" + filepath.Join(dir, "s.tfstate"), "-out=" + good}); code != command.ExitOK {
		t.Fatalf("plan: exit %d", code)
	}

	// Rewrite the archive with the marker's msgpack string header made a
	// byte msgpack never uses, and the manifest rehashed.
	bad := rewriteArchive(t, good, "bad.tfplan", func(entries map[string][]byte) {
		needle := append([]byte{0xa0 | byte(len(marker))}, marker...)
		if n := bytes.Count(entries[planfile.EntryPlan], needle); n != 1 {
			t.Fatalf("marker found %d times in the plan entry", n)
		}
		entries[planfile.EntryPlan] = bytes.ReplaceAll(entries[planfile.EntryPlan], needle, append([]byte{0xc1}, marker...))
	})

	var stderr bytes.Buffer
	m.Stdout, m.Stderr = io.Discard, &stderr
	if code := command.Plan(m, []string{"show", "-no-color", bad}); code != command.ExitError {
		t.Fatalf("plan show of a bad value: exit %d, want %d; stderr:\n%s", code, command.ExitError, stderr.String())
	}
	if s := stderr.String(); !strings.Contains(s, "Invalid plan file") || !strings.Contains(s, bad) || !strings.Contains(s, "terraform_data.b") {
		t.Errorf("plan show of a bad value: stderr does not explain it:\n%s", s)
	}
}
