package statemgr

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// TestJournalProvisionersCutOffTainted: an object created and recorded
// whose provisioners had begun and not finished when the process died is
// recovered tainted (as a failed provisioner leaves it) and named; one
// whose provisioners finished, one created without provisioners and a
// create cut off before its provider returned are not tainted. The begin
// of the provisioners survives a full write (checkpoint) in between.
func TestJournalProvisionersCutOffTainted(t *testing.T) {
	for name, flush := range map[string]bool{"no full write": false, "full write during the provisioners": true} {
		t.Run(name, func(t *testing.T) {
			path := crashAfter(t, 0, func(p *BackgroundPersister, live *states.SyncState) {
				// r[0]: created, provisioners cut off.
				if err := p.Begin(instAddr(0), "create"); err != nil {
					t.Fatal(err)
				}
				set(t, p, live, 0, "p0")
				if err := p.Begin(instAddr(0), ProvisionersAction("create")); err != nil {
					t.Fatal(err)
				}
				// r[1]: created, provisioners finished.
				if err := p.Begin(instAddr(1), "replace"); err != nil {
					t.Fatal(err)
				}
				set(t, p, live, 1, "p1")
				if err := p.Begin(instAddr(1), ProvisionersAction("replace")); err != nil {
					t.Fatal(err)
				}
				if err := p.End(instAddr(1)); err != nil {
					t.Fatal(err)
				}
				// r[2]: created, no provisioners.
				if err := p.Begin(instAddr(2), "create"); err != nil {
					t.Fatal(err)
				}
				set(t, p, live, 2, "p2")
				// r[3]: provider call cut off.
				if err := p.Begin(instAddr(3), "create"); err != nil {
					t.Fatal(err)
				}
				if flush {
					if err := p.Flush(); err != nil {
						t.Fatal(err)
					}
				}
			})
			m := NewFilesystem(path)
			rec := m.Recovery()
			if rec == nil {
				t.Fatal("no recovery")
			}
			if d := cmp.Diff([]string{"null_resource.r[0]"}, rec.Tainted); d != "" {
				t.Errorf("tainted (-want +got):\n%s", d)
			}
			wantFlight := []InFlight{{Instance: "null_resource.r[0]", Action: "create, provisioners running"}, {Instance: "null_resource.r[3]", Action: "create"}}
			if d := cmp.Diff(wantFlight, rec.InFlight); d != "" {
				t.Errorf("in flight (-want +got):\n%s", d)
			}
			status := map[string]states.ObjectStatus{}
			for _, a := range m.State().AllResourceInstances() {
				status[a.String()] = m.State().ResourceInstanceObject(a, addrs.NotDeposed).Status
			}
			ready := status["null_resource.r[1]"] // whatever "ready" is stored as
			want := map[string]states.ObjectStatus{"null_resource.r[0]": states.ObjectTainted, "null_resource.r[1]": ready, "null_resource.r[2]": ready}
			if d := cmp.Diff(want, status); d != "" || ready == states.ObjectTainted {
				t.Errorf("statuses after the replay (-want +got):\n%s", d)
			}
			if err := m.PersistState(); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, path).State.ResourceInstanceObject(instAddr(0), addrs.NotDeposed).Status; got != states.ObjectTainted {
				t.Errorf("stored status of r[0] after the fold: %v, want tainted", got)
			}
		})
	}
}

// TestPersisterLagBound: with the journal spacing full writes by its
// growth (CheckpointBytes far away), LagChanges makes a full write due
// once that many changes are unwritten, and LagInterval once the oldest
// is that old; without them nothing is written before Close.
func TestPersisterLagBound(t *testing.T) {
	cases := []struct {
		name    string
		opts    PersisterOptions
		changes int
		want    int // instances in the file before Close, at least
	}{
		{"count bound", PersisterOptions{LagChanges: 10}, 25, 10},
		{"time bound", PersisterOptions{LagInterval: 20 * time.Millisecond}, 3, 3},
		{"no bound", PersisterOptions{}, 25, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "terraform.tfstate")
			mgr := NewFilesystem(path)
			j, err := mgr.Journal()
			if err != nil {
				t.Fatal(err)
			}
			live := states.NewState().SyncWrapper()
			opts := tc.opts
			opts.Source, opts.Journal, opts.CheckpointBytes = live, j, 1<<40
			p := NewBackgroundPersister(mgr, opts)
			for i := range tc.changes {
				set(t, p, live, i, "x")
			}
			stored := func() int {
				if f := readFileIfAny(t, path); f != nil {
					return len(f.State.AllResourceInstances())
				}
				return 0
			}
			deadline := time.Now().Add(10 * time.Second)
			for tc.want > 0 && stored() < tc.want && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			if tc.want == 0 {
				time.Sleep(100 * time.Millisecond) // a write would have had time to happen
			}
			got := stored()
			abandon(p)
			if tc.want == 0 && got != 0 || got < tc.want {
				t.Errorf("the state file holds %d instances before Close, want at least %d (and none without a bound)", got, tc.want)
			}
		})
	}
}

// readFileIfAny reads the state file at path, or returns nil when there
// is none yet.
func readFileIfAny(t *testing.T, path string) *statefile.File {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	return readFile(t, path)
}
