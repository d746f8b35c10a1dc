package statemgr

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

var nullProvider = addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")}

func instAddr(i int) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "r"}.Instance(addrs.IntKey(i)).Absolute(nil)
}

func objSrc(id string) *states.ResourceInstanceObjectSrc {
	return &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"` + id + `","triggers":null}`), Status: states.ObjectReady}
}

func stateWith(n int) *states.State {
	s := states.NewState()
	for i := range n {
		s.SetResourceInstanceCurrent(instAddr(i), objSrc(fmt.Sprint(i)), nullProvider)
	}
	return s
}

func readFile(t testing.TB, path string) *statefile.File {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := statefile.Read(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestSerialLineageBackup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	m := NewFilesystem(path)
	if err := m.RefreshState(); err != nil {
		t.Fatal(err)
	}
	if m.Lineage() != "" || m.Serial() != 0 || !m.State().Empty() {
		t.Fatalf("new manager: lineage %q serial %d", m.Lineage(), m.Serial())
	}
	m.WriteState(stateWith(1))
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	lineage := m.Lineage()
	if m.Serial() != 1 || len(lineage) != 36 {
		t.Fatalf("first persist: serial %d lineage %q", m.Serial(), lineage)
	}
	if _, err := os.Stat(path + ".backup"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a backup was written although there was no previous state: %v", err)
	}
	first, _ := os.ReadFile(path)

	// Persisting an unchanged state writes nothing and keeps the serial.
	m.WriteState(stateWith(1))
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(path); m.Serial() != 1 || !bytes.Equal(first, again) {
		t.Fatalf("unchanged persist: serial %d, file changed %v", m.Serial(), !bytes.Equal(first, again))
	}

	// A new manager (a new run) backs up the file as read, once.
	m2 := NewFilesystem(path)
	m2.WriteState(stateWith(2))
	if err := m2.PersistState(); err != nil {
		t.Fatal(err)
	}
	m2.WriteState(stateWith(3))
	if err := m2.PersistState(); err != nil {
		t.Fatal(err)
	}
	backup, err := os.ReadFile(path + ".backup")
	if err != nil || !bytes.Equal(backup, first) {
		t.Fatalf("backup is not the snapshot the run started from (err %v)", err)
	}
	f := readFile(t, path)
	if f.Serial != 3 || f.Lineage != lineage || len(f.State.AllResourceInstances()) != 3 {
		t.Fatalf("on disk: serial %d lineage %q, %d instances", f.Serial, f.Lineage, len(f.State.AllResourceInstances()))
	}
	if got := m2.StateFile(); got.Serial != 3 || got.Lineage != lineage {
		t.Fatalf("StateFile: serial %d lineage %q", got.Serial, got.Lineage)
	}

	m3 := NewFilesystem(path)
	m3.SetBackupPath("")
	m3.WriteState(stateWith(4))
	if err := m3.PersistState(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path + ".backup"); !bytes.Equal(b, first) {
		t.Fatal("a disabled backup path still wrote a backup")
	}
}

func TestTerraformFileUnchangedIsNotRewritten(t *testing.T) {
	src, err := os.ReadFile("../../../testdata/fixtures/state-terraform-v4/terraform.tfstate")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	os.WriteFile(path, src, 0o600)
	m := NewFilesystem(path)
	m.WriteState(m.State())
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, src) || m.Serial() != 7 {
		t.Fatalf("an unchanged Terraform state was rewritten (serial %d)", m.Serial())
	}
	// A change bumps the serial, keeps Terraform's newer version and the mode.
	s := m.State()
	s.SetResourceInstanceCurrent(instAddr(0), objSrc("new"), nullProvider)
	m.WriteState(s)
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	f := readFile(t, path)
	if f.Serial != 8 || f.Lineage != "8f3c1c52-6a0e-4b1d-9d43-2f0a5d8e7b11" || f.TerraformVersion.String() != "1.9.5" {
		t.Fatalf("after change: serial %d lineage %q version %s", f.Serial, f.Lineage, f.TerraformVersion)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want the file's 0600 kept", fi.Mode().Perm())
	}
}

func TestCrashBeforeRenameKeepsOldState(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	m := NewFilesystem(path)
	m.SetBackupPath("")
	m.WriteState(stateWith(1))
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(path)

	crash := errors.New("simulated crash")
	m.beforeRename = func() error { return crash }
	m.WriteState(stateWith(5))
	if err := m.PersistState(); !errors.Is(err, crash) {
		t.Fatalf("PersistState = %v, want the injected failure", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, old) {
		t.Fatal("the state file changed although the rename never happened")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Fatalf("temporary file %s left behind", e.Name())
		}
	}
	if m.Serial() != 1 {
		t.Fatalf("serial %d advanced by a failed write", m.Serial())
	}
	m.beforeRename = nil
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	if f := readFile(t, path); f.Serial != 2 || len(f.State.AllResourceInstances()) != 5 {
		t.Fatalf("retry: serial %d", f.Serial)
	}
}

func TestSetSerial(t *testing.T) {
	f := &statefile.File{Serial: 9, Lineage: "l", State: stateWith(1)}
	var a, b bytes.Buffer
	statefile.Write(f, &a)
	f.Serial = 10
	statefile.Write(f, &b)
	got, err := setSerial(a.Bytes(), 9, 10)
	if err != nil || !bytes.Equal(got, b.Bytes()) {
		t.Fatalf("setSerial differs from a re-encode (err %v)", err)
	}
}

// TestPersistCreatesDirectory: a state whose directory does not exist yet
// (nothing locked it, so nothing created the directory) is persisted there,
// not lost.
func TestPersistCreatesDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "dir", "s.tfstate")
	m := NewFilesystem(path)
	if err := m.RefreshState(); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteState(stateWith(1)); err != nil {
		t.Fatal(err)
	}
	if err := m.PersistState(); err != nil {
		t.Fatalf("PersistState: %v", err)
	}
	if got := readFile(t, path); got.Serial != 1 || len(got.State.AllResourceInstances()) != 1 {
		t.Fatalf("persisted serial %d with %d instances, want serial 1 with 1", got.Serial, len(got.State.AllResourceInstances()))
	}
}

// TestCorruptStateFileIsNeverOverwritten: a state file that does not parse
// (truncated, hand-edited) is an error naming the file on every use, and a
// later write or persist fails instead of replacing it with a new state.
func TestCorruptStateFileIsNeverOverwritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	corrupt := []byte("{\n  \"version\": 4,\n  \"serial\": 3,\n  \"resources\": [\n")
	if err := os.WriteFile(path, corrupt, 0o644); err != nil {
		t.Fatal(err)
	}
	m := NewFilesystem(path)
	err := m.RefreshState()
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not valid JSON") {
		t.Fatalf("RefreshState = %v, want an error naming %s and the JSON problem", err, path)
	}
	if m.State() != nil {
		t.Errorf("State() of an unreadable file must be nil")
	}
	if err := m.WriteState(stateWith(1)); err == nil {
		t.Errorf("WriteState over an unreadable file must fail")
	}
	if err := m.PersistState(); err == nil {
		t.Errorf("PersistState over an unreadable file must fail")
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, corrupt) {
		t.Fatalf("the unreadable state file changed: %q, %v", got, err)
	}
	if _, err := os.Stat(path + ".backup"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("no backup must be written: %v", err)
	}
}
