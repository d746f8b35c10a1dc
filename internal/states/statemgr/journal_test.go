package statemgr

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

// crashAfter runs fn against a persister with the state's journal and then
// abandons it without Close, as a killed process would; it returns the
// state path.
func crashAfter(t *testing.T, prior int, fn func(p *BackgroundPersister, live *states.SyncState)) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	seed := NewFilesystem(path)
	seed.WriteState(stateWith(prior))
	if err := seed.PersistState(); err != nil {
		t.Fatal(err)
	}
	mgr := NewFilesystem(path)
	j, err := mgr.Journal()
	if err != nil {
		t.Fatal(err)
	}
	live := mgr.State().SyncWrapper()
	// A huge gap: no background full write happens unless fn flushes.
	p := NewBackgroundPersister(mgr, PersisterOptions{Source: live, Journal: j, MinGap: 1 << 62})
	fn(p, live)
	abandon(p)
	return path
}

// abandon stops p's goroutines without the final write and without
// touching the journal: what a killed process leaves.
func abandon(p *BackgroundPersister) {
	p.mu.Lock()
	p.closing = true
	p.mu.Unlock()
	p.signal()
	<-p.done
	close(p.syncWake)
	<-p.syncDone
}

func set(t *testing.T, p *BackgroundPersister, live *states.SyncState, i int, id string) {
	t.Helper()
	s := live.Lock()
	if id == "" {
		s.SetResourceInstanceCurrent(instAddr(i), nil, nullProvider)
	} else {
		s.SetResourceInstanceCurrent(instAddr(i), objSrc(id), nullProvider)
	}
	live.Unlock()
	if err := p.Record(instAddr(i)); err != nil {
		t.Fatal(err)
	}
}

func ids(s *states.State) map[string]string {
	out := map[string]string{}
	for _, a := range s.AllResourceInstances() {
		out[a.String()] = string(s.ResourceInstanceObject(a, addrs.NotDeposed).AttrsJSON)
	}
	return out
}

// TestJournalRecoversFinishedOperations: everything recorded before the
// "crash" is in the state the next run reads, whatever the full writes
// did; the operation begun and not finished is named; the next persist
// stores it all and removes the journal.
func TestJournalRecoversFinishedOperations(t *testing.T) {
	for name, flushAt := range map[string]int{"no full write": -1, "full write in between": 2} {
		t.Run(name, func(t *testing.T) {
			path := crashAfter(t, 2, func(p *BackgroundPersister, live *states.SyncState) {
				for i := 2; i < 6; i++ {
					if err := p.Begin(instAddr(i), "create"); err != nil {
						t.Fatal(err)
					}
					set(t, p, live, i, "new")
					if i == flushAt {
						if err := p.Flush(); err != nil {
							t.Fatal(err)
						}
					}
				}
				set(t, p, live, 0, "")                                 // destroyed
				set(t, p, live, 1, "changed")                          // updated
				if err := p.Begin(instAddr(6), "create"); err != nil { // in flight
					t.Fatal(err)
				}
				if err := p.Begin(instAddr(7), "destroy"); err != nil { // failed
					t.Fatal(err)
				}
				if err := p.End(instAddr(7)); err != nil {
					t.Fatal(err)
				}
			})
			m := NewFilesystem(path)
			rec := m.Recovery()
			if rec == nil {
				t.Fatal("no recovery")
			}
			if d := cmp.Diff([]InFlight{{Instance: "null_resource.r[6]", Action: "create"}}, rec.InFlight); d != "" {
				t.Errorf("in flight (-want +got):\n%s", d)
			}
			want := map[string]string{}
			for i := 2; i < 6; i++ {
				want[instAddr(i).String()] = `{"id":"new","triggers":null}`
			}
			want[instAddr(1).String()] = `{"id":"changed","triggers":null}`
			if d := cmp.Diff(want, ids(m.State())); d != "" {
				t.Errorf("recovered state (-want +got):\n%s", d)
			}
			if err := m.PersistState(); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, ids(readFile(t, path).State)); d != "" {
				t.Errorf("state file after the fold (-want +got):\n%s", d)
			}
			if left := journalFiles(t, path); len(left) != 0 {
				t.Errorf("journal left after the fold: %v", left)
			}
			if NewFilesystem(path).Recovery() != nil {
				t.Error("the next read recovers again")
			}
		})
	}
}

// TestJournalInFlightSurvivesCheckpoint: an operation begun before a full
// write and still running when the process dies is named, though the
// write truncated the segment that held its begin record.
func TestJournalInFlightSurvivesCheckpoint(t *testing.T) {
	path := crashAfter(t, 0, func(p *BackgroundPersister, live *states.SyncState) {
		if err := p.Begin(instAddr(9), "replace"); err != nil {
			t.Fatal(err)
		}
		set(t, p, live, 1, "x")
		for range 3 {
			if err := p.Flush(); err != nil {
				t.Fatal(err)
			}
			set(t, p, live, 1, "y")
		}
	})
	rec := NewFilesystem(path).Recovery()
	if rec == nil || len(rec.InFlight) != 1 || rec.InFlight[0].Instance != "null_resource.r[9]" || rec.InFlight[0].Action != "replace" {
		t.Fatalf("recovery %+v, want null_resource.r[9] in flight", rec)
	}
}

// TestJournalTornRecord: a record torn by a power loss is skipped and
// counted; the records before it are kept.
func TestJournalTornRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	j, err := NewFilesystem(path).Journal()
	if err != nil {
		t.Fatal(err)
	}
	live := states.NewState()
	for i, id := range []string{"a", "b"} {
		live.SetResourceInstanceCurrent(instAddr(i+1), objSrc(id), nullProvider)
		if err := j.Append(mustSet(t, live, i+1)); err != nil {
			t.Fatal(err)
		}
	}
	segs := journalFiles(t, path)
	if len(segs) != 1 {
		t.Fatalf("journal files %v", segs)
	}
	data, _ := os.ReadFile(segs[0])
	if err := os.WriteFile(segs[0], data[:len(data)-7], 0o600); err != nil {
		t.Fatal(err)
	}
	m := NewFilesystem(path)
	rec := m.Recovery()
	if rec == nil || rec.Damaged != 1 || rec.Records != 1 {
		t.Fatalf("recovery %+v, want 1 record and 1 damaged", rec)
	}
	if d := cmp.Diff(map[string]string{instAddr(1).String(): `{"id":"a","triggers":null}`}, ids(m.State())); d != "" {
		t.Errorf("recovered state (-want +got):\n%s", d)
	}
}

// TestJournalRemovedAfterCleanClose: a finished apply leaves no journal.
func TestJournalRemovedAfterCleanClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	mgr := NewFilesystem(path)
	j, err := mgr.Journal()
	if err != nil {
		t.Fatal(err)
	}
	live := stateWith(1).SyncWrapper()
	p := NewBackgroundPersister(mgr, PersisterOptions{Source: live, Journal: j, MinGap: 1 << 62})
	set(t, p, live, 3, "z")
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if left := journalFiles(t, path); len(left) != 0 {
		t.Errorf("journal left after Close: %v", left)
	}
	if got := len(readFile(t, path).State.AllResourceInstances()); got != 2 {
		t.Errorf("%d instances stored, want 2", got)
	}
}

// TestLockRemovesLeftoverTemporaries: temporary files of writes a killed
// process never finished are removed by the next lock holder.
func TestLockRemovesLeftoverTemporaries(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	left := []string{".terraform.tfstate.tmp-123", ".terraform.tfstate.backup.tmp-456"}
	for _, n := range append(left, "keep.tmp-1", ".other.tmp-1") {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := NewFilesystem(path)
	id, err := m.Lock(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Unlock(id)
	for _, n := range left {
		if _, err := os.Stat(filepath.Join(dir, n)); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", n, err)
		}
	}
	for _, n := range []string{"keep.tmp-1", ".other.tmp-1"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s was removed: %v", n, err)
		}
	}
}

func journalFiles(t *testing.T, path string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".journal.*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range m {
		if !strings.HasSuffix(f, ".tmp") {
			out = append(out, f)
		}
	}
	return out
}

// TestJournalQuietAfterClose: a change announced after Close (a worker
// the walk no longer waits for) neither panics nor leaves a journal.
func TestJournalQuietAfterClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	mgr := NewFilesystem(path)
	j, err := mgr.Journal()
	if err != nil {
		t.Fatal(err)
	}
	live := states.NewState().SyncWrapper()
	p := NewBackgroundPersister(mgr, PersisterOptions{Source: live, Journal: j})
	set(t, p, live, 1, "a")
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Begin(instAddr(2), "create"); err != nil {
		t.Fatal(err)
	}
	set(t, p, live, 2, "b")
	if err := p.End(instAddr(2)); err != nil {
		t.Fatal(err)
	}
	if left := journalFiles(t, path); len(left) != 0 {
		t.Errorf("journal files after Close: %v", left)
	}
}

// TestJournalThroughCodec: with state encryption (a Codec), the journal's
// records are stored through it too, never in clear, and replay.
func TestJournalThroughCodec(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	mgr := NewFilesystem(path)
	mgr.SetCodec(prefixCodec{})
	j, err := mgr.Journal()
	if err != nil {
		t.Fatal(err)
	}
	live := states.NewState().SyncWrapper()
	p := NewBackgroundPersister(mgr, PersisterOptions{Source: live, Journal: j, MinGap: 1 << 62})
	set(t, p, live, 1, "secret-id")
	if err := p.Begin(instAddr(2), "create"); err != nil {
		t.Fatal(err)
	}
	abandon(p)
	for _, f := range journalFiles(t, path) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "secret-id") || strings.Contains(string(data), "null_resource") {
			t.Errorf("%s holds records in clear:\n%s", f, data)
		}
	}
	next := NewFilesystem(path)
	next.SetCodec(prefixCodec{})
	rec := next.Recovery()
	if rec == nil || len(rec.InFlight) != 1 {
		t.Fatalf("recovery through the codec: %+v", rec)
	}
	if got := ids(next.State())[instAddr(1).String()]; got != `{"id":"secret-id","triggers":null}` {
		t.Errorf("recovered object %q", got)
	}
}
