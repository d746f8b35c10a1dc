package planfile

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/plans"
)

// testFiles are file records of every kind, sorted, as a plan holds them.
func testFiles() []*plans.File {
	return []*plans.File{
		{Path: "../shared/ca.pem", Kind: plans.FileContent, Content: []byte("-----BEGIN CERTIFICATE-----\n")},
		{Path: "/etc/plankit/banner", Kind: plans.FileExists},
		{Path: "empty.txt", Kind: plans.FileContent, Content: []byte{}},
		{Path: "modules/site/files", Kind: plans.FileDir, List: []string{"a/b.txt", "header.txt"}},
		{Path: "modules/site/files/footer.txt", Kind: plans.FileAbsent},
		{Path: "modules/site/files/header.txt", Kind: plans.FileContent, Content: []byte("ACME\n")},
		{Path: "modules/site/files/logo.bin", Kind: plans.FileContent, Content: []byte{0x89, 'P', 'N', 'G', 0, 1}},
	}
}

func argsWithFiles(t testing.TB) *CreateArgs {
	args := testArgs(t)
	args.Plan.Files = testFiles()
	slices.SortFunc(args.Plan.Files, func(a, b *plans.File) int { return strings.Compare(a.Path, b.Path) })
	return args
}

func TestFilesRoundTrip(t *testing.T) {
	args := argsWithFiles(t)
	r, err := Open(writeArchive(t, args))
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.ReadPlan()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(args.Plan.Files, got.Files); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	var data []string
	for _, n := range r.EntryNames() {
		if strings.HasPrefix(n, EntryDataDir) {
			data = append(data, n)
		}
	}
	want := []string{"tfdata/0", "tfdata/2", "tfdata/5", "tfdata/6", EntryDataFiles}
	if d := cmp.Diff(want, data); d != "" {
		t.Errorf("tfdata entries (-want +got):\n%s", d)
	}
	manifest, _ := r.Entry(EntryManifest)
	for _, n := range want {
		if !bytes.Contains(manifest, []byte("  "+n+"\n")) {
			t.Errorf("%s does not cover %s", EntryManifest, n)
		}
	}
}

// TestNoFilesNoEntries: a plan that read no files gives the archive it
// gave before files were recorded: no tfdata/ entries, and an empty list
// writes the same bytes as none.
func TestNoFilesNoEntries(t *testing.T) {
	var out [2][]byte
	for i, files := range [][]*plans.File{nil, {}} {
		args := testArgs(t)
		args.Plan.Files = files
		b, err := os.ReadFile(writeArchive(t, args))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = b
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Error("an empty file list changes the archive")
	}
	r, err := OpenBytes(out[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range r.EntryNames() {
		if strings.HasPrefix(n, EntryDataDir) {
			t.Errorf("archive of a plan with no files has %s", n)
		}
	}
	p, err := r.ReadPlan()
	if err != nil {
		t.Fatal(err)
	}
	if p.Files != nil {
		t.Errorf("Files = %v, want nil", p.Files)
	}
}

func TestWriteRefusesUnsortedFiles(t *testing.T) {
	args := testArgs(t)
	args.Plan.Files = []*plans.File{{Path: "b", Kind: plans.FileAbsent}, {Path: "a", Kind: plans.FileAbsent}}
	var buf bytes.Buffer
	if err := WriteTo(&buf, args); err == nil || !strings.Contains(err.Error(), "out of order") {
		t.Fatalf("WriteTo = %v, want an out-of-order error", err)
	}
}

// TestReadPlanRefusesHostileFiles: tfdata/ entries altered, smuggled,
// duplicated or oversized are refused, by Open (zip structure, limits,
// integrity) or by ReadPlan (the listing), with the entry named.
func TestReadPlanRefusesHostileFiles(t *testing.T) {
	entries := func(t *testing.T) map[string][]byte {
		t.Helper()
		var buf bytes.Buffer
		if err := WriteTo(&buf, argsWithFiles(t)); err != nil {
			t.Fatal(err)
		}
		r, err := OpenBytes(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		return r.entries
	}
	// forged rewrites files.json with edit and recomputes the manifest, as
	// someone who can write the archive but not sign it would.
	forged := func(edit func(m map[string][]byte)) func(t *testing.T) []byte {
		return func(t *testing.T) []byte {
			ents := entries(t)
			edit(ents)
			return rezip(t, ents, true)
		}
	}
	replaceListing := func(old, new string) func(t *testing.T) []byte {
		return forged(func(m map[string][]byte) {
			if !bytes.Contains(m[EntryDataFiles], []byte(old)) {
				panic("listing lacks " + old)
			}
			m[EntryDataFiles] = bytes.Replace(m[EntryDataFiles], []byte(old), []byte(new), 1)
		})
	}
	small := Limits{MaxArchiveSize: 1 << 20, MaxEntries: 100, MaxEntrySize: 5000, MaxTotalSize: 1 << 20, MaxRatio: 500, RatioFloor: 1 << 20}
	tests := []struct {
		name    string
		archive func(t *testing.T) []byte
		opts    []Option
		kind    Kind
		entry   string
	}{
		{name: "good", archive: forged(func(map[string][]byte) {})},
		{name: "duplicate data entry", archive: func(t *testing.T) []byte {
			return rezip(t, entries(t), false, zipEntry{name: "tfdata/5", data: []byte("evil")})
		}, kind: KindDuplicateEntry, entry: "tfdata/5"},
		{name: "duplicate listing", archive: func(t *testing.T) []byte {
			return rezip(t, entries(t), false, zipEntry{name: EntryDataFiles, data: []byte(`{"files":[]}`)})
		}, kind: KindDuplicateEntry, entry: EntryDataFiles},
		{name: "oversized data entry", archive: forged(func(m map[string][]byte) {
			m["tfdata/5"] = bytes.Repeat([]byte("x"), 6000)
		}), opts: []Option{WithLimits(small)}, kind: KindTooLarge, entry: "tfdata/5"},
		{name: "altered content", archive: func(t *testing.T) []byte {
			ents := entries(t)
			ents["tfdata/5"] = []byte("EVIL\n")
			return rezip(t, ents, false)
		}, kind: KindIntegrity, entry: "tfdata/5"},
		{name: "smuggled data entry", archive: forged(func(m map[string][]byte) {
			m["tfdata/99"] = []byte("x")
		}), kind: KindCorrupt, entry: "tfdata/99"},
		{name: "data without listing", archive: forged(func(m map[string][]byte) {
			delete(m, EntryDataFiles)
		}), kind: KindCorrupt, entry: "tfdata/0"},
		{name: "listed entry missing", archive: forged(func(m map[string][]byte) {
			delete(m, "tfdata/5")
		}), kind: KindMissingEntry, entry: "tfdata/5"},
		{name: "entry listed twice", archive: replaceListing(`"entry": "tfdata/6"`, `"entry": "tfdata/5"`), kind: KindCorrupt, entry: EntryDataFiles},
		{name: "entry outside tfdata", archive: replaceListing(`"entry": "tfdata/5"`, `"entry": "tfplan"`), kind: KindCorrupt, entry: EntryDataFiles},
		{name: "listing names itself", archive: replaceListing(`"entry": "tfdata/5"`, `"entry": "tfdata/files.json"`), kind: KindCorrupt, entry: EntryDataFiles},
		{name: "duplicate path", archive: replaceListing(`"path": "modules/site/files/logo.bin"`, `"path": "modules/site/files/header.txt"`), kind: KindCorrupt, entry: EntryDataFiles},
		{name: "unknown kind", archive: replaceListing(`"kind": "absent"`, `"kind": "symlink"`), kind: KindCorrupt, entry: EntryDataFiles},
		{name: "control character in path", archive: replaceListing(`"path": "empty.txt"`, `"path": "empty\u0000.txt"`), kind: KindCorrupt, entry: EntryDataFiles},
		{name: "absent file with data", archive: replaceListing(`"kind": "absent"`, `"kind": "absent", "entry": "tfdata/99"`), kind: KindCorrupt, entry: EntryDataFiles},
		{name: "unknown field", archive: replaceListing(`"kind": "absent"`, `"kind": "absent", "mode": 493`), kind: KindCorrupt, entry: EntryDataFiles},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := OpenBytes(tt.archive(t), tt.opts...)
			if err == nil {
				_, err = r.ReadPlan()
			}
			if tt.kind == 0 {
				if err != nil {
					t.Fatalf("good archive refused: %v", err)
				}
				return
			}
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, tt.kind) {
				t.Fatalf("got %v, want kind %v", err, tt.kind)
			}
			if pe.Entry != tt.entry {
				t.Errorf("error names entry %q, want %q (%v)", pe.Entry, tt.entry, err)
			}
		})
	}
}
