package planfile

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// showJSONEntry is an EntryBuffer holding content, written in writes of
// chunk bytes and closed.
func showJSONEntry(t *testing.T, content []byte, chunk int) *EntryBuffer {
	t.Helper()
	b := NewEntryBuffer()
	for rest := content; len(rest) > 0; {
		n := min(chunk, len(rest))
		if _, err := b.Write(rest[:n]); err != nil {
			t.Fatal(err)
		}
		rest = rest[n:]
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	if _, err := b.Write([]byte("x")); err == nil {
		t.Fatal("a write after Close was taken")
	}
	return b
}

// TestShowJSONEntry: CreateArgs.ShowJSON is stored as EntryShowJSON,
// covered by the manifest, read back by ShowJSON as it was written; the
// archive's bytes do not depend on how the content was cut into writes;
// an archive without it has none; an entry not closed is refused.
func TestShowJSONEntry(t *testing.T) {
	content := []byte(`{"configuration":{"root_module":{}}}` + strings.Repeat(" ", 100_000))
	args := testArgs(t)
	args.ShowJSON = showJSONEntry(t, content, 1<<20)
	path := writeArchive(t, args)
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := r.ShowJSON()
	if !ok || !bytes.Equal(got, content) {
		t.Fatalf("ShowJSON() = %d bytes, %v; want the %d bytes written", len(got), ok, len(content))
	}
	manifest, _ := r.Entry(EntryManifest)
	if !bytes.Contains(manifest, []byte("  "+EntryShowJSON+"\n")) {
		t.Errorf("the manifest does not cover %s:\n%s", EntryShowJSON, manifest)
	}

	args.ShowJSON = showJSONEntry(t, content, 7)
	again := writeArchive(t, args)
	a, _ := os.ReadFile(path)
	b, _ := os.ReadFile(again)
	if !bytes.Equal(a, b) {
		t.Error("the archive's bytes depend on how the entry's content was written")
	}

	args.ShowJSON = nil
	r, err = Open(writeArchive(t, args))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.ShowJSON(); ok {
		t.Errorf("an archive written without ShowJSON has a %s entry", EntryShowJSON)
	}

	args.ShowJSON = NewEntryBuffer()
	if err := WriteTo(&bytes.Buffer{}, args); err == nil || !strings.Contains(err.Error(), "not closed") {
		t.Errorf("an open entry: error %v, want one saying it is not closed", err)
	}
}
