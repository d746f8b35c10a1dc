package pg

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	version "github.com/hashicorp/go-version"
	"github.com/jackc/pgx/v5"

	"github.com/plankit/plankit/backend"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
	"github.com/plankit/plankit/states/statemgr"
)

// Mgr is one workspace's state manager: the row SCHEMA.states where name
// is the workspace, on a connection of its own (the lock is a session
// lock). It follows the local manager's rules: the serial increases only
// when a persisted state differs from the last one read or written, and a
// lineage is created on the first persist. All methods are safe for
// concurrent use.
type Mgr struct {
	b    *Backend
	name string

	mu        sync.Mutex
	conn      *pgx.Conn
	loaded    bool
	file      *statefile.File
	lastBytes []byte
	tfVersion *version.Version

	held *heldLock // the lock this manager holds, nil when none

	codec   statemgr.Codec // stored form (encryption); see codec.go
	rewrite bool           // the stored form is outdated: persist even if unchanged

	journal   *pgJournal         // opened on first use (journal.go)
	recovery  *statemgr.Recovery // what refresh replayed from a journal left behind
	recovered int64              // the last journal row refresh replayed (0: none)
}

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
	m := &Mgr{b: b, name: workspace, conn: conn, codec: b.codec}
	var id int64
	err = conn.QueryRow(ctx, fmt.Sprintf("SELECT id FROM %s WHERE name = $1", b.table()), workspace).Scan(&id)
	switch {
	case errors.Is(err, pgx.ErrNoRows) && workspace == backend.DefaultWorkspace:
	case errors.Is(err, pgx.ErrNoRows):
		if err := m.create(ctx); err != nil {
			conn.Close(context.Background())
			return nil, err
		}
	case err != nil:
		conn.Close(context.Background())
		return nil, b.redact(fmt.Errorf("reading workspace %q in %s: %w", workspace, b.describes, err))
	}
	return m, nil
}

// create writes an empty state for a workspace with no row, under the
// creation lock; another process creating it at the same time is waited
// for briefly.
func (m *Mgr) create(ctx context.Context) error {
	info := statemgr.NewLockInfo()
	info.Operation = "init"
	id, err := m.LockWithTimeout(ctx, info, 10*time.Second)
	if err != nil {
		return fmt.Errorf("creating workspace %q: %w", m.name, err)
	}
	var perr error
	if err := m.RefreshState(); err != nil {
		perr = err
	} else if m.file.Lineage == "" {
		perr = m.PersistState()
	}
	uerr := m.Unlock(id)
	if perr != nil {
		return fmt.Errorf("creating workspace %q: %w", m.name, perr)
	}
	return uerr
}

// Describe names the workspace and database, never the password.
func (m *Mgr) Describe() string {
	return fmt.Sprintf("workspace %q in %s", m.name, m.b.describes)
}

// Workspace returns the workspace's name.
func (m *Mgr) Workspace() string { return m.name }

// SetTerraformVersion sets the "terraform_version" written (a newer one
// already recorded is kept).
func (m *Mgr) SetTerraformVersion(v *version.Version) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tfVersion = v
}

// State returns a deep copy of the in-memory state.
func (m *Mgr) State() *states.State {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ensureLoaded() != nil {
		return nil
	}
	return m.file.State.DeepCopy()
}

// StateFile returns a copy of the in-memory state with its lineage, serial
// and version.
func (m *Mgr) StateFile() *statefile.File {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ensureLoaded() != nil {
		return nil
	}
	f := m.file.DeepCopy()
	f.TerraformVersion = statemgr.WriteVersion(m.file, m.tfVersion)
	return f
}

// WriteState replaces the in-memory state (a Snapshot of st is kept; st's
// objects must not be modified afterwards).
func (m *Mgr) WriteState(st *states.State) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ensureLoaded(); err != nil {
		return err
	}
	if st == nil {
		st = states.NewState()
	}
	m.file.State = st.Snapshot()
	return nil
}

// RefreshState reads the workspace's row again. No row, or an empty data
// column, is an empty state with no lineage.
func (m *Mgr) RefreshState() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.refresh()
}

func (m *Mgr) ensureLoaded() error {
	if m.loaded {
		return nil
	}
	return m.refresh()
}

func (m *Mgr) refresh() error {
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
		return m.b.redact(fmt.Errorf("reading the state of %s: %w", m.Describe(), err))
	}
	var src []byte
	if data != nil {
		src = []byte(*data)
	}
	if src, err = m.decode(src); err != nil {
		return err
	}
	f, err := statefile.Read(bytes.NewReader(src))
	switch {
	case errors.Is(err, statefile.ErrNoState):
		m.file = &statefile.File{State: states.NewState()}
		m.lastBytes = nil
	case err != nil:
		return fmt.Errorf("the state of %s: %w", m.Describe(), err)
	default:
		m.file = f
		var buf bytes.Buffer
		if err := statefile.Write(statemgr.WithWriteVersion(f, m.tfVersion), &buf); err != nil {
			return fmt.Errorf("the state of %s: %w", m.Describe(), err)
		}
		m.lastBytes = buf.Bytes()
	}
	if err := m.replayJournal(); err != nil {
		return err
	}
	m.loaded = true
	return nil
}

// PersistState writes the in-memory state to the row if it changed since
// the last read or write: lineage created if missing, serial increased,
// the row replaced in one transaction. A lost connection is retried on a
// new one (see Config.Retries). O(size of the state).
func (m *Mgr) PersistState() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ensureLoaded(); err != nil {
		return err
	}
	last := m.lastBytes
	if m.recovered != 0 {
		// Folding a journal in always takes the next serial, even when the
		// journal only repeats the row: a plan saved from the recovered
		// state expects it.
		last = nil
	}
	w, err := statemgr.PrepareWrite(m.file, m.tfVersion, last)
	if err != nil {
		return err
	}
	if w.Unchanged && !m.rewrite { // a rewrite in the current stored form keeps the serial
		return m.dropRecovered()
	}
	data := w.Data
	if err := m.put(data); err != nil {
		return err
	}
	m.rewrite = false
	m.file.Lineage, m.file.Serial, m.file.TerraformVersion = w.Lineage, w.Serial, w.TerraformVersion
	m.lastBytes = data
	return m.dropRecovered()
}

// put stores data as the workspace's state in one transaction (Terraform's
// upsert statement). m.mu must be held.
func (m *Mgr) put(data []byte) error {
	data, err := m.encode(data)
	if err != nil {
		return err
	}
	q := fmt.Sprintf("INSERT INTO %s (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2 WHERE %s.name = $1", m.b.table(), m.b.tbl)
	err = m.withConn(context.Background(), func(ctx context.Context, c *pgx.Conn) error {
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

// Import stores f as the workspace's state as is (lineage and serial
// included): `state push`. The caller checks lineage and serial. The
// in-memory state becomes f.
func (m *Mgr) Import(f *statefile.File) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var buf bytes.Buffer
	c := *f
	if c.State == nil {
		c.State = states.NewState()
	}
	if err := statefile.Write(&c, &buf); err != nil {
		return fmt.Errorf("encoding the state: %w", err)
	}
	if err := m.put(buf.Bytes()); err != nil {
		return err
	}
	m.file = c.DeepCopy()
	m.loaded = true
	m.recovery, m.recovered = nil, 0 // the caller removes a journal the import replaces
	var lb bytes.Buffer
	if err := statefile.Write(statemgr.WithWriteVersion(m.file, m.tfVersion), &lb); err == nil {
		m.lastBytes = lb.Bytes()
	}
	return nil
}

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
	m.mu.Lock()
	held := m.held
	m.mu.Unlock()
	var err error
	if held != nil {
		err = m.Unlock(held.info.ID)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
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
	m.mu.Lock()
	defer m.mu.Unlock()
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
