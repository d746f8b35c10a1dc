package pg

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/plankit/plankit/backend/pg/pgtest"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statemgr"
)

// BenchmarkPersist10k persists a 10,000-resource state after changing one
// object, to the local file (atomic write, fsync) and to PostgreSQL (one
// transaction, committed with the server's fsync), so the two can be
// compared: the target is pg < 2x local. Run:
//
//	go test -run '^$' -bench Persist10k ./backend/pg
func BenchmarkPersist10k(b *testing.B) {
	const n = 10_000
	base := stateWith(n)
	persist := func(b *testing.B, mgr interface {
		WriteState(*states.State) error
		PersistState() error
	}) {
		// The first write stores the whole state; each timed one changes
		// one object, as an apply does, and writes it all again.
		if err := mgr.WriteState(base); err != nil {
			b.Fatal(err)
		}
		if err := mgr.PersistState(); err != nil {
			b.Fatal(err)
		}
		live := base.Snapshot()
		b.ResetTimer()
		for i := range b.N {
			live.SetResourceInstanceCurrent(instAddr(i%n), obj(n+i), nullProvider)
			if err := mgr.WriteState(live); err != nil {
				b.Fatal(err)
			}
			if err := mgr.PersistState(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("local", func(b *testing.B) {
		persist(b, statemgr.NewFilesystem(filepath.Join(b.TempDir(), "terraform.tfstate")))
	})
	b.Run("pg", func(b *testing.B) {
		srv, err := pgtest.StartDurable()
		if err != nil {
			pgtest.Shared(b) // skips or fails as the shared server would
			b.Fatal(err)
		}
		defer srv.Stop()
		be := newBackend(b, Config{ConnStr: srv.ConnStr("postgres")})
		m, err := be.stateMgr(context.Background(), "default")
		if err != nil {
			b.Fatal(err)
		}
		defer m.Close()
		persist(b, m)
	})
}
