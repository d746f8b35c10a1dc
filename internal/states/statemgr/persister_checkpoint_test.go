package statemgr

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/states"
)

// TestCheckpointBytesHoldsFullWrites: with CheckpointBytes and a journal,
// changes that leave the journal small cause no full write before Close
// (the journal alone keeps them: a run reading now finds them all), and
// Close writes the state once and removes the journal.
func TestCheckpointBytesHoldsFullWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	mgr := NewFilesystem(path)
	j, err := mgr.Journal()
	if err != nil {
		t.Fatal(err)
	}
	live := states.NewState().SyncWrapper()
	p := NewBackgroundPersister(mgr, PersisterOptions{Source: live, Journal: j, CheckpointBytes: 1 << 40})
	for i := range 50 {
		if err := p.Begin(instAddr(i), "create"); err != nil {
			t.Fatal(err)
		}
		set(t, p, live, i, fmt.Sprint("id-", i))
	}
	if w := p.Stats().Writes; w != 0 {
		t.Fatalf("%d full writes while the journal stayed under CheckpointBytes, want 0", w)
	}
	if got := len(NewFilesystem(path).State().AllResourceInstances()); got != 50 {
		t.Fatalf("a run reading the state and journal now finds %d instances, want 50", got)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if w := p.Stats().Writes; w != 1 {
		t.Errorf("%d full writes in all, want the one at Close", w)
	}
	if f := readFile(t, path); len(f.State.AllResourceInstances()) != 50 {
		t.Errorf("state file holds %d instances, want 50", len(f.State.AllResourceInstances()))
	}
	if segs, _ := j.(*fileJournal).segments(); len(segs) != 0 {
		t.Errorf("journal segments %v left after Close", segs)
	}
}

// TestCheckpointDueDoubles: a full write is due once the journal since the
// last checkpoint reaches CheckpointBytes, then once it reaches all that
// came before: the full writes' sizes grow geometrically with the state.
func TestCheckpointDueDoubles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "terraform.tfstate")
	mgr := NewFilesystem(path)
	j, err := mgr.Journal()
	if err != nil {
		t.Fatal(err)
	}
	// No goroutines: the test drives appends and checkpoints itself.
	p := &BackgroundPersister{mgr: mgr, src: states.NewState().SyncWrapper(), journal: j, inflight: map[string][]byte{},
		opts: PersisterOptions{Journal: j, CheckpointBytes: 1000}}
	for _, step := range []struct {
		append     int
		checkpoint bool
		due        bool
	}{
		{append: 999, due: false},
		{append: 1, due: true},
		{checkpoint: true, due: false}, // 1000 before it now
		{append: 999, due: false},
		{append: 1, due: true},
		{append: 500, due: true},
		{checkpoint: true, due: false}, // 2500 before it now
		{append: 2000, due: false},
		{append: 500, due: true},
	} {
		if step.checkpoint {
			if _, _, err := p.snapshot(); err != nil {
				t.Fatal(err)
			}
		}
		if step.append > 0 {
			p.jmu.Lock()
			p.appended(step.append)
			p.jmu.Unlock()
		}
		if got := p.checkpointDue(); got != step.due {
			t.Fatalf("after %+v: due %v, want %v (since %d, before %d)", step, got, step.due, p.jSince.Load(), p.jBefore.Load())
		}
	}
}
