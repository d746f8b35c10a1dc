package pg

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/plankit/plankit/internal/backend/pg/pgtest"
	"github.com/plankit/plankit/internal/states/statemgr"
)

// otherTool is Terraform's or OpenTofu's pg backend as the database sees
// it: the statements its Lock, Unlock and first write send, for the
// default schema and table.
type otherTool struct {
	name string
	// lockRow is the query that takes the row's key and the creation key
	// at once, given the workspace (it returns no row while the workspace
	// has none).
	lockRow func(ctx context.Context, c *pgx.Conn, ws string) (id int64, gotRow, gotCreation bool, err error)
	key     int64 // the creation key
}

var otherTools = []otherTool{
	{
		name: "Terraform",
		lockRow: func(ctx context.Context, c *pgx.Conn, ws string) (id int64, gotRow, gotCreation bool, err error) {
			err = c.QueryRow(ctx, `SELECT states.id, pg_try_advisory_lock(states.id), pg_try_advisory_lock(-1) FROM "terraform_remote_state".states WHERE states.name = $1`, ws).Scan(&id, &gotRow, &gotCreation)
			return
		},
		key: -1,
	},
	{
		name: "OpenTofu",
		lockRow: func(ctx context.Context, c *pgx.Conn, ws string) (id int64, gotRow, gotCreation bool, err error) {
			err = c.QueryRow(ctx, `SELECT "states".id, pg_try_advisory_lock("states".id), pg_try_advisory_lock($1) FROM "terraform_remote_state"."states" WHERE "states".name = $2`, int64(-3797183428), ws).Scan(&id, &gotRow, &gotCreation)
			return
		},
		key: -3797183428,
	},
}

// What the other tool's Lock concludes.
const (
	toolLocked          = "locked"
	toolRefusedCreating = "refused: no row, creation key held"     // "Already locked for workspace creation"
	toolRefusedRow      = "refused: row key held"                  // "Workspace is already locked"
	toolRefusedCreation = "refused: row exists, creation key held" // "Cannot lock workspace; already locked for workspace creation"
)

// lock does what the tool's Lock does on c: the row query, then the
// creation key alone when there is no row; whatever it took and does not
// keep is given back. It returns the outcome and the key it keeps.
func (o otherTool) lock(t *testing.T, c *pgx.Conn, ws string) (string, int64) {
	t.Helper()
	ctx := context.Background()
	unlock := func(k int64) {
		if _, err := c.Exec(ctx, "SELECT pg_advisory_unlock($1)", k); err != nil {
			t.Fatal(err)
		}
	}
	id, gotRow, gotCreation, err := o.lockRow(ctx, c, ws)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		var ok bool
		if err := c.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", o.key).Scan(&ok); err != nil {
			t.Fatal(err)
		}
		if !ok {
			return toolRefusedCreating, 0
		}
		return toolLocked, o.key
	case err != nil:
		t.Fatalf("%s's lock query: %v", o.name, err)
	case !gotRow:
		if gotCreation {
			unlock(o.key)
		}
		return toolRefusedRow, 0
	case !gotCreation:
		unlock(id)
		return toolRefusedCreation, 0
	}
	unlock(o.key)
	return toolLocked, id
}

// prepareSchema creates the schema, sequence, table and index as the tool
// does on its first run (before plankit ever ran there).
func prepareSchema(t *testing.T, c *pgx.Conn) {
	t.Helper()
	for _, s := range []string{
		`CREATE SCHEMA IF NOT EXISTS "terraform_remote_state"`,
		`CREATE SEQUENCE IF NOT EXISTS public.global_states_id_seq AS bigint`,
		`CREATE TABLE IF NOT EXISTS "terraform_remote_state"."states" (id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY, name text UNIQUE, data text)`,
		`CREATE UNIQUE INDEX IF NOT EXISTS "states_by_name" ON "terraform_remote_state"."states" (name)`,
	} {
		if _, err := c.Exec(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
}

// newWithin is New, failing the test when it does not return within d.
func newWithin(t *testing.T, d time.Duration, cfg Config) *Backend {
	t.Helper()
	type res struct {
		b   *Backend
		err error
	}
	ch := make(chan res, 1)
	go func() {
		b, err := New(context.Background(), cfg)
		ch <- res{b, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatal(r.err)
		}
		t.Cleanup(func() { r.b.Close() })
		return r.b
	case <-time.After(d):
		t.Fatalf("opening the backend did not return within %s", d)
	}
	return nil
}

// TestOtherToolCreatingWorkspace: Terraform or OpenTofu runs the default
// workspace's first apply on a fresh schema, holding only its creation
// key: first with no row yet, then after its first write stored the row.
// plankit opens the backend at once (it does not wait on the creation
// keys), and its lock is refused in both windows with an error naming the
// workspace, the creation lock and its session, and what to do; no row is
// written by plankit. When the tool ends, plankit's waiting lock gets in.
func TestOtherToolCreatingWorkspace(t *testing.T) {
	for _, tool := range otherTools {
		t.Run(tool.name, func(t *testing.T) {
			cs := pgtest.NewDatabase(t)
			ctx := context.Background()
			other := rawConn(t, cs)
			prepareSchema(t, other)
			if got, _ := tool.lock(t, other, "default"); got != toolLocked {
				t.Fatalf("%s's lock on a fresh schema: %s", tool.name, got)
			}

			b := newWithin(t, 15*time.Second, Config{ConnStr: cs})
			m := mgr(t, b, "default")
			checkRefused := func(window string) {
				t.Helper()
				start := time.Now()
				_, err := m.Lock(nil)
				if !errors.Is(err, statemgr.ErrLocked) {
					t.Fatalf("%s: plankit's lock: %v; want ErrLocked", window, err)
				}
				for _, want := range []string{`workspace "default"`, "workspace creation lock", "PostgreSQL session", "Wait for it to finish", "-lock-timeout"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("%s: the lock error lacks %q:\n%s", window, want, err)
					}
				}
				if d := time.Since(start); d > 5*time.Second {
					t.Errorf("%s: refused after %s", window, d)
				}
			}
			checkRefused("no row yet")
			var n int
			if err := other.QueryRow(ctx, `SELECT count(*) FROM terraform_remote_state.states`).Scan(&n); err != nil || n != 0 {
				t.Fatalf("rows after plankit opened and tried to lock the workspace: %d %v", n, err)
			}

			// The tool's first write.
			if _, err := other.Exec(ctx, `INSERT INTO "terraform_remote_state"."states" (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2 WHERE "states".name = $1`, "default", `{"version":4,"serial":1,"lineage":"x","outputs":{},"resources":[]}`); err != nil {
				t.Fatal(err)
			}
			checkRefused("row written")

			released := make(chan struct{})
			go func() {
				defer close(released)
				time.Sleep(500 * time.Millisecond)
				other.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", tool.key)
			}()
			id, err := m.LockWithTimeout(ctx, nil, 20*time.Second)
			<-released // other is closed when the test ends
			if err != nil {
				t.Fatalf("lock after %s ended: %v", tool.name, err)
			}
			if err := m.Unlock(id); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestPlankitCreationLockExcludesOtherTools: plankit locks the default
// workspace of a fresh schema (no row) and keeps the creation keys for its
// whole run: Terraform's and OpenTofu's lock statements are refused before
// its first write and after it, and get in once plankit unlocks (then
// plankit is refused, naming their session).
func TestPlankitCreationLockExcludesOtherTools(t *testing.T) {
	for _, tool := range otherTools {
		t.Run(tool.name, func(t *testing.T) {
			cs := pgtest.NewDatabase(t)
			b := newBackend(t, Config{ConnStr: cs})
			other := rawConn(t, cs)
			m := mgr(t, b, "default")
			id, err := m.Lock(nil)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := tool.lock(t, other, "default"); got != toolRefusedCreating {
				t.Errorf("%s's lock while plankit creates the workspace: %s; want %s", tool.name, got, toolRefusedCreating)
			}
			m.WriteState(stateWith(1))
			if err := m.PersistState(); err != nil {
				t.Fatal(err)
			}
			if got, _ := tool.lock(t, other, "default"); got != toolRefusedCreation {
				t.Errorf("%s's lock after plankit's first write: %s; want %s", tool.name, got, toolRefusedCreation)
			}
			if err := m.Unlock(id); err != nil {
				t.Fatal(err)
			}
			got, key := tool.lock(t, other, "default")
			if got != toolLocked {
				t.Fatalf("%s's lock after plankit unlocked: %s", tool.name, got)
			}
			if _, err := m.Lock(nil); !errors.Is(err, statemgr.ErrLocked) || !strings.Contains(err.Error(), "PostgreSQL session") {
				t.Errorf("plankit's lock while %s holds the workspace: %v", tool.name, err)
			}
			other.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", key)
		})
	}
}
