package command

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/planfile/planfiletest"
)

// TestShowJSONReleasesArchive: once the plan and the configuration are
// read, the archive reader of show -json of an archive without
// planfile.EntryShowJSON is closed (its entries are not held while the
// document is written), and the configuration is still there.
func TestShowJSONReleasesArchive(t *testing.T) {
	dir := t.TempDir()
	src := "resource \"terraform_data\" \"a\" {\n  input = \"v\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &Meta{Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}, Environment: operation.Environment{Providers: builtin.Factories()}}
	out := filepath.Join(dir, "p.tfplan")
	if code := Plan(m, []string{"-chdir=" + dir, "-state=" + filepath.Join(dir, "s.tfstate"), "-out=" + out}); code != ExitOK {
		t.Fatalf("plan: exit %d", code)
	}
	older := filepath.Join(dir, "older.tfplan") // as an older plankit writes it
	planfiletest.Rewrite(t, out, older, true, func(entries map[string][]byte) { delete(entries, planfile.EntryShowJSON) })
	r, diags := operation.OpenArchive(older, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	p, cl, diags := readPlanLoadingConfig(r)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	cfg := cl.wait()
	if cfg == nil || cfg.Module.ManagedResources["terraform_data.a"] == nil || p.Changes == nil || len(p.Changes.Resources) != 1 {
		t.Fatalf("config %v, plan %v: want the archive's configuration and plan", cfg, p)
	}
	if names := r.EntryNames(); len(names) != 0 {
		t.Errorf("the reader still holds %d entries after the plan and configuration were read", len(names))
	}
	cl.finish()
	r.Close()
}
