package pg

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/plankit/plankit/internal/backend/pg/pgtest"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states"
)

type persistTarget interface {
	WriteState(*states.State) error
	PersistState() error
}

// BenchmarkPersist10k persists a 10,000-resource state (3 MB of JSON)
// after changing one object, as an apply does, to the local file (atomic
// write with fsync) and to PostgreSQL (one statement, committed with the
// server's default durability), alternating the two in each iteration so
// that a busy machine slows both alike. It reports local-ms and pg-ms per
// write and their ratio pg/local (the target is < 2). Run:
//
//	go test -run '^$' -bench Persist10k -benchtime 20x ./backend/pg
func BenchmarkPersist10k(b *testing.B) {
	const n = 10_000
	srv, err := pgtest.StartDurable()
	if err != nil {
		pgtest.Shared(b) // skips or fails as the shared server would
		b.Fatal(err)
	}
	defer srv.Stop()
	be := newBackend(b, Config{ConnStr: srv.ConnStr("postgres")})
	pgMgr, err := be.stateMgr(context.Background(), "default")
	if err != nil {
		b.Fatal(err)
	}
	defer pgMgr.Close()
	fileMgr := statemgr.NewFilesystem(filepath.Join(b.TempDir(), "terraform.tfstate"))

	base := stateWith(n)
	targets := []persistTarget{fileMgr, pgMgr}
	lives := make([]*states.State, len(targets))
	for i, t := range targets {
		// The first write stores the whole state and warms the encoder's
		// per-object cache, as the first write of an apply does.
		if err := t.WriteState(base); err != nil {
			b.Fatal(err)
		}
		if err := t.PersistState(); err != nil {
			b.Fatal(err)
		}
		lives[i] = base.Snapshot()
	}
	spent := make([]time.Duration, len(targets))
	b.ResetTimer()
	for i := range b.N {
		for j, t := range targets {
			start := time.Now()
			lives[j].SetResourceInstanceCurrent(instAddr(i%n), obj(n+i), nullProvider)
			if err := t.WriteState(lives[j]); err != nil {
				b.Fatal(err)
			}
			if err := t.PersistState(); err != nil {
				b.Fatal(err)
			}
			spent[j] += time.Since(start)
		}
	}
	b.StopTimer()
	local, pg := spent[0].Seconds()*1000/float64(b.N), spent[1].Seconds()*1000/float64(b.N)
	b.ReportMetric(local, "local-ms")
	b.ReportMetric(pg, "pg-ms")
	b.ReportMetric(pg/local, "pg/local")
}
