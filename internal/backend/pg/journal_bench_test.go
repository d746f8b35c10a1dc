package pg

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/plankit/plankit/internal/backend/pg/pgtest"
	"github.com/plankit/plankit/internal/states/statemgr"
)

// BenchmarkJournalAppend appends the "set" record of one object, as apply
// does after each operation, to the local journal (a write, fsync'd by
// Sync) and to the pg journal (one INSERT committed without waiting for
// the WAL flush, which Sync waits for), alternating the two, on a server
// with fsync on. It reports local-us and pg-us per Append, and the cost
// of a Sync after each (sync-us, what a power-safe record per operation
// would cost; the persister coalesces them in the background). Run:
//
//	go test -run '^$' -bench JournalAppend -benchtime 2000x ./backend/pg
func BenchmarkJournalAppend(b *testing.B) {
	srv, err := pgtest.StartDurable()
	if err != nil {
		pgtest.Shared(b)
		b.Fatal(err)
	}
	defer srv.Stop()
	be := newBackend(b, Config{ConnStr: srv.ConnStr("postgres")})
	pm := mgr(b, be, "default")
	pj, err := pm.Journal()
	if err != nil {
		b.Fatal(err)
	}
	lj, err := statemgr.NewFilesystem(filepath.Join(b.TempDir(), "terraform.tfstate")).Journal()
	if err != nil {
		b.Fatal(err)
	}
	s := stateWith(1)
	rec, err := statemgr.EncodeSet(s, instAddr(0))
	if err != nil {
		b.Fatal(err)
	}
	js := []statemgr.Journal{lj, pj}
	spent := make([]time.Duration, len(js))
	b.ResetTimer()
	for range b.N {
		for i, j := range js {
			start := time.Now()
			if err := j.Append(rec); err != nil {
				b.Fatal(err)
			}
			spent[i] += time.Since(start)
		}
	}
	b.StopTimer()
	syncStart := time.Now()
	const syncs = 200
	for range syncs {
		if err := pj.Append(rec); err != nil {
			b.Fatal(err)
		}
		if err := pj.Sync(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(time.Since(syncStart).Seconds()*1e6/syncs, "pg-append+sync-us")
	for _, j := range js {
		if err := j.Remove(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(spent[0].Seconds()*1e6/float64(b.N), "local-us")
	b.ReportMetric(spent[1].Seconds()*1e6/float64(b.N), "pg-us")
	b.ReportMetric(float64(len(rec)), "rec-bytes")
}
