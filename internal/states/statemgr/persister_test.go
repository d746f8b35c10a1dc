package statemgr

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

func TestPersisterNoLostUpdates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	mgr := NewFilesystem(path)
	p := NewBackgroundPersister(mgr, PersisterOptions{Source: states.NewState().SyncWrapper()})
	const workers, each = 8, 100
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				n := w*each + i
				p.Update(func(s *states.State) {
					s.SetResourceInstanceCurrent(instAddr(n), objSrc(fmt.Sprint(n)), nullProvider)
				})
				if i == each/2 {
					if err := p.Flush(); err != nil {
						t.Error(err)
					}
				}
			}
		}()
	}
	wg.Wait()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	f := readFile(t, path)
	if n := len(f.State.AllResourceInstances()); n != workers*each {
		t.Fatalf("%d instances on disk, want %d", n, workers*each)
	}
	st := p.Stats()
	if st.Changes != workers*each || st.Writes == 0 || st.Writes > st.Changes {
		t.Fatalf("stats %+v", st)
	}
	if f.Serial == 0 || f.Serial > uint64(st.Writes) {
		// A write bumps the serial once when it carries a change. One may
		// not: a snapshot can catch a change whose MarkDirty comes after
		// it, and the write for that MarkDirty then finds nothing new.
		t.Fatalf("serial %d after %d writes", f.Serial, st.Writes)
	}
}

func TestPersisterFinalFlushWritesLastState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	// A huge gap: only Flush/Close can make the later writes happen.
	p := NewBackgroundPersister(NewFilesystem(path), PersisterOptions{MinGap: time.Hour})
	p.Update(func(s *states.State) { s.SetResourceInstanceCurrent(instAddr(0), objSrc("a"), nullProvider) })
	if err := p.Flush(); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 50; i++ {
		p.Update(func(s *states.State) { s.SetResourceInstanceCurrent(instAddr(i), objSrc("b"), nullProvider) })
	}
	p.Update(func(s *states.State) { s.SetResourceInstanceCurrent(instAddr(0), nil, nullProvider) })
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	f := readFile(t, path)
	got := f.State.AllResourceInstances()
	if len(got) != 49 || got[0].Resource.Key != addrs.IntKey(1) {
		t.Fatalf("final state on disk has %d instances, first %v", len(got), got)
	}
	if w := p.Stats().Writes; w != 2 {
		t.Fatalf("%d writes, want 2: the flushed one and the coalesced final one", w)
	}
}

// failingStorage fails every PersistState until healed.
type failingStorage struct {
	mu       sync.Mutex
	fail     bool
	persists int
	last     *states.State
}

func (f *failingStorage) WriteState(s *states.State) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.last = s
	return nil
}

func (f *failingStorage) PersistState() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.persists++
	if f.fail {
		return errors.New("disk full")
	}
	return nil
}

func TestPersisterReportsAndRecoversFromErrors(t *testing.T) {
	fs := &failingStorage{fail: true}
	p := NewBackgroundPersister(fs, PersisterOptions{ErrorBackoff: time.Hour})
	p.Update(func(s *states.State) { s.SetResourceInstanceCurrent(instAddr(0), objSrc("a"), nullProvider) })
	if err := p.Flush(); err == nil || err.Error() != "disk full" {
		t.Fatalf("Flush = %v, want the write error", err)
	}
	fs.mu.Lock()
	fs.fail = false
	fs.mu.Unlock()
	// Flush retries at once despite the backoff.
	if err := p.Flush(); err != nil {
		t.Fatalf("Flush after recovery = %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if fs.last.ResourceInstance(instAddr(0)) == nil {
		t.Fatal("the recovered write did not carry the state")
	}
	// The goroutine may have made a failed attempt of its own before the
	// first Flush forced one, so there are one or two failures; exactly one
	// write succeeded, the one after the recovery.
	if st := p.Stats(); st.Failures < 1 || st.Failures > 2 || st.Writes-st.Failures != 1 {
		t.Fatalf("stats %+v, want 1 or 2 failures and then one successful write", st)
	}
}

func TestPersisterCloseWithoutChangesWritesNothing(t *testing.T) {
	fs := &failingStorage{}
	p := NewBackgroundPersister(fs, PersisterOptions{})
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if fs.persists != 0 {
		t.Fatalf("%d writes without any change", fs.persists)
	}
}

// gatedStorage blocks every PersistState until released, announcing each
// call on started.
type gatedStorage struct {
	started chan struct{}
	release chan struct{}
}

func (g *gatedStorage) WriteState(*states.State) error { return nil }

func (g *gatedStorage) PersistState() error {
	g.started <- struct{}{}
	<-g.release
	return nil
}

// TestPersisterFlushCoveredByRunningWrite: a Flush that a write already in
// progress satisfies leaves no forced write behind it; otherwise the next
// change would be written at once, despite the gap (a spurious extra
// write, and the cause of a flaky write count).
func TestPersisterFlushCoveredByRunningWrite(t *testing.T) {
	g := &gatedStorage{started: make(chan struct{}), release: make(chan struct{})}
	p := NewBackgroundPersister(g, PersisterOptions{MinGap: time.Hour})
	p.Update(func(s *states.State) { s.SetResourceInstanceCurrent(instAddr(0), objSrc("a"), nullProvider) })
	<-g.started // the goroutine's own first write is running
	flushed := make(chan error)
	go func() { flushed <- p.Flush() }()
	for { // wait until the Flush has made its request
		p.mu.Lock()
		asked := p.flushReq > 0
		p.mu.Unlock()
		if asked {
			break
		}
		runtime.Gosched()
	}
	g.release <- struct{}{}
	if err := <-flushed; err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	pending := p.flushReq > p.attemptReq
	p.mu.Unlock()
	if pending {
		t.Fatal("the Flush a running write covered still forces another write")
	}
	go func() { // Close's own write
		<-g.started
		g.release <- struct{}{}
	}()
	p.Update(func(s *states.State) { s.SetResourceInstanceCurrent(instAddr(1), objSrc("b"), nullProvider) })
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if w := p.Stats().Writes; w != 2 {
		t.Fatalf("%d writes, want 2: the first and Close's", w)
	}
}

// snapshotRecorder is a Storage that keeps the states it is given.
type snapshotRecorder struct {
	mu     sync.Mutex
	states []*states.State
}

func (r *snapshotRecorder) WriteState(s *states.State) error {
	r.mu.Lock()
	r.states = append(r.states, s)
	r.mu.Unlock()
	return nil
}
func (r *snapshotRecorder) PersistState() error { return nil }

// TestPersisterSourceFinalWritesLiveState: writes before SourceFinal get
// a snapshot (the live state goes on changing), the final write after it
// gets the live state itself, not a copy of its maps.
func TestPersisterSourceFinalWritesLiveState(t *testing.T) {
	rec := &snapshotRecorder{}
	live := stateWith(2).SyncWrapper()
	p := NewBackgroundPersister(rec, PersisterOptions{Source: live})
	p.MarkDirty()
	if err := p.Flush(); err != nil {
		t.Fatal(err)
	}
	p.Update(func(s *states.State) { s.SetResourceInstanceCurrent(instAddr(7), objSrc("7"), nullProvider) })
	p.SourceFinal()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	s := live.Lock()
	live.Unlock()
	if len(rec.states) != 2 {
		t.Fatalf("%d writes, want 2", len(rec.states))
	}
	if rec.states[0] == s {
		t.Error("a write before SourceFinal got the live state, not a snapshot")
	}
	if n := len(rec.states[0].AllResourceInstances()); n != 2 {
		t.Errorf("first snapshot has %d instances, want 2", n)
	}
	if rec.states[1] != s {
		t.Error("the final write got a copy, not the live state")
	}
}
