package planfile

import (
	"archive/zip"
	"bytes"
	"crypto/ed25519"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/plankit/plankit/jsonplan"
	"github.com/plankit/plankit/plans"
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

// TestForeignOpen: each fixture opens with WithForeign and reads through
// the same Reader methods as a plankit archive: who wrote it, its mode,
// the resources shown without a schema, its configuration and locks.
func TestForeignOpen(t *testing.T) {
	modes := map[string]plans.Mode{"change": plans.NormalMode, "destroy": plans.DestroyMode, "refresh": plans.RefreshOnlyMode}
	for _, dir := range foreignFixtures(t) {
		t.Run(dir[len("testdata/foreign/"):], func(t *testing.T) {
			tool, version, _ := strings.Cut(filepath.Base(filepath.Dir(dir)), "-")
			r, err := Open(filepath.Join(dir, "plan.tfplan"), WithForeign())
			if err != nil {
				t.Fatal(err)
			}
			wantTool := map[string]string{"terraform": "Terraform", "tofu": "OpenTofu"}[tool]
			if got := r.Foreign(); got == nil || *got != (ForeignWriter{Tool: wantTool, Version: version}) {
				t.Fatalf("Foreign() = %+v, want %s %s", got, wantTool, version)
			}
			if r.Signed() || r.FormatInfo().Major != plans.ForeignFormatVersion {
				t.Errorf("Signed %v, FormatInfo %+v", r.Signed(), r.FormatInfo())
			}
			p, info, err := r.ReadForeignPlan()
			if err != nil {
				t.Fatal(err)
			}
			if want := modes[filepath.Base(dir)]; p.UIMode != want {
				t.Errorf("mode %s, want %s", p.UIMode, want)
			}
			if p.PriorState == nil || p.PrevRunState == nil || p.PriorState.Empty() {
				t.Errorf("states not read: prior %v, prev %v", p.PriorState, p.PrevRunState)
			}
			for _, addr := range info.WithoutSchema {
				if !strings.Contains(addr, "fwtest_thing.") {
					t.Errorf("%s decoded without a schema; only fwtest's resources lack one", addr)
				}
			}
			if info.BackendType != "local" || info.Workspace != "default" {
				t.Errorf("backend %q workspace %q", info.BackendType, info.Workspace)
			}
			snap, err := r.ReadConfigSnapshot()
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for k, m := range snap.Modules {
				keys = append(keys, k+":"+strings.Join(slices.Sorted(maps.Keys(m.Files)), ","))
			}
			slices.Sort(keys)
			if d := cmp.Diff([]string{":main.tf", "box:main.tf"}, keys); d != "" {
				t.Errorf("snapshot modules (-want +got):\n%s", d)
			}
			locks, err := r.ReadDependencyLocks()
			if err != nil {
				t.Fatal(err)
			}
			if len(locks.AllProviders()) != 1 {
				t.Errorf("locks: %v", locks.AllProviders())
			}
			dp, changes, err := r.ReadPlanDeferred()
			if err != nil {
				t.Fatal(err)
			}
			for i := range dp.Changes.Resources {
				rc, err := changes.Load(i)
				if err != nil || rc.Addr.String() != p.Changes.Resources[i].Addr.String() {
					t.Errorf("deferred change %d: %v %v", i, rc, err)
				}
			}
		})
	}
}

// foreignEntries are the entries of the Terraform fixture of scenario.
func foreignEntries(t *testing.T, scenario string) map[string][]byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata/foreign/terraform-1.11.4", scenario, "plan.tfplan"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	ents := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		if err != nil {
			t.Fatal(err)
		}
		ents[f.Name] = b
	}
	return ents
}

func zipEntries(t *testing.T, ents map[string][]byte, extra ...zipEntry) []byte {
	var list []zipEntry
	for _, name := range slices.Sorted(maps.Keys(ents)) {
		list = append(list, zipEntry{name: name, data: ents[name], method: zip.Deflate})
	}
	return makeZip(t, append(list, extra...))
}

// TestForeignRefused: what is not a foreign plan this reader knows, or is
// damaged, is refused with an error naming what it is and what was
// expected; the archive checks of plankit's own archives apply first.
func TestForeignRefused(t *testing.T) {
	withVersion := func(v uint64) func(t *testing.T) []byte {
		return func(t *testing.T) []byte {
			ents := foreignEntries(t, "change")
			b := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), v)
			ents[EntryPlan] = append(b, protowire.AppendString(protowire.AppendTag(nil, 14, protowire.BytesType), "0.11.14")...)
			return zipEntries(t, ents)
		}
	}
	tests := []struct {
		name     string
		archive  func(t *testing.T) []byte
		opts     []Option
		kind     Kind
		entry    string
		mentions []string
	}{
		{name: "not asked for", archive: func(t *testing.T) []byte { return zipEntries(t, foreignEntries(t, "change")) },
			kind: KindForeignPlan, entry: EntryPlan, mentions: []string{"Terraform or OpenTofu", "1.11.4", "plan format 3"}},
		{name: "format version 2", archive: withVersion(2), opts: []Option{WithForeign()},
			kind: KindFormatVersion, entry: EntryPlan, mentions: []string{"format version 2", "format version 3", "Terraform 1.5"}},
		{name: "format version 4", archive: withVersion(4), opts: []Option{WithForeign()},
			kind: KindFormatVersion, entry: EntryPlan, mentions: []string{"format version 4"}},
		{name: "no state", archive: func(t *testing.T) []byte {
			ents := foreignEntries(t, "change")
			delete(ents, EntryPriorState)
			return zipEntries(t, ents)
		}, opts: []Option{WithForeign()}, kind: KindMissingEntry, entry: EntryPriorState, mentions: []string{"Terraform plan file"}},
		{name: "traversal", archive: func(t *testing.T) []byte {
			return zipEntries(t, foreignEntries(t, "change"), zipEntry{name: "tfconfig/../../etc/x", data: []byte("x")})
		}, opts: []Option{WithForeign()}, kind: KindBadEntryName},
		{name: "compression bomb", archive: func(t *testing.T) []byte {
			return zipEntries(t, foreignEntries(t, "change"), zipEntry{name: "tfconfig/m-/big.tf", data: make([]byte, 4<<20), method: zip.Deflate})
		}, opts: []Option{WithForeign()}, kind: KindCompressionRatio},
		{name: "signature asked for", archive: func(t *testing.T) []byte { return zipEntries(t, foreignEntries(t, "change")) },
			opts: []Option{WithForeign(), WithVerifyKey(testKey(1).Public().(ed25519.PublicKey))}, kind: KindUnsigned},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := OpenBytes(tt.archive(t), tt.opts...)
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, tt.kind) {
				t.Fatalf("got %v (%T), want kind %v", err, err, tt.kind)
			}
			if tt.entry != "" && pe.Entry != tt.entry {
				t.Errorf("error names entry %q, want %q (%v)", pe.Entry, tt.entry, err)
			}
			for _, s := range tt.mentions {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

// TestForeignCorruptEntries: damaged content in a foreign archive is
// reported as corrupt, naming the entry, by the reader that reads it.
func TestForeignCorruptEntries(t *testing.T) {
	for _, tt := range []struct {
		entry, content string
		read           func(r *Reader) error
	}{
		{EntryConfigModules, `{"Key":""}`, func(r *Reader) error { _, err := r.ReadConfigSnapshot(); return err }},
		{EntryConfigModules, `[{"Key":"other","Dir":"x"}]`, func(r *Reader) error { _, err := r.ReadConfigSnapshot(); return err }},
		{EntryPriorState, `{"version":4,"resources":[{]}`, func(r *Reader) error { _, err := r.ReadPlan(); return err }},
		{EntrySchemas, "\xff\xff", func(r *Reader) error { _, err := r.ReadPlan(); return err }},
	} {
		t.Run(tt.entry, func(t *testing.T) {
			ents := foreignEntries(t, "change")
			ents[tt.entry] = []byte(tt.content)
			r, err := OpenBytes(zipEntries(t, ents), WithForeign())
			if err != nil {
				t.Fatal(err)
			}
			err = tt.read(r)
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, KindCorrupt) || pe.Entry != tt.entry {
				t.Fatalf("got %v, want a corrupt %s", err, tt.entry)
			}
		})
	}
}

// TestForeignNotOnOwnArchives: plankit's own archives have no foreign
// writer, and ReadForeignPlan reads them as ReadPlan does.
func TestForeignNotOnOwnArchives(t *testing.T) {
	r, err := Open(writeArchive(t, testArgs(t)), WithForeign())
	if err != nil {
		t.Fatal(err)
	}
	if r.Foreign() != nil {
		t.Errorf("Foreign() = %v for a plankit archive", r.Foreign())
	}
	if _, info, err := r.ReadForeignPlan(); err != nil || info != nil {
		t.Errorf("ReadForeignPlan: %v, %v", info, err)
	}
}

// FuzzOpenForeign feeds archive bytes, seeded with the Terraform and
// OpenTofu fixtures, to Open with WithForeign and every reader. Nothing may
// panic; refusals are *Error.
func FuzzOpenForeign(f *testing.F) {
	for _, dir := range foreignFixtures(f) {
		b, err := os.ReadFile(filepath.Join(dir, "plan.tfplan"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := OpenBytes(data, WithForeign())
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Open returned %T, want *Error: %v", err, err)
			}
			return
		}
		if p, _, err := r.ReadForeignPlan(); err == nil {
			cfg, _ := r.ReadConfig()
			jsonplan.Marshal(p, jsonplan.Options{Config: cfg})
		}
		r.ReadPlanDeferred()
		r.ReadConfigSnapshot()
		r.ReadDependencyLocks()
	})
}
