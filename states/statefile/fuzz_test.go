package statefile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead checks that Read never panics and that whatever it accepts
// writes, reads back and writes again to the same bytes. The seed corpus is
// testdata/fuzz/FuzzRead plus the fixture and golden files.
func FuzzRead(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.tfstate")
	seeds = append(seeds, fixturePath,
		"../../testdata/fixtures/compat-state-opentofu/terraform.tfstate",
		"../../testdata/fixtures/compat-state-terraform/terraform.tfstate")
	for _, p := range seeds {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	// OpenTofu's per-instance provider addresses (provider for_each).
	f.Add([]byte(`{"version":4,"serial":1,"lineage":"l","resources":[{"mode":"managed","type":"null_resource","name":"r","instances":[{"index_key":"a","provider":"provider[\"registry.opentofu.org/hashicorp/null\"].by[\"a\"]","schema_version":0,"attributes":{"id":"1"},"skip_destroy":true}]}]}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		sf, err := Read(bytes.NewReader(src))
		if err != nil {
			return
		}
		var first bytes.Buffer
		if err := Write(sf, &first); err != nil {
			// Values Read accepts must be writable.
			t.Fatalf("Write after a successful Read: %s", err)
		}
		again, err := Read(bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatalf("Read of our own output: %s\n%s", err, first.Bytes())
		}
		var second bytes.Buffer
		if err := Write(again, &second); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("write/read/write is not stable:\n%s\n---\n%s", first.Bytes(), second.Bytes())
		}
	})
}

// FuzzCompactValid: the reader's compaction of attribute values is
// json.Compact's on every valid JSON value.
func FuzzCompactValid(f *testing.F) {
	for _, s := range attrJSONs {
		f.Add([]byte(s))
	}
	f.Add([]byte("{\n  \"a\\\\\": \"b\\\" c\",\n  \"d\": [ 1, 2 ]\n}"))
	f.Fuzz(func(t *testing.T, v []byte) {
		var want bytes.Buffer
		if json.Compact(&want, v) != nil || !json.Valid(v) {
			return
		}
		if got := compactValid(v); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%q: got %q, want %q", v, got, want.Bytes())
		}
	})
}
