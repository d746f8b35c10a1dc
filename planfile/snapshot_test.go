package planfile

import (
	"bytes"
	"errors"
	"testing"
)

// TestReadConfigSnapshotRefusesForgedManifest rewrites tfconfig/ entries and
// modules.json and recomputes tfplan.sha256, as someone who can write the
// archive but not sign it would: Open accepts the archive, and
// ReadConfigSnapshot must refuse the inconsistent snapshot.
func TestReadConfigSnapshotRefusesForgedManifest(t *testing.T) {
	forged := func(edit func(m map[string][]byte)) func(t *testing.T) []byte {
		return func(t *testing.T) []byte {
			ents := validEntries(t)
			edit(ents)
			return rezip(t, ents, true)
		}
	}
	replaceManifest := func(old, new string) func(t *testing.T) []byte {
		return forged(func(m map[string][]byte) {
			if !bytes.Contains(m[EntryConfigModules], []byte(old)) {
				panic("modules.json lacks " + old)
			}
			m[EntryConfigModules] = bytes.Replace(m[EntryConfigModules], []byte(old), []byte(new), 1)
		})
	}
	tests := []struct {
		name    string
		archive func(t *testing.T) []byte
		kind    Kind
		entry   string
	}{
		{name: "good", archive: forged(func(map[string][]byte) {})},
		{name: "unlisted config file", archive: forged(func(m map[string][]byte) {
			m["tfconfig/m-net/evil.tf"] = []byte(`resource "null_resource" "evil" {}`)
		}), kind: KindCorrupt, entry: "tfconfig/m-net/evil.tf"},
		{name: "listed file missing", archive: forged(func(m map[string][]byte) {
			delete(m, "tfconfig/main.tf")
		}), kind: KindMissingEntry, entry: "tfconfig/main.tf"},
		{name: "file listed twice", archive: replaceManifest(`"net.tf"`, `"net.tf", "net.tf"`), kind: KindCorrupt, entry: EntryConfigModules},
		{name: "module listed twice", archive: replaceManifest(`"modules": [`,
			`"modules": [{"key": "net", "dir": "", "source": "", "files": []},`), kind: KindCorrupt, entry: EntryConfigModules},
		{name: "file name climbs out", archive: replaceManifest(`"main.tf"`, `"../tfplan"`), kind: KindCorrupt, entry: EntryConfigModules},
		{name: "unknown field", archive: replaceManifest(`"modules": [`, `"version": 2, "modules": [`), kind: KindCorrupt, entry: EntryConfigModules},
		{name: "not JSON", archive: forged(func(m map[string][]byte) {
			m[EntryConfigModules] = []byte("{")
		}), kind: KindCorrupt, entry: EntryConfigModules},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := OpenBytes(tt.archive(t))
			if err != nil {
				t.Fatalf("Open refused the forged archive: %v", err)
			}
			s, err := r.ReadConfigSnapshot()
			if tt.kind == 0 {
				if err != nil || s.Modules["net"] == nil {
					t.Fatalf("good snapshot: got %v, %v", s, err)
				}
				return
			}
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, tt.kind) {
				t.Fatalf("got %v (%T), want kind %v", err, err, tt.kind)
			}
			if pe.Entry != tt.entry {
				t.Errorf("error names entry %q, want %q (%v)", pe.Entry, tt.entry, err)
			}
		})
	}
}
