package planfile_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/planfile/planfiletest"
)

// TestForeignShowJSON: jsonplan.Marshal of each decoded Terraform and
// OpenTofu plan file is the writing tool's own show -json document, key
// by key, apart from the details only a schema can tell
// (docs/foreign-plans.md; planfiletest.NormaliseForeignShow).
func TestForeignShowJSON(t *testing.T) {
	dirs, err := filepath.Glob("testdata/foreign/*-*/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, dir := range dirs {
		t.Run(dir[len("testdata/foreign/"):], func(t *testing.T) {
			r, err := planfile.Open(filepath.Join(dir, "plan.tfplan"), planfile.WithForeign())
			if err != nil {
				t.Fatal(err)
			}
			p, info, err := r.ReadForeignPlan()
			if err != nil {
				t.Fatal(err)
			}
			cfg, diags := r.ReadConfig()
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			got, err := jsonplan.Marshal(p, jsonplan.Options{Version: info.Version, Config: cfg, Writer: r.Foreign().JSONWriter()})
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, "show.json"))
			if err != nil {
				t.Fatal(err)
			}
			var g, w map[string]any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			known, err := planfiletest.ForeignKnownTypes(r)
			if err != nil {
				t.Fatal(err)
			}
			planfiletest.NormaliseForeignShow(g, w, known, r.Foreign().Tool, r.Foreign().Version)
			if d := cmp.Diff(w, g); d != "" {
				t.Errorf("show -json differs from the tool's (-tool +plankit):\n%s", d)
			}
		})
	}
}
