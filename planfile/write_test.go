package planfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/plans/planstest"
	"github.com/plankit/plankit/states/statefile"
)

func stateBytes(t *testing.T, f *statefile.File) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := statefile.Write(f, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestWriteOpenRoundTrip(t *testing.T) {
	args := testArgs(t)
	r, err := Open(writeArchive(t, args))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()

	got, err := r.ReadPlan()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(args.Plan, got, planstest.CmpOptions()); d != "" {
		t.Errorf("plan (-want +got):\n%s", d)
	}
	for name, tc := range map[string]struct {
		read func() (*statefile.File, error)
		want *statefile.File
		plan func() []byte
	}{
		EntryPriorState: {r.ReadStateFile, args.StateFile, func() []byte {
			return stateBytes(t, &statefile.File{Lineage: args.StateFile.Lineage, Serial: 7, State: got.PriorState})
		}},
		EntryPrevRunState: {r.ReadPrevStateFile, args.PreviousRunStateFile, func() []byte {
			return stateBytes(t, &statefile.File{Lineage: args.StateFile.Lineage, Serial: 6, State: got.PrevRunState})
		}},
	} {
		f, err := tc.read()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f.Lineage != tc.want.Lineage || f.Serial != tc.want.Serial {
			t.Errorf("%s: lineage/serial %s/%d, want %s/%d", name, f.Lineage, f.Serial, tc.want.Lineage, tc.want.Serial)
		}
		if !bytes.Equal(stateBytes(t, f), stateBytes(t, tc.want)) {
			t.Errorf("%s: state differs after the round trip", name)
		}
		if !bytes.Equal(tc.plan(), stateBytes(t, tc.want)) {
			t.Errorf("%s: ReadPlan's state differs from the state file", name)
		}
	}

	snap, err := r.ReadConfigSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(args.ConfigSnapshot, snap); d != "" {
		t.Errorf("config snapshot (-want +got):\n%s", d)
	}
	locks, err := r.ReadDependencyLocks()
	if err != nil {
		t.Fatal(err)
	}
	if !locks.Equal(args.DependencyLocks) {
		t.Error("dependency locks differ after the round trip")
	}
	if info := r.FormatInfo(); info.ToolVersion != args.ToolVersion {
		t.Errorf("tool version %q, want %q", info.ToolVersion, args.ToolVersion)
	}
}

func TestWriteIsReproducible(t *testing.T) {
	tests := map[string]func(*CreateArgs){
		"plain":       func(*CreateArgs) {},
		"signed":      func(a *CreateArgs) { a.SignKey = testKey(1) },
		"source date": func(a *CreateArgs) { a.Time = time.Unix(1700000000, 0) },
		"files":       func(a *CreateArgs) { a.Plan.Files = testFiles() },
	}
	for name, mutate := range tests {
		t.Run(name, func(t *testing.T) {
			var out [2][]byte
			for i := range out {
				args := testArgs(t) // fresh maps: another iteration order
				mutate(args)
				b, err := os.ReadFile(writeArchive(t, args))
				if err != nil {
					t.Fatal(err)
				}
				out[i] = b
			}
			if !bytes.Equal(out[0], out[1]) {
				t.Fatal("two writes of the same plan differ")
			}
		})
	}
}

func TestWriteEntryLayout(t *testing.T) {
	r, err := Open(writeArchive(t, testArgs(t)))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		".terraform.lock.hcl",
		"tfconfig/m-net/net.tf", "tfconfig/m-net/override.tf.json",
		"tfconfig/main.tf", "tfconfig/modules.json",
		"tfplan", "tfplan.sha256", "tfstate", "tfstate-prev",
	}
	if d := cmp.Diff(want, r.EntryNames()); d != "" {
		t.Errorf("entries (-want +got):\n%s", d)
	}
	modules, _ := r.Entry(EntryConfigModules)
	wantJSON := `{
  "modules": [
    {
      "key": "",
      "dir": ".",
      "source": "",
      "files": [
        "main.tf"
      ]
    },
    {
      "key": "net",
      "dir": "modules/net",
      "source": "./modules/net",
      "files": [
        "net.tf",
        "override.tf.json"
      ]
    }
  ]
}
`
	if d := cmp.Diff(wantJSON, string(modules)); d != "" {
		t.Errorf("modules.json (-want +got):\n%s", d)
	}
}

func TestWriteIsAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.tfplan")
	if err := os.WriteFile(path, []byte("previous"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := testArgs(t)
	bad.StateFile = nil
	if err := Write(path, bad); err == nil {
		t.Fatal("Write accepted a plan without a prior state")
	}
	if b, _ := os.ReadFile(path); string(b) != "previous" {
		t.Errorf("a failed write changed the target: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("a failed write left %d files behind", len(ents)-1)
	}
	if err := Write(path, testArgs(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path); err != nil {
		t.Fatal(err)
	}
}

// TestWriteIsAtomicOnEncodeError: an error while the entries are being
// encoded (on goroutines of their own) leaves the target as it was and no
// temporary file behind, as an error in the arguments does.
func TestWriteIsAtomicOnEncodeError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.tfplan")
	if err := os.WriteFile(path, []byte("previous"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := testArgs(t)
	markFirstChange(bad)
	if err := Write(path, bad); err == nil || !strings.Contains(err.Error(), "marked") {
		t.Fatalf("Write of a plan with a marked value: error %v, want the plan encoder's", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "previous" {
		t.Errorf("a failed write changed the target: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("a failed write left %d files behind", len(ents)-1)
	}
}

// failAfter accepts n bytes, then fails every write.
type failAfter struct{ n int }

func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errors.New("disk full")
	}
	w.n -= len(p)
	return len(p), nil
}

// TestWriteToReportsWriteError: a writer that fails part-way through the
// archive (at every few hundred bytes of it) gives an I/O error, never a
// silent short archive.
func TestWriteToReportsWriteError(t *testing.T) {
	args := testArgs(t)
	var full bytes.Buffer
	if err := WriteTo(&full, args); err != nil {
		t.Fatal(err)
	}
	for n := 0; n < full.Len(); n += 509 {
		err := WriteTo(&failAfter{n}, args)
		if !errors.Is(err, KindIO) {
			t.Fatalf("failing after %d of %d bytes: error %v, want KindIO", n, full.Len(), err)
		}
	}
}

func TestWriteNilStateIsEmpty(t *testing.T) {
	args := testArgs(t)
	args.PreviousRunStateFile.State = nil
	r, err := Open(writeArchive(t, args))
	if err != nil {
		t.Fatal(err)
	}
	f, err := r.ReadPrevStateFile()
	if err != nil {
		t.Fatal(err)
	}
	if !f.State.Empty() || f.Serial != args.PreviousRunStateFile.Serial {
		t.Errorf("got state empty=%v serial %d", f.State.Empty(), f.Serial)
	}
}

func TestWriteRefusesBadSnapshotNames(t *testing.T) {
	for name, file := range map[string]string{"traversal": "../x.tf", "slash": "a/b.tf", "manifest clash": "modules.json"} {
		t.Run(name, func(t *testing.T) {
			args := testArgs(t)
			args.ConfigSnapshot.Modules[""].Files[file] = []byte("#")
			if err := WriteTo(new(bytes.Buffer), args); err == nil {
				t.Fatalf("file name %q was accepted", file)
			}
		})
	}
}

// TestOpenFromAnotherDirectory copies only the archive elsewhere, with no
// configuration around, and applies the usual reads from there.
func TestOpenFromAnotherDirectory(t *testing.T) {
	src, err := os.ReadFile(writeArchive(t, testArgs(t)))
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	if err := os.WriteFile(filepath.Join(elsewhere, "copied.tfplan"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(elsewhere)
	r, err := Open("copied.tfplan")
	if err != nil {
		t.Fatal(err)
	}
	cfg, diags := r.ReadConfig()
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if cfg.Children["net"] == nil || cfg.Module.ManagedResources["null_resource.a"] == nil {
		t.Fatalf("configuration incomplete: children %v", cfg.Children)
	}
	if _, err := r.ReadPlan(); err != nil {
		t.Fatal(err)
	}
}
