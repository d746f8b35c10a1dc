package pg

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/plankit/plankit/internal/backend"
	"github.com/plankit/plankit/internal/backend/internal/remotestate"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states"
)

// Mgr is one workspace's state manager: the row SCHEMA.states where name
// is the workspace, on a connection of its own (the lock is a session
// lock). It follows the local manager's rules: the serial increases only
// when a persisted state differs from the last one read or written, and a
// lineage is created on the first persist (remotestate.Core). All methods
// are safe for concurrent use.
type Mgr struct {
	core // remotestate.Core: the in-memory state; its Mu guards the fields below too

	b    *Backend
	name string

	conn *pgx.Conn
	held *heldLock // the lock this manager holds, nil when none

	journal *pgJournal // opened on first use (journal.go)
}

// core is embedded under a lower-case name so that only its methods, not
// its fields, are part of Mgr's API.
type core = remotestate.Core

type heldLock struct {
	keys []int64 // the advisory lock keys: the row's id, or the creation keys while creating
	info *statemgr.LockInfo
}

var (
	_ backend.StateMgr   = (*Mgr)(nil)
	_ statemgr.Journaled = (*Mgr)(nil)
)

// StateMgr returns the manager of a workspace, creating its row with an
// empty state when it has none yet (under the creation lock, as Terraform
// does, so the workspace is listed from then on). The default workspace
// is always listed, so, as in Terraform and OpenTofu, its row is left to
// the first write: a tool running the default workspace's first apply
// holds the creation lock until it ends, and the caller's Lock reports
// that at once (or waits for it with -lock-timeout) rather than the
// opening failing.
func (b *Backend) StateMgr(ctx context.Context, workspace string) (backend.StateMgr, error) {
	return b.stateMgr(ctx, workspace)
}

func (b *Backend) stateMgr(ctx context.Context, workspace string) (*Mgr, error) {
	if err := backend.ValidWorkspaceName(workspace); err != nil {
		return nil, err
	}
	conn, err := b.connect(ctx)
	if err != nil {
		return nil, err
	}
	m := &Mgr{b: b, name: workspace, conn: conn}
	m.Init(pgStore{m}, b.codec)
	var id int64
	err = conn.QueryRow(ctx, fmt.Sprintf("SELECT id FROM %s WHERE name = $1", b.table()), workspace).Scan(&id)
	switch {
	case errors.Is(err, pgx.ErrNoRows) && workspace == backend.DefaultWorkspace:
	case errors.Is(err, pgx.ErrNoRows):
		if err := m.Create(ctx, workspace, m); err != nil {
			conn.Close(context.Background())
			return nil, err
		}
	case err != nil:
		conn.Close(context.Background())
		return nil, b.redact(fmt.Errorf("reading workspace %q in %s: %w", workspace, b.describes, err))
	}
	return m, nil
}

// Describe names the workspace and database, never the password.
func (m *Mgr) Describe() string {
	return fmt.Sprintf("workspace %q in %s", m.name, m.b.describes)
}

// Workspace returns the workspace's name.
func (m *Mgr) Workspace() string { return m.name }

// pgStore is the row of a workspace's state, for remotestate.Core.
type pgStore struct{ m *Mgr }

func (s pgStore) Describe() string { return s.m.Describe() }

// ReadState reads the workspace's row. No row is no state.
func (s pgStore) ReadState() ([]byte, error) {
	m := s.m
	var data *string
	err := m.withConn(context.Background(), func(ctx context.Context, c *pgx.Conn) error {
		err := c.QueryRow(ctx, fmt.Sprintf("SELECT data FROM %s WHERE name = $1", m.b.table()), m.name).Scan(&data)
		if errors.Is(err, pgx.ErrNoRows) {
			data = nil
			return nil
		}
		return err
	})
	if err != nil {
		return nil, m.b.redact(fmt.Errorf("reading the state of %s: %w", m.Describe(), err))
	}
	if data == nil {
		return nil, nil
	}
	return []byte(*data), nil
}

// WriteState stores data as the workspace's state in one transaction
// (Terraform's upsert statement). A lost connection is retried on a new
// one (see Config.Retries).
func (s pgStore) WriteState(data []byte) error {
	m := s.m
	q := fmt.Sprintf("INSERT INTO %s (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2 WHERE %s.name = $1", m.b.table(), m.b.tbl)
	err := m.withConn(context.Background(), func(ctx context.Context, c *pgx.Conn) error {
		// One statement outside an explicit transaction block is its own
		// transaction: the row holds the old state or the new one, never
		// part of either, whatever happens to this process or the
		// connection; and it costs one round trip, not three.
		_, err := c.Exec(ctx, q, m.name, data) // sent as text, not copied to a string
		return err
	})
	if err != nil {
		return m.b.redact(fmt.Errorf("writing the state of %s: %w", m.Describe(), err))
	}
	return nil
}

func (s pgStore) ReplayJournal(st *states.State) (*statemgr.Recovery, int64, error) {
	return s.m.replayJournal(st)
}

func (s pgStore) DropJournal(mark int64) error { return s.m.dropRecovered(mark) }

// withConn runs fn on the manager's connection; when the connection is
// lost it reconnects (re-taking the advisory lock this manager holds) and
// runs fn again, up to Config.Retries times with doubling waits. m.mu must
// be held.
func (m *Mgr) withConn(ctx context.Context, fn func(context.Context, *pgx.Conn) error) error {
	wait := m.b.cfg.RetryBackoff
	var err error
	for attempt := 0; ; attempt++ {
		if m.conn != nil && !m.conn.IsClosed() {
			err = fn(ctx, m.conn)
			if err == nil || !isConnLost(m.conn, err) {
				return err
			}
		}
		if attempt >= m.b.cfg.Retries {
			if err == nil {
				err = errors.New("the connection is closed")
			}
			return fmt.Errorf("%w (the connection was lost; gave up after %d reconnection attempts)", err, attempt)
		}
		time.Sleep(wait)
		wait *= 2
		if rerr := m.reconnect(ctx); rerr != nil {
			if errors.Is(rerr, errLockLost) {
				return rerr
			}
			err = rerr
		}
	}
}

var errLockLost = errors.New("the state lock was lost with the connection and another process holds it now; the state was not written")

// reconnect replaces a lost connection and, when this manager held the
// lock, takes the advisory lock again: the session that held it is gone,
// so the server released it. The lock info row is still ours.
func (m *Mgr) reconnect(ctx context.Context) error {
	if m.conn != nil {
		m.conn.Close(context.Background())
		m.conn = nil
	}
	c, err := m.b.connect(ctx)
	if err != nil {
		return err
	}
	m.conn = c
	if m.held == nil {
		return nil
	}
	for i, k := range m.held.keys {
		var ok bool
		if err := c.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", k).Scan(&ok); err != nil {
			return err
		}
		if !ok {
			for _, got := range m.held.keys[:i] {
				unlockKey(ctx, c, got)
			}
			return errLockLost
		}
	}
	return nil
}

// Close releases the lock if held and closes the connection.
func (m *Mgr) Close() error {
	m.Mu.Lock()
	held := m.held
	m.Mu.Unlock()
	var err error
	if held != nil {
		err = m.Unlock(held.info.ID)
	}
	m.Mu.Lock()
	defer m.Mu.Unlock()
	if m.journal != nil {
		m.journal.close()
	}
	if m.conn != nil {
		m.conn.Close(context.Background())
		m.conn = nil
	}
	return err
}

// RawState returns the workspace's data column as stored (nil when the
// workspace has no row or an empty one): `state pull`.
func (m *Mgr) RawState() ([]byte, error) {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	var data *string
	err := m.withConn(context.Background(), func(ctx context.Context, c *pgx.Conn) error {
		err := c.QueryRow(ctx, fmt.Sprintf("SELECT data FROM %s WHERE name = $1", m.b.table()), m.name).Scan(&data)
		if errors.Is(err, pgx.ErrNoRows) {
			data = nil
			return nil
		}
		return err
	})
	if err != nil || data == nil {
		return nil, m.b.redact(err)
	}
	return []byte(*data), nil
}
