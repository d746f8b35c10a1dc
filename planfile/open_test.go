package planfile

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// zipEntry is one entry of a hand-made archive. With raw set, data is
// written as is under the given header (sizes and CRC as the test says).
type zipEntry struct {
	name   string
	data   []byte
	method uint16
	raw    *zip.FileHeader
}

// makeZip builds an archive with the standard library's writer, which
// checks nothing: duplicates and hostile names go in as given.
func makeZip(t *testing.T, ents []zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range ents {
		var w interface{ Write([]byte) (int, error) }
		var err error
		if e.raw != nil {
			e.raw.Name = e.name
			w, err = zw.CreateRaw(e.raw)
		} else {
			w, err = zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: e.method})
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// validEntries returns the entries of a good archive.
func validEntries(t *testing.T) map[string][]byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteTo(&buf, testArgs(t)); err != nil {
		t.Fatal(err)
	}
	r, err := OpenBytes(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return r.entries
}

// rezip writes entries (sorted) as a new archive, stored uncompressed; with
// rehash it recomputes tfplan.sha256 as a forger would.
func rezip(t *testing.T, entries map[string][]byte, rehash bool, extra ...zipEntry) []byte {
	t.Helper()
	if rehash {
		entries[EntryManifest] = buildManifest(entries)
	}
	var ents []zipEntry
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		ents = append(ents, zipEntry{name: name, data: entries[name], method: zip.Store})
	}
	return makeZip(t, append(ents, extra...))
}

func planHeader(major, minor uint64) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, major)
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, minor)
	// A body this release could not parse, as a future format might have.
	b = protowire.AppendTag(b, 7, protowire.Fixed32Type)
	return protowire.AppendFixed32(b, 0xdeadbeef)
}

// foreignPlan is a "tfplan" entry laid out as Terraform and OpenTofu
// encode theirs: format 3 in field 1, messages (binary) in fields 2 and 3,
// the writer's version in field 14.
func foreignPlan(version string) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, 3)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, []byte("\x0a\x01x\x12\x04\x0a\x02\xa1\x01"))
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	b = protowire.AppendBytes(b, []byte("B*provider[\"x\"]J\x00\xff\xfe\x07"))
	b = protowire.AppendTag(b, 14, protowire.BytesType)
	return protowire.AppendBytes(b, []byte(version))
}

func TestOpenRefusesHostileArchives(t *testing.T) {
	good := func(t *testing.T) []byte { return rezip(t, validEntries(t), false) }
	tests := []struct {
		name     string
		archive  func(t *testing.T) []byte
		opts     []Option
		kind     Kind
		entry    string
		mentions []string
	}{
		{name: "good archive", archive: good},
		{name: "not a zip", archive: func(*testing.T) []byte { return []byte("terraform plan, honest") }, kind: KindNotArchive},
		{name: "empty file", archive: func(*testing.T) []byte { return nil }, kind: KindNotArchive},
		{name: "truncated", archive: func(t *testing.T) []byte { b := good(t); return b[:len(b)/2] }, kind: KindTruncated},
		{name: "end cut off", archive: func(t *testing.T) []byte { b := good(t); return b[:len(b)-10] }, kind: KindTruncated},
		{name: "traversal", archive: func(t *testing.T) []byte {
			return makeZip(t, []zipEntry{{name: "../../etc/cron.d/x", data: []byte("x")}})
		}, kind: KindBadEntryName, entry: "../../etc/cron.d/x"},
		{name: "inner traversal", archive: func(t *testing.T) []byte {
			return makeZip(t, []zipEntry{{name: "tfconfig/../../x.tf", data: []byte("x")}})
		}, kind: KindBadEntryName},
		{name: "absolute", archive: func(t *testing.T) []byte {
			return makeZip(t, []zipEntry{{name: "/etc/passwd", data: []byte("x")}})
		}, kind: KindBadEntryName},
		{name: "drive letter", archive: func(t *testing.T) []byte {
			return makeZip(t, []zipEntry{{name: "C:/Windows/x", data: []byte("x")}})
		}, kind: KindBadEntryName},
		{name: "backslash", archive: func(t *testing.T) []byte {
			return makeZip(t, []zipEntry{{name: `tfconfig\..\x.tf`, data: []byte("x")}})
		}, kind: KindBadEntryName},
		{name: "control character", archive: func(t *testing.T) []byte {
			return makeZip(t, []zipEntry{{name: "tfplan\x00.txt", data: []byte("x")}})
		}, kind: KindBadEntryName},
		{name: "duplicate", archive: func(t *testing.T) []byte {
			return rezip(t, validEntries(t), false, zipEntry{name: EntryPlan, data: []byte("second")})
		}, kind: KindDuplicateEntry, entry: EntryPlan},
		{name: "too many entries", archive: func(t *testing.T) []byte {
			ents := make([]zipEntry, DefaultLimits().MaxEntries+1)
			for i := range ents {
				ents[i] = zipEntry{name: fmt.Sprint("e", i), method: zip.Store}
			}
			return makeZip(t, ents)
		}, kind: KindTooManyEntries, mentions: []string{"20001"}},
		{name: "huge declared size", archive: func(t *testing.T) []byte {
			return makeZip(t, []zipEntry{{name: EntryPlan, data: []byte("x"), raw: &zip.FileHeader{
				Method: zip.Deflate, CompressedSize64: 1, UncompressedSize64: 1 << 40, CRC32: 1}}})
		}, kind: KindTooLarge, entry: EntryPlan},
		{name: "total size", archive: func(t *testing.T) []byte {
			return makeZip(t, []zipEntry{{name: "a", data: bytes.Repeat([]byte("a"), 600), method: zip.Store}, {name: "b", data: bytes.Repeat([]byte("b"), 600), method: zip.Store}})
		}, opts: []Option{WithLimits(Limits{MaxArchiveSize: 1 << 20, MaxEntries: 10, MaxEntrySize: 1000, MaxTotalSize: 1000, MaxRatio: 10, RatioFloor: 1 << 20})},
			kind: KindTooLarge, entry: "b"},
		{name: "lying size", archive: func(t *testing.T) []byte {
			var body bytes.Buffer
			fw := zip.NewWriter(&body) // compress 4 KiB, then claim 10 bytes
			w, _ := fw.CreateHeader(&zip.FileHeader{Name: "x", Method: zip.Deflate})
			w.Write(bytes.Repeat([]byte("z"), 4096))
			fw.Close()
			zr, _ := zip.NewReader(bytes.NewReader(body.Bytes()), int64(body.Len()))
			raw, _ := zr.File[0].OpenRaw()
			comp := make([]byte, zr.File[0].CompressedSize64)
			raw.Read(comp)
			return makeZip(t, []zipEntry{{name: EntryPlan, data: comp, raw: &zip.FileHeader{
				Method: zip.Deflate, CompressedSize64: uint64(len(comp)), UncompressedSize64: 10, CRC32: zr.File[0].CRC32}}})
		}, kind: KindTruncated, entry: EntryPlan},
		{name: "zip bomb ratio", archive: func(t *testing.T) []byte {
			return makeZip(t, []zipEntry{{name: EntryPlan, data: make([]byte, 8<<20), method: zip.Deflate}})
		}, kind: KindCompressionRatio, entry: EntryPlan},
		{name: "unsupported method", archive: func(t *testing.T) []byte {
			return makeZip(t, []zipEntry{{name: EntryPlan, data: []byte("x"), raw: &zip.FileHeader{Method: 14, CompressedSize64: 1, UncompressedSize64: 1}}})
		}, kind: KindUnsupportedCompression, entry: EntryPlan},
		{name: "flipped byte", archive: func(t *testing.T) []byte {
			ents := validEntries(t)
			b := rezip(t, ents, false)
			i := bytes.Index(b, ents[EntryPriorState])
			b[i+len(ents[EntryPriorState])/2] ^= 0x20 // stored, so the byte is the entry's
			return b
		}, kind: KindChecksum, entry: EntryPriorState},
		{name: "tampered entry", archive: func(t *testing.T) []byte {
			ents := validEntries(t)
			ents[EntryPriorState] = bytes.Replace(ents[EntryPriorState], []byte(`"serial": 7`), []byte(`"serial": 8`), 1)
			return rezip(t, ents, false)
		}, kind: KindIntegrity, entry: EntryPriorState},
		{name: "tampered config", archive: func(t *testing.T) []byte {
			ents := validEntries(t)
			ents["tfconfig/main.tf"] = append(ents["tfconfig/main.tf"], "\nresource \"null_resource\" \"evil\" {}\n"...)
			return rezip(t, ents, false)
		}, kind: KindIntegrity, entry: "tfconfig/main.tf"},
		{name: "smuggled entry", archive: func(t *testing.T) []byte {
			ents := validEntries(t)
			ents["tfconfig/evil.tf"] = []byte("x")
			return rezip(t, ents, false)
		}, kind: KindIntegrity, entry: "tfconfig/evil.tf"},
		{name: "no manifest", archive: func(t *testing.T) []byte {
			ents := validEntries(t)
			delete(ents, EntryManifest)
			return rezip(t, ents, false)
		}, kind: KindIntegrity, entry: EntryManifest},
		{name: "missing tfplan", archive: func(t *testing.T) []byte {
			ents := validEntries(t)
			delete(ents, EntryPlan)
			return rezip(t, ents, true)
		}, kind: KindMissingEntry, entry: EntryPlan},
		{name: "missing state", archive: func(t *testing.T) []byte {
			ents := validEntries(t)
			delete(ents, EntryPrevRunState)
			return rezip(t, ents, true)
		}, kind: KindMissingEntry, entry: EntryPrevRunState},
		{name: "version 99", archive: func(t *testing.T) []byte {
			ents := validEntries(t)
			ents[EntryPlan] = planHeader(99, 0)
			return rezip(t, ents, true)
		}, kind: KindFormatVersion, entry: EntryPlan, mentions: []string{"99.0", "1.x"}},
		{name: "terraform plan file", archive: func(t *testing.T) []byte {
			return makeZip(t, []zipEntry{{name: EntryPlan, data: foreignPlan("1.11.4")}, {name: EntryPriorState, data: []byte("{}")},
				{name: "tfconfig/m-/main.tf", data: []byte("")}, {name: EntryConfigModules, data: []byte("[]")}})
		}, kind: KindForeignPlan, entry: EntryPlan, mentions: []string{"Terraform or OpenTofu", "1.11.4", "plan format 3"}},
		{name: "terraform plan file, no version", archive: func(t *testing.T) []byte {
			return makeZip(t, []zipEntry{{name: EntryPlan, data: foreignPlan("\x01\xfe")}})
		}, kind: KindForeignPlan, entry: EntryPlan, mentions: []string{"written (plan format 3)"}},
		{name: "version 99 with an unprintable writer", archive: func(t *testing.T) []byte {
			ents := validEntries(t)
			ents[EntryPlan] = append(planHeader(99, 0), protowire.AppendBytes(protowire.AppendTag(nil, 3, protowire.BytesType), []byte("B*\x01\xff\x00x"))...)
			return rezip(t, ents, true)
		}, kind: KindFormatVersion, entry: EntryPlan, mentions: []string{"99.0"}},
		{name: "newer minor is fine", archive: func(t *testing.T) []byte {
			ents := validEntries(t)
			ents[EntryPlan] = append(ents[EntryPlan], protowire.AppendVarint(protowire.AppendTag(nil, 2, protowire.VarintType), 9)...)
			return rezip(t, ents, true)
		}},
		{name: "archive too large", archive: good, opts: []Option{WithLimits(Limits{MaxArchiveSize: 100})}, kind: KindTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := OpenBytes(tt.archive(t), tt.opts...)
			if tt.kind == 0 {
				if err != nil {
					t.Fatalf("good archive refused: %v", err)
				}
				if _, err := r.ReadPlan(); err != nil {
					t.Fatalf("ReadPlan: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("archive accepted, want %v", tt.kind)
			}
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, tt.kind) {
				t.Fatalf("got %v (%T), want kind %v", err, err, tt.kind)
			}
			if tt.entry != "" && pe.Entry != tt.entry {
				t.Errorf("error names entry %q, want %q (%v)", pe.Entry, tt.entry, err)
			}
			for _, c := range err.Error() {
				if c < 0x20 || c > 0x7e {
					t.Errorf("error %q has a byte that is not printable ASCII: %q", err, c)
				}
			}
			for _, s := range tt.mentions {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

func TestCRCCheckedBeforeHash(t *testing.T) {
	// A stored entry whose CRC is wrong but whose bytes are the original
	// ones is a damaged file, reported as such.
	ents := validEntries(t)
	data := ents[EntryLocks]
	b := makeZip(t, []zipEntry{{name: EntryLocks, data: data, raw: &zip.FileHeader{
		Method: zip.Store, CompressedSize64: uint64(len(data)), UncompressedSize64: uint64(len(data)), CRC32: crc32.ChecksumIEEE(data) ^ 1}}})
	if _, err := OpenBytes(b); !errors.Is(err, KindChecksum) {
		t.Fatalf("got %v, want a checksum error", err)
	}
}

func TestErrorsNameThePath(t *testing.T) {
	path := writeArchive(t, testArgs(t))
	_, err := Open(path + ".missing")
	if !errors.Is(err, KindIO) || !strings.Contains(err.Error(), path+".missing") {
		t.Fatalf("got %v, want an I/O error naming the file", err)
	}
}
