package statemgr

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/plankit/plankit/states"
)

// BenchmarkPersister100kCreates creates 100,000 objects in an empty state
// from 10 workers (an apply at -parallelism=10 with instant providers),
// announcing each through a BackgroundPersister over a real Filesystem,
// then closes it (the final write). journal=on is what apply does: each
// create appends a begin and a set record before the worker goes on.
// journal=off announces changes only (the persistence of the previous
// release, whose lag after a crash was bounded by time alone). Cost stays
// linear: records are O(object), full writes stay about 1/(1+GapFactor)
// of the time.
// Run: go test -run XXX -bench Persister100kCreates -benchtime 1x ./states/statemgr/
//
// journal=checkpoint is apply's setting since full writes are spaced by
// the journal's growth (CheckpointBytes 4 MiB).
func BenchmarkPersister100kCreates(b *testing.B) {
	for _, journal := range []bool{false, true} {
		b.Run(fmt.Sprintf("journal=%v", journal), func(b *testing.B) { benchCreates(b, 100_000, journal, 0) })
	}
	b.Run("journal=checkpoint", func(b *testing.B) { benchCreates(b, 100_000, true, 4<<20) })
}

func benchCreates(b *testing.B, n int, journal bool, checkpoint uint64) {
	const workers = 10
	b.ReportAllocs()
	for range b.N {
		b.StopTimer()
		mgr := NewFilesystem(filepath.Join(b.TempDir(), "terraform.tfstate"))
		opts := PersisterOptions{Source: states.NewState().SyncWrapper(), CheckpointBytes: checkpoint}
		if journal {
			j, err := mgr.Journal()
			if err != nil {
				b.Fatal(err)
			}
			opts.Journal = j
		}
		p := NewBackgroundPersister(mgr, opts)
		b.StartTimer()
		start := time.Now()
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < n; i += workers {
					addr := instAddr(i)
					if err := p.Begin(addr, "create"); err != nil {
						b.Error(err)
						return
					}
					obj := benchObj(i, 0)
					s := opts.Source.Lock()
					s.SetResourceInstanceCurrent(addr, obj, nullProvider)
					opts.Source.Unlock()
					if err := p.Record(addr); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		creates := time.Since(start)
		if err := p.Close(); err != nil {
			b.Fatal(err)
		}
		total := time.Since(start)
		b.StopTimer()
		st := p.Stats()
		b.ReportMetric(float64(st.Writes), "writes")
		b.ReportMetric(total.Seconds(), "total-s")
		b.ReportMetric(creates.Seconds(), "creates-s")
		b.ReportMetric(st.WriteTime.Seconds(), "write-s")
		if got := len(readFile(b, mgr.Path()).State.AllResourceInstances()); got != n {
			b.Fatalf("%d instances stored, want %d", got, n)
		}
	}
}
