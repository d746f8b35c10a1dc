package operation

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// TestStateSaverLifecycle: apply's state writer writes a state file before
// the first object, journals an operation before its provider runs and
// its result before the worker goes on, and leaves no journal after the
// final write.
func TestStateSaverLifecycle(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	s := &StateSaver{mgr: statemgr.NewFilesystem(path), wd: dir, spath: path, dump: &bytes.Buffer{}}
	live := states.NewState().SyncWrapper()
	s.Start(live)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no state file before the first object: %v", err)
	}
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "a"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	if err := s.Begin(addr, addrs.NotDeposed, plans.Create); err != nil {
		t.Fatal(err)
	}
	if left := journalLeft(t, dir); len(left) != 1 {
		t.Fatalf("journal files %v after Begin, want 1", left)
	}
	live.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"1","triggers":null}`), Status: states.ObjectReady},
		addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
	s.Changed(addr)
	s.End(addr)
	// What a process killed now would leave is enough for the next run.
	rec := statemgr.NewFilesystem(path)
	if got := rec.State().AllResourceInstances(); len(got) != 1 || rec.Recovery() == nil || len(rec.Recovery().InFlight) != 0 {
		t.Errorf("a run reading now finds %v, recovery %+v; want null_resource.a and nothing in flight", got, rec.Recovery())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ds := s.SaveFinal(live.Close()); len(ds) != 0 {
		t.Fatalf("saveFinal: %v", ds)
	}
	if left := journalLeft(t, dir); len(left) != 0 {
		t.Errorf("journal files %v after the final write", left)
	}
	if got := stateFileNames(t, path); len(got) != 1 {
		t.Errorf("state file holds %v", got)
	}
}

// TestStateSaverSecondInterruptWritesLiveState: the second Ctrl-C writes
// the live state as it is then, not the last background snapshot.
func TestStateSaverSecondInterruptWritesLiveState(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	s := &StateSaver{mgr: statemgr.NewFilesystem(path), wd: dir, spath: path, dump: &bytes.Buffer{}}
	live := states.NewState().SyncWrapper()
	s.Start(live)
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "late"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	// Changed not yet called: no write has seen it.
	live.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"7","triggers":null}`), Status: states.ObjectReady},
		addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
	if ds := s.FlushLast(); len(ds) != 0 {
		t.Fatalf("flushLast: %v", ds)
	}
	if got := stateFileNames(t, path); len(got) != 1 || got[0] != "null_resource.late" {
		t.Errorf("state file after the second Ctrl-C holds %v, want null_resource.late", got)
	}
}

// TestStateSaverFinalStateWrittenOnce: the final state the core returns
// is the live state Close already wrote, so saveFinal does not encode a
// whole (possibly large) state again to find it unchanged; a state that is
// not that one is still written.
func TestStateSaverFinalStateWrittenOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	mgr := &countingState{Filesystem: statemgr.NewFilesystem(path)}
	s := &StateSaver{mgr: mgr, wd: dir, spath: path, dump: &bytes.Buffer{}}
	live := states.NewState().SyncWrapper()
	s.Start(live)
	addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "a"}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
	live.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"1","triggers":null}`), Status: states.ObjectReady},
		addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
	s.Changed(addr)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before := mgr.persists
	final := live.Close()
	if _, ds := s.SaveFinal(final); len(ds) != 0 {
		t.Fatalf("saveFinal: %v", ds)
	}
	if mgr.persists != before {
		t.Errorf("saveFinal persisted %d more time(s) the state Close had written", mgr.persists-before)
	}
	if got := stateFileNames(t, path); len(got) != 1 {
		t.Errorf("state file holds %v, want null_resource.a", got)
	}
	if left := journalLeft(t, dir); len(left) != 0 {
		t.Errorf("journal files %v after the final write", left)
	}
	other := final.DeepCopy()
	other.SetResourceInstanceCurrent(addr, nil, addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
	if _, ds := s.SaveFinal(other); len(ds) != 0 {
		t.Fatalf("saveFinal: %v", ds)
	}
	if got := stateFileNames(t, path); len(got) != 0 {
		t.Errorf("a final state other than the one Close wrote was not written: the file holds %v", got)
	}
}

// TestStateSaverWriteDoesNotCopyState: a full write of a large state
// allocates per write, not per resource: the saver hands its snapshot to
// the local manager as it is (no second copy of every resource), and the
// writer streams the objects' cached encodings.
func TestStateSaverWriteDoesNotCopyState(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	s := &StateSaver{mgr: statemgr.NewFilesystem(path), wd: dir, spath: path, dump: &bytes.Buffer{}}
	st := states.NewState()
	for i := range 2000 {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: fmt.Sprintf("r%d", i)}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
		st.SetResourceInstanceCurrent(addr, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"1","triggers":null}`), Status: states.ObjectReady},
			addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")})
	}
	if err := s.write(st); err != nil { // caches the objects' encodings
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(5, func() {
		if err := s.write(st); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 500 {
		t.Errorf("writing a 2000-resource state allocated %.0f times, want a few per write", allocs)
	}
}
