package planfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/jsonplan"
)

// foreignFixtures are the plan files under testdata/foreign that
// Terraform and OpenTofu wrote (make.sh), each beside the show -json
// document the writing tool printed for it.
func foreignFixtures(t testing.TB) []string {
	t.Helper()
	dirs, err := filepath.Glob("testdata/foreign/*-*/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	return dirs
}

// TestForeignShowJSON: jsonplan.Marshal of each decoded Terraform and
// OpenTofu plan file is the writing tool's own show -json document, key
// by key, apart from the details only a schema can tell
// (docs/foreign-plans.md).
func TestForeignShowJSON(t *testing.T) {
	for _, dir := range foreignFixtures(t) {
		t.Run(dir[len("testdata/foreign/"):], func(t *testing.T) {
			r, err := Open(filepath.Join(dir, "plan.tfplan"), WithForeign())
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
			known := map[string]bool{}
			for _, ps := range p.ProviderSchemas {
				for typ := range ps.ResourceTypes {
					known[typ] = true
				}
				for typ := range ps.DataSources {
					known[typ] = true
				}
			}
			for _, doc := range []map[string]any{g, w} {
				schemaOnly(doc, known, false)
				if r.Foreign().Tool == "Terraform" {
					sortRelevant(doc)
				}
			}
			if d := cmp.Diff(w, g); d != "" {
				t.Errorf("show -json differs from the tool's (-tool +plankit):\n%s", d)
			}
		})
	}
}

// schemaOnly removes from a show -json document what only a provider's
// schema can tell (docs/foreign-plans.md), for resources of the types
// without one: their schema_version, and in prior_state the
// sensitive_values of data sources (OpenTofu does not record a data
// source's sensitive attributes in the state; its show -json takes them
// from the schema).
func schemaOnly(v any, known map[string]bool, inPrior bool) {
	switch v := v.(type) {
	case map[string]any:
		if typ, ok := v["type"].(string); ok && v["address"] != nil && !known[typ] {
			delete(v, "schema_version")
			if inPrior && v["mode"] == "data" {
				delete(v, "sensitive_values")
			}
		}
		for k, e := range v {
			schemaOnly(e, known, inPrior || k == "prior_state")
		}
	case []any:
		for _, e := range v {
			schemaOnly(e, known, inPrior)
		}
	}
}

// sortRelevant sorts relevant_attributes by resource and path: Terraform
// lists them in an order that follows its own in-memory representation.
func sortRelevant(doc map[string]any) {
	ra, _ := doc["relevant_attributes"].([]any)
	key := func(e any) string {
		b, _ := json.Marshal(e)
		return string(b)
	}
	slices.SortFunc(ra, func(a, b any) int { return strings.Compare(key(a), key(b)) })
}
