package statemgr

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

func benchObj(i, version int) *states.ResourceInstanceObjectSrc {
	return &states.ResourceInstanceObjectSrc{
		AttrsJSON:          fmt.Appendf(nil, `{"id":"%d","triggers":{"name":"resource-%d","version":"%d","zone":"eu-west-1a"}}`, i, i, version),
		Status:             states.ObjectReady,
		AttrSensitivePaths: nil,
		Dependencies: []addrs.ConfigResource{
			addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "base"}.InModule(nil),
		},
	}
}

// BenchmarkBackgroundPersister100k persists a 100,000-object state through
// the BackgroundPersister after each of 100,000 changes (every object
// replaced once), with a final flush, and reports the writes it made.
// Run: go test -run XXX -bench BackgroundPersister100k -benchtime 1x ./states/statemgr/
//
// The "work" variants spend the given CPU time per change (a stand-in for
// provider calls), so that writes spread over the run: write-s stays about
// 1/(1+GapFactor) of total-s or less, whatever the state's size.
func BenchmarkBackgroundPersister100k(b *testing.B) {
	for _, work := range []time.Duration{0, 20 * time.Microsecond, 100 * time.Microsecond} {
		b.Run(fmt.Sprintf("work=%s", work), func(b *testing.B) { benchPersister(b, work) })
	}
}

// spin burns CPU for d without sleeping.
func spin(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
	}
}

func benchPersister(b *testing.B, work time.Duration) {
	const n = 100_000
	for range b.N {
		b.StopTimer()
		dir := b.TempDir()
		live := states.NewState()
		for i := range n {
			live.SetResourceInstanceCurrent(instAddr(i), benchObj(i, 0), nullProvider)
		}
		mgr := NewFilesystem(filepath.Join(dir, "terraform.tfstate"))
		p := NewBackgroundPersister(mgr, PersisterOptions{Source: live.SyncWrapper()})
		if err := p.Flush(); err != nil { // nothing announced yet: no write
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		for i := range n {
			if work > 0 {
				spin(work)
			}
			obj := benchObj(i, 1)
			p.Update(func(s *states.State) { s.SetResourceInstanceCurrent(instAddr(i), obj, nullProvider) })
		}
		updates := time.Since(start)
		if err := p.Close(); err != nil {
			b.Fatal(err)
		}
		total := time.Since(start)
		b.StopTimer()
		st := p.Stats()
		b.ReportMetric(float64(st.Writes), "writes")
		b.ReportMetric(total.Seconds(), "total-s")
		b.ReportMetric(updates.Seconds(), "updates-s")
		b.ReportMetric(st.WriteTime.Seconds(), "write-s")
		b.ReportMetric(st.LastWrite.Seconds(), "last-write-s")
		if mgr.Serial() != st.Writes {
			b.Fatalf("serial %d after %d writes", mgr.Serial(), st.Writes)
		}
	}
}

// BenchmarkPersistState100k measures one PersistState of a 100,000-object
// state in which one object changed since the previous write: the cost of
// each background write (encode from cache, compare, write, fsync, rename).
func BenchmarkPersistState100k(b *testing.B) {
	const n = 100_000
	live := states.NewState()
	for i := range n {
		live.SetResourceInstanceCurrent(instAddr(i), benchObj(i, 0), nullProvider)
	}
	mgr := NewFilesystem(filepath.Join(b.TempDir(), "terraform.tfstate"))
	mgr.WriteState(live)
	if err := mgr.PersistState(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		live.SetResourceInstanceCurrent(instAddr(i%n), benchObj(i%n, i+1), nullProvider)
		mgr.WriteState(live)
		if err := mgr.PersistState(); err != nil {
			b.Fatal(err)
		}
	}
}
