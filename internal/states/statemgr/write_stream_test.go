package statemgr

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// TestPersistStreamsLargeState: persisting a large state writes its
// encoding straight into the new file; the manager allocates far less than
// the file's size (before, the encoding, a copy with the new serial and the
// last state's bytes were all held in memory). The objects' encodings are
// cached by a first persist, as the apply's repeated persists find them.
func TestPersistStreamsLargeState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	m := NewFilesystem(path)
	s := states.NewState()
	pad := strings.Repeat("x", 1000)
	for i := range 5000 {
		s.SetResourceInstanceCurrent(instAddr(i), objSrc(fmt.Sprint(i, pad)), nullProvider)
	}
	m.WriteState(s)
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	s.SetResourceInstanceCurrent(instAddr(7), objSrc("changed"), nullProvider)
	m.WriteState(s)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(fi.Size())/4 {
		t.Errorf("persisting a %d-byte state allocated %d bytes: the state is held in memory, not streamed", fi.Size(), alloc)
	}
	if f := readFile(t, path); f.Serial != 2 || !strings.Contains(string(f.State.ResourceInstance(instAddr(7)).Current.AttrsJSON), "changed") {
		t.Errorf("serial %d, object %s; want 2 and the change", f.Serial, f.State.ResourceInstance(instAddr(7)).Current.AttrsJSON)
	}
}

// TestUnchangedPersistLeavesNothing: a persist that finds the state
// unchanged keeps the file, its serial and no temporary file beside it.
func TestUnchangedPersistLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	m := NewFilesystem(path)
	m.WriteState(stateWith(3))
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	fi1, _ := os.Stat(path)
	m2 := NewFilesystem(path)
	m2.WriteState(stateWith(3))
	if err := m2.PersistState(); err != nil {
		t.Fatal(err)
	}
	if m2.Serial() != 1 {
		t.Errorf("serial %d after persisting the state as read, want 1", m2.Serial())
	}
	fi2, _ := os.Stat(path)
	if !os.SameFile(fi1, fi2) {
		t.Error("the unchanged state file was replaced")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "terraform.tfstate" {
			t.Errorf("left beside the state: %s", e.Name())
		}
	}
}

// TestReadDoesNotEncode: reading a state does not encode it (a plan that
// only reads a large state does not pay for that); the first persist
// does, and still finds the state as read unchanged.
func TestReadDoesNotEncode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	seed := NewFilesystem(path)
	seed.WriteState(stateWith(3))
	if err := seed.PersistState(); err != nil {
		t.Fatal(err)
	}
	m := NewFilesystem(path)
	if m.Serial() != 1 {
		t.Fatalf("serial %d, want 1", m.Serial())
	}
	// Probe the writer's encoding cache on an object as read (the format
	// name is statefile's); an erroring build stores nothing.
	obj := m.file.State.ResourceInstance(instAddr(0)).Current
	encoded := true
	obj.CachedEncoding("statefile.v4.instance-tail", func(*states.ResourceInstanceObjectSrc) ([]byte, error) {
		encoded = false
		return nil, errors.New("probe")
	})
	if encoded {
		t.Error("reading the state encoded its objects")
	}
	m.WriteState(m.State())
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	if m.Serial() != 1 {
		t.Errorf("serial %d after persisting the state as read, want 1 (unchanged)", m.Serial())
	}
}

// BenchmarkPersistStream is what a persist of a state of n objects costs
// to write the file and tell whether it changed: streamed into the file
// with its sum (encodeTo, as PersistState does) and encoded into memory
// first, compared with the last state's bytes, then written (the general
// way, which keeps the last state's bytes between persists: reported as
// kept-B).
// Run: go test -run '^$' -bench PersistStream -benchmem ./internal/states/statemgr/
func BenchmarkPersistStream(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		f := &statefile.File{Lineage: "l", Serial: 1, State: stateWith(n)}
		path := filepath.Join(b.TempDir(), "terraform.tfstate")
		b.Run(fmt.Sprintf("%d/stream", n), func(b *testing.B) {
			var last stateSum
			b.ReportAllocs()
			for b.Loop() {
				out, err := os.Create(path)
				if err != nil {
					b.Fatal(err)
				}
				sum, err := encodeTo(f, out, path)
				if err != nil {
					b.Fatal(err)
				}
				_ = sum == last
				last = sum
				out.Close()
			}
			b.ReportMetric(float64(len(last)), "kept-B")
		})
		b.Run(fmt.Sprintf("%d/buffered", n), func(b *testing.B) {
			var last []byte
			b.ReportAllocs()
			for b.Loop() {
				var buf bytes.Buffer
				if err := statefile.Write(f, &buf); err != nil {
					b.Fatal(err)
				}
				_ = bytes.Equal(buf.Bytes(), last)
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					b.Fatal(err)
				}
				last = buf.Bytes()
			}
			b.ReportMetric(float64(len(last)), "kept-B")
		})
	}
}
