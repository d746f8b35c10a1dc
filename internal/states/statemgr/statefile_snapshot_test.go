package statemgr

import (
	"path/filepath"
	"testing"
)

// TestStateFileSharesObjects: StateFile is a copy the caller may change
// with the state's setters without reaching the manager, and it shares
// the manager's immutable objects instead of copying their attributes
// (a plan of a large state started with a full copy of every object).
func TestStateFileSharesObjects(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	m := NewFilesystem(path)
	m.WriteState(stateWith(3))
	if err := m.PersistState(); err != nil {
		t.Fatal(err)
	}
	m = NewFilesystem(path) // reads the file
	sf := m.StateFile()
	if sf == nil || sf.Serial != 1 {
		t.Fatalf("StateFile = %+v", sf)
	}
	if got, own := sf.State.ResourceInstanceObject(instAddr(1), ""), m.file.State.ResourceInstanceObject(instAddr(1), ""); got == nil || got != own {
		t.Fatalf("object %p, the manager's %p: not shared", got, own)
	}
	sf.State.SetResourceInstanceCurrent(instAddr(1), objSrc("changed"), nullProvider)
	sf.State.SetResourceInstanceCurrent(instAddr(7), objSrc("new"), nullProvider)
	st := m.State()
	if got := string(st.ResourceInstanceObject(instAddr(1), "").AttrsJSON); got != `{"id":"1","triggers":null}` {
		t.Errorf("the manager's object 1 became %s", got)
	}
	if st.ResourceInstance(instAddr(7)) != nil {
		t.Error("an instance set on the copy appeared in the manager's state")
	}
}

// BenchmarkStateFile100k: what a plan pays for the stored state it plans
// from, once the file is read: StateFile of 100,000 objects.
func BenchmarkStateFile100k(b *testing.B) {
	m := NewFilesystem(filepath.Join(b.TempDir(), "terraform.tfstate"))
	m.WriteState(stateWith(100000))
	if m.StateFile() == nil {
		b.Fatal("no state")
	}
	b.ReportAllocs()
	for b.Loop() {
		if sf := m.StateFile(); sf == nil {
			b.Fatal("no state")
		}
	}
}
