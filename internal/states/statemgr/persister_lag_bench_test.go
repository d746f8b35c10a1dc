package statemgr

import (
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plankit/plankit/states"
)

// BenchmarkPersisterLag measures what the state file itself lags behind
// the journal during an apply of n creates (10 workers, instant
// providers), for the tools that read only the file: lag-max is the most
// objects finished (recorded in the journal) and not yet in the stored
// file at any moment, sampled every 100µs — what a kill -9 at the worst
// moment hides from them. journal=checkpoint spaces full writes by the
// journal's growth alone; journal=lag adds apply's bound (LagChanges,
// LagInterval as command's stateSaver sets them); compare
// total-s and write-s for the cost of the extra writes.
// Run: go test -run XXX -bench PersisterLag -benchtime 1x ./states/statemgr/
//
// pace=5ms gives each create 5 ms (an API call's order of magnitude; 2,000
// creates a second from the 10 workers): there the lag stays near
// LagChanges, while instant creates outrun any write of the state.
func BenchmarkPersisterLag(b *testing.B) {
	lag := PersisterOptions{CheckpointBytes: 4 << 20, LagChanges: 100, LagInterval: 5 * time.Second}
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("n=%d/journal=checkpoint", n), func(b *testing.B) { benchLag(b, n, 0, PersisterOptions{CheckpointBytes: 4 << 20}) })
		b.Run(fmt.Sprintf("n=%d/journal=lag", n), func(b *testing.B) { benchLag(b, n, 0, lag) })
	}
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("n=%d/pace=5ms/journal=checkpoint", n), func(b *testing.B) {
			benchLag(b, n, 5*time.Millisecond, PersisterOptions{CheckpointBytes: 4 << 20})
		})
		b.Run(fmt.Sprintf("n=%d/pace=5ms/journal=lag", n), func(b *testing.B) { benchLag(b, n, 5*time.Millisecond, lag) })
	}
}

// countingStorage counts the instances of each state stored through it.
type countingStorage struct {
	Storage
	pending int
	stored  atomic.Int64
}

func (c *countingStorage) WriteState(s *states.State) error {
	c.pending = len(s.AllResourceInstances())
	return c.Storage.WriteState(s)
}

func (c *countingStorage) PersistState() error {
	err := c.Storage.PersistState()
	if err == nil {
		c.stored.Store(int64(c.pending))
	}
	return err
}

func benchLag(b *testing.B, n int, pace time.Duration, opts PersisterOptions) {
	const workers = 10
	for range b.N {
		b.StopTimer()
		mgr := NewFilesystem(filepath.Join(b.TempDir(), "terraform.tfstate"))
		j, err := mgr.Journal()
		if err != nil {
			b.Fatal(err)
		}
		opts.Source, opts.Journal = states.NewState().SyncWrapper(), j
		cs := &countingStorage{Storage: mgr}
		p := NewBackgroundPersister(cs, opts)
		var done atomic.Int64
		stop := make(chan struct{})
		var lagMax int64
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			t := time.NewTicker(100 * time.Microsecond)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					lagMax = max(lagMax, done.Load()-cs.stored.Load())
				}
			}
		}()
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
					if pace > 0 {
						time.Sleep(pace)
					}
					s := opts.Source.Lock()
					s.SetResourceInstanceCurrent(addr, benchObj(i, 0), nullProvider)
					opts.Source.Unlock()
					if err := p.Record(addr); err != nil {
						b.Error(err)
						return
					}
					done.Add(1)
				}
			}()
		}
		wg.Wait()
		creates := time.Since(start)
		close(stop) // the final write (Close) is not part of the lag
		<-sampled
		if err := p.Close(); err != nil {
			b.Fatal(err)
		}
		total := time.Since(start)
		b.StopTimer()
		st := p.Stats()
		b.ReportMetric(float64(lagMax), "lag-max")
		b.ReportMetric(float64(st.Writes), "writes")
		b.ReportMetric(total.Seconds(), "total-s")
		b.ReportMetric(creates.Seconds(), "creates-s")
		b.ReportMetric(st.WriteTime.Seconds(), "write-s")
	}
}
