package planfiletest

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/plankit/plankit/planfile"
)

// ForeignKnownTypes is the resource and data source types whose schema a
// Terraform or OpenTofu plan file's decoded plan carries.
func ForeignKnownTypes(r *planfile.Reader) (map[string]bool, error) {
	p, _, err := r.ReadForeignPlan()
	if err != nil {
		return nil, err
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
	return known, nil
}

// NormaliseForeignShow removes from got (plankit's show -json of a
// Terraform or OpenTofu plan file) and want (the writing tool's own) the
// details only a provider schema the file lacks can tell, as
// docs/foreign-plans.md lists them, so the rest compares key by key:
//   - schema_version, and in prior_state a data source's
//     sensitive_values, of types without a schema (known lists those
//     with one);
//   - for Terraform 1.5 (version "1.5.x"), which records only the
//     sensitivity the configuration gave, the attributes the test
//     provider's schema declares sensitive, in want;
//   - for Terraform, the order of relevant_attributes, which follows its
//     in-memory representation.
func NormaliseForeignShow(got, want map[string]any, known map[string]bool, tool, version string) {
	if tool == "Terraform" && strings.HasPrefix(version, "1.5.") {
		unmarkSchemaSensitive(want, known)
	}
	for _, doc := range []map[string]any{got, want} {
		schemaOnly(doc, known, false)
		if tool == "Terraform" {
			sortRelevant(doc)
		}
	}
}

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

func sortRelevant(doc map[string]any) {
	ra, _ := doc["relevant_attributes"].([]any)
	key := func(e any) string {
		b, _ := json.Marshal(e)
		return string(b)
	}
	slices.SortFunc(ra, func(a, b any) int { return strings.Compare(key(a), key(b)) })
}

// fwtestSensitive are the attributes the fwtest provider's schema
// declares sensitive.
var fwtestSensitive = [][]string{{"secret"}, {"password_wo"}, {"single", "s"}}

func unmarkSchemaSensitive(v any, known map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		if typ, ok := v["type"].(string); ok && v["address"] != nil && !known[typ] {
			for _, holder := range []map[string]any{v, asMap(v["change"])} {
				for _, key := range []string{"sensitive_values", "before_sensitive", "after_sensitive"} {
					m := asMap(holder[key])
					for _, path := range fwtestSensitive {
						inner := m
						for _, step := range path[:len(path)-1] {
							inner = asMap(inner[step])
						}
						delete(inner, path[len(path)-1])
					}
				}
			}
		}
		for _, e := range v {
			unmarkSchemaSensitive(e, known)
		}
	case []any:
		for _, e := range v {
			unmarkSchemaSensitive(e, known)
		}
	}
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
