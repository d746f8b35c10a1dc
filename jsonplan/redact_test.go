package jsonplan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/plans/planstest"
)

// TestRedact: the document of a plan with sensitive values through
// attributes, list indexes, map keys and set elements, sensitive
// outputs and variables holds the password "hunter2" before redaction
// and not after; the sensitivity markers stay, and redacting a
// redacted document changes nothing.
func TestRedact(t *testing.T) {
	p := planstest.FullPlan()
	doc, err := Marshal(p, Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "hunter2") {
		t.Fatal("the document lacks the plan's password: the test cannot see a leak")
	}
	red, err := Redact(doc, p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(red), "hunter2") {
		t.Errorf("the redacted document holds the password:\n%s", red)
	}
	for name, s := range p.VariableSensitive {
		if s && strings.Contains(string(red), `"`+name+`":{"value":`) && !strings.Contains(string(red), `"`+name+`":{"value":"`+RedactedValue+`"}`) {
			t.Errorf("the sensitive variable %s is not redacted", name)
		}
	}
	var before, after map[string]any
	if err := json.Unmarshal(doc, &before); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(red, &after); err != nil {
		t.Fatalf("the redacted document is not JSON: %v", err)
	}
	rc := func(m map[string]any) map[string]any {
		return m["resource_changes"].([]any)[0].(map[string]any)["change"].(map[string]any)
	}
	if diff := cmp.Diff(rc(before)["after_sensitive"], rc(after)["after_sensitive"]); diff != "" {
		t.Errorf("the markers changed:\n%s", diff)
	}
	again, err := Redact(red, p)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(red) {
		t.Errorf("redacting twice changed the document")
	}
	if _, err := Redact([]byte("{"), nil); err == nil {
		t.Errorf("a broken document was accepted")
	}
}
