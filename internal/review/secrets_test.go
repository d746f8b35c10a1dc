package review

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/planfile"
)

// TestNoSecretInOutputs: the values planted as a sensitive variable
// (through a sensitive output and a sensitive attribute) and as a
// literal of a sensitive attribute appear in no output: the Markdown,
// the HTML report and the redacted show -json document; the unredacted
// document does hold them (so the test would see a leak).
func TestNoSecretInOutputs(t *testing.T) {
	path := basicFixture(2).build(t, "stack.tfplan")
	a := loadArchive(t, path, nil)
	md, err := Markdown([]*Archive{a}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := HTML(context.Background(), &page, []*Archive{a}); err != nil {
		t.Fatal(err)
	}
	r, err := planfile.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := r.ShowJSON()
	sections, err := jsonplan.ParseSections(raw)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonplan.Marshal(a.Plan, jsonplan.Options{Version: "test", Sections: sections})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range plantedSecrets {
		if !bytes.Contains(doc, []byte(s)) && !strings.HasSuffix(s, "-1") {
			t.Fatalf("the unredacted document lacks %q: the test cannot see a leak", s)
		}
	}
	redacted, err := jsonplan.Redact(doc, a.Plan)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(redacted, []byte(jsonplan.RedactedValue)) {
		t.Fatalf("nothing was redacted")
	}
	for name, out := range map[string][]byte{"markdown": md, "html": page.Bytes(), "redacted json": redacted} {
		for _, s := range plantedSecrets {
			if i := bytes.Index(out, []byte(s)); i >= 0 {
				t.Errorf("the %s holds the planted secret %q: ...%s...", name, s, out[max(0, i-200):min(len(out), i+50)])
			}
		}
	}
}
