package pg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/plankit/plankit/internal/backend/internal/remotestate"
	"github.com/plankit/plankit/internal/states/statemgr"
)

// LockError is a refused lock or unlock. It unwraps to the
// *statemgr.LockError (so errors.Is(err, statemgr.ErrLocked) and
// ErrStaleLock work), with advice that fits a database instead of a lock
// file.
type LockError struct {
	*statemgr.LockError
	Workspace string
	// Holder describes the live session holding the advisory lock when
	// plankit's lock info row does not (a Terraform or OpenTofu process).
	Holder string

	creationOnly bool // only the creation key -1 was taken by another session
}

func (e *LockError) Error() string {
	var notes, unlock string
	if e.Holder != "" {
		notes += fmt.Sprintf("\nThe lock is held by %s.\n", e.Holder)
	}
	if e.creationOnly {
		notes += "\nThe workspace creation lock is held while a workspace is created, and by Terraform and OpenTofu for the whole first run of a workspace whose state is not stored yet (for example the first apply of the default workspace), until that run ends. Wait for it to finish and run the command again, or let it wait with -lock-timeout (for example -lock-timeout=10m).\n"
	}
	if errors.Is(e.Err, statemgr.ErrStaleLock) {
		unlock = "No process holds this lock any more. If no other operation is using the state"
	}
	return remotestate.LockMessage(e.LockError, e.Workspace, notes, unlock)
}

func (e *LockError) Unwrap() error { return e.LockError }

func (m *Mgr) lockErr(err error, info *statemgr.LockInfo, holder string) error {
	return &LockError{LockError: &statemgr.LockError{Info: info, Err: err}, Workspace: m.name, Holder: holder}
}

// Lock takes the workspace's lock: Terraform's and OpenTofu's advisory
// locks (the row's id and both creation keys together, keeping the row's,
// and refused while another session holds a creation key; the creation
// keys alone when the row does not exist yet, kept until Unlock even after
// the first write creates the row, as both tools keep theirs), then
// plankit's lock info row. A live holder
// gives ErrLocked naming it; a lock info row whose advisory lock nobody
// holds (the holder died) gives ErrStaleLock with its ID for
// force-unlock.
func (m *Mgr) Lock(info *statemgr.LockInfo) (string, error) {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	if m.held != nil {
		return "", m.lockErr(errors.New("this state manager already holds the lock"), m.held.info, "")
	}
	li := remotestate.LockInfo(info)
	li.Path = m.Describe()
	ctx := context.Background()
	var keys []int64
	var lockErr error
	err := m.withConn(ctx, func(ctx context.Context, c *pgx.Conn) error {
		var err error
		keys, lockErr, err = m.tryAdvisory(ctx, c)
		return err
	})
	if err != nil {
		return "", m.b.redact(fmt.Errorf("locking %s: %w", m.Describe(), err))
	}
	if lockErr != nil {
		return "", lockErr
	}
	m.held = &heldLock{keys: keys, info: li}
	if !m.b.hasLocks {
		return li.ID, nil
	}
	// The advisory lock is ours: an info row left now belongs to a holder
	// that died.
	stale, err := m.readInfo(ctx)
	if err == nil && stale != nil {
		m.releaseAdvisory(ctx)
		return "", m.lockErr(statemgr.ErrStaleLock, stale, "")
	}
	if err == nil {
		data, _ := json.Marshal(li)
		_, err = m.conn.Exec(ctx, fmt.Sprintf("INSERT INTO %s (name, lock_id, info) VALUES ($1, $2, $3)", m.b.lockTable()), m.name, li.ID, string(data))
	}
	if err != nil {
		m.releaseAdvisory(ctx)
		return "", m.b.redact(fmt.Errorf("recording the lock of %s: %w", m.Describe(), err))
	}
	return li.ID, nil
}

// tryAdvisory takes Terraform's advisory locks on c. It returns the key
// kept, or a lock error naming the holder when another session has them.
//
// Every locker takes the creation keys for an instant (Terraform's query
// takes the row's key and -1 at once, then gives -1 back; plankit also
// takes OpenTofu's key), so two lockers starting together can each see the
// other's key and both give up. A conflict on the creation keys alone is
// therefore retried for a short while before it is reported.
func (m *Mgr) tryAdvisory(ctx context.Context, c *pgx.Conn) ([]int64, error, error) {
	for attempt := 0; ; attempt++ {
		keys, lockErr, err := m.tryAdvisoryOnce(ctx, c)
		var le *LockError
		if err != nil || lockErr == nil || !errors.As(lockErr, &le) || !le.creationOnly {
			return keys, lockErr, err
		}
		if attempt >= creationRetries {
			// A plankit holder is named by its lock info, as for the
			// row's key; another tool by its session.
			if le.Info = m.awaitInfo(ctx, c); le.Info != nil {
				le.Err = fmt.Errorf("%w: workspace is already locked: %s (its state is not stored yet, so the holder has the workspace creation lock)", statemgr.ErrLocked, m.name)
				le.creationOnly = false
			} else {
				for _, k := range m.b.creation {
					if le.Holder = m.holderOf(ctx, c, k); le.Holder != "" {
						break
					}
				}
			}
			return keys, lockErr, err
		}
		time.Sleep(creationRetryWait)
	}
}

// creationRetries × creationRetryWait bounds the wait for a creation lock
// that is held for an instant only.
const (
	creationRetries   = 40
	creationRetryWait = 25 * time.Millisecond
)

func (m *Mgr) tryAdvisoryOnce(ctx context.Context, c *pgx.Conn) ([]int64, error, error) {
	creation := m.b.creation
	var id int64
	var gotRow, gotTF, gotTofu bool
	q := fmt.Sprintf("SELECT %[1]s.id, pg_try_advisory_lock(%[1]s.id), pg_try_advisory_lock($2), pg_try_advisory_lock($3) FROM %[2]s WHERE %[1]s.name = $1", m.b.tbl, m.b.table())
	err := c.QueryRow(ctx, q, m.name, creation[0], creation[1]).Scan(&id, &gotRow, &gotTF, &gotTofu)
	release := func(keys ...int64) {
		for _, k := range keys {
			unlockKey(ctx, c, k)
		}
	}
	// creationErr reports the creation keys held by another session, after
	// releasing what was taken.
	// The holder is named by tryAdvisory once it stops retrying.
	creationErr := func(taken ...int64) error {
		release(taken...)
		return &LockError{LockError: &statemgr.LockError{Err: fmt.Errorf("%w: cannot lock workspace %q: another process holds the workspace creation lock of %s", statemgr.ErrLocked, m.name, m.b.describes)},
			Workspace: m.name, creationOnly: true}
	}
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		// No row yet: this is a workspace creation, under both creation keys.
		if err := c.QueryRow(ctx, "SELECT pg_try_advisory_lock($1), pg_try_advisory_lock($2)", creation[0], creation[1]).Scan(&gotTF, &gotTofu); err != nil {
			return nil, nil, err
		}
		if !gotTF || !gotTofu {
			var taken []int64
			if gotTF {
				taken = append(taken, creation[0])
			}
			if gotTofu {
				taken = append(taken, creation[1])
			}
			return nil, creationErr(taken...), nil
		}
		return []int64{creation[0], creation[1]}, nil, nil
	case err != nil:
		return nil, nil, err
	case !gotRow:
		if gotTF {
			release(creation[0])
		}
		if gotTofu {
			release(creation[1])
		}
		info := m.awaitInfo(ctx, c)
		holder := ""
		if info == nil {
			holder = m.holderOf(ctx, c, id)
		}
		return nil, m.lockErr(fmt.Errorf("%w: workspace is already locked: %s", statemgr.ErrLocked, m.name), info, holder), nil
	case !gotTF || !gotTofu:
		taken := []int64{id}
		if gotTF {
			taken = append(taken, creation[0])
		}
		if gotTofu {
			taken = append(taken, creation[1])
		}
		return nil, creationErr(taken...), nil
	}
	release(creation[0], creation[1])
	return []int64{id}, nil, nil
}

// awaitInfo reads the lock info row of a plankit holder, which records it
// right after taking the advisory lock: it gives the holder a moment
// before concluding there is none (nil: another tool holds the lock).
func (m *Mgr) awaitInfo(ctx context.Context, c *pgx.Conn) *statemgr.LockInfo {
	info, _ := m.readInfoOn(ctx, c)
	for i := 0; info == nil && m.b.hasLocks && i < 10; i++ {
		time.Sleep(20 * time.Millisecond)
		info, _ = m.readInfoOn(ctx, c)
	}
	return info
}

func unlockKey(ctx context.Context, c *pgx.Conn, key int64) {
	var ok bool
	_ = c.QueryRow(ctx, "SELECT pg_advisory_unlock($1)", key).Scan(&ok)
}

// holderOf describes the session holding advisory lock key, from pg_locks
// (a bigint key is split into classid, the high 32 bits, and objid, the
// low ones, with objsubid 1).
func (m *Mgr) holderOf(ctx context.Context, c *pgx.Conn, key int64) string {
	var pid int32
	var user, addr, app string
	var since time.Time
	err := c.QueryRow(ctx, `SELECT a.pid, coalesce(a.usename::text, ''), coalesce(host(a.client_addr), 'local socket'), coalesce(a.application_name, ''), a.backend_start
FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
  AND l.classid = (($1::bigint >> 32) & 4294967295)::oid AND l.objid = ($1::bigint & 4294967295)::oid
LIMIT 1`, key).Scan(&pid, &user, &addr, &app, &since)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("PostgreSQL session %d (user %q from %s, application %q, connected since %s)", pid, user, addr, app, since.UTC().Format(time.RFC3339))
}

func (m *Mgr) readInfo(ctx context.Context) (*statemgr.LockInfo, error) {
	return m.readInfoOn(ctx, m.conn)
}

// readInfoOn reads the workspace's lock info row (nil when none).
func (m *Mgr) readInfoOn(ctx context.Context, c *pgx.Conn) (*statemgr.LockInfo, error) {
	if !m.b.hasLocks {
		return nil, nil
	}
	var id, data string
	err := c.QueryRow(ctx, fmt.Sprintf("SELECT lock_id, info FROM %s WHERE name = $1", m.b.lockTable()), m.name).Scan(&id, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var info statemgr.LockInfo
	if json.Unmarshal([]byte(data), &info) != nil {
		info = statemgr.LockInfo{Info: "the lock info row is unreadable"}
	}
	info.ID = id
	return &info, nil
}

func (m *Mgr) releaseAdvisory(ctx context.Context) {
	if m.held != nil && m.conn != nil {
		for _, k := range m.held.keys {
			unlockKey(ctx, m.conn, k)
		}
	}
	m.held = nil
}

// Unlock releases the lock with the given ID. Called on a manager that does
// not hold it, it is force-unlock: it removes a lock whose holder died
// (its info row, when the ID matches and nobody holds the advisory lock).
// A lock a live session holds cannot be removed from here: it ends with
// that session.
func (m *Mgr) Unlock(id string) error {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	ctx := context.Background()
	if m.held != nil {
		if id != m.held.info.ID {
			return m.lockErr(statemgr.ErrLockIDMismatch, m.held.info, "")
		}
		err := m.withConn(ctx, func(ctx context.Context, c *pgx.Conn) error {
			if m.b.hasLocks {
				if _, err := c.Exec(ctx, fmt.Sprintf("DELETE FROM %s WHERE name = $1 AND lock_id = $2", m.b.lockTable()), m.name, id); err != nil {
					return err
				}
			}
			for _, k := range m.held.keys {
				var ok bool
				if err := c.QueryRow(ctx, "SELECT pg_advisory_unlock($1)", k).Scan(&ok); err != nil {
					return err
				}
			}
			return nil
		})
		m.held = nil
		if err != nil {
			return m.b.redact(fmt.Errorf("unlocking %s: %w", m.Describe(), err))
		}
		return nil
	}
	return m.forceUnlock(ctx, id)
}

func (m *Mgr) forceUnlock(ctx context.Context, id string) error {
	return m.withConn(ctx, func(ctx context.Context, c *pgx.Conn) error {
		info, err := m.readInfoOn(ctx, c)
		if err != nil {
			return m.b.redact(err)
		}
		var rowID int64
		rerr := c.QueryRow(ctx, fmt.Sprintf("SELECT id FROM %s WHERE name = $1", m.b.table()), m.name).Scan(&rowID)
		if rerr != nil && !errors.Is(rerr, pgx.ErrNoRows) {
			return m.b.redact(rerr)
		}
		// A holder of a workspace without a row holds the creation keys
		// (Terraform's, OpenTofu's or, from plankit, both).
		keys := []int64{rowID}
		if errors.Is(rerr, pgx.ErrNoRows) {
			keys = m.b.creation
		}
		if info == nil {
			for _, key := range keys {
				if h := m.holderOf(ctx, c, key); h != "" {
					return fmt.Errorf("%s is locked by a running process that did not record lock info (Terraform or OpenTofu): %s. Its lock ends when that session ends; if the process is gone, end the session with SELECT pg_terminate_backend(PID)", m.Describe(), h)
				}
			}
			return fmt.Errorf("%s is not locked", m.Describe())
		}
		if info.ID != id {
			return m.lockErr(statemgr.ErrLockIDMismatch, info, "")
		}
		for _, key := range keys {
			var free bool
			if err := c.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&free); err != nil {
				return m.b.redact(err)
			}
			if !free {
				return m.lockErr(fmt.Errorf("%w: the process holding this lock is still connected (%s); its lock ends when it finishes or its session ends", statemgr.ErrLocked, m.holderOf(ctx, c, key)), info, "")
			}
			defer unlockKey(ctx, c, key)
		}
		_, err = c.Exec(ctx, fmt.Sprintf("DELETE FROM %s WHERE name = $1 AND lock_id = $2", m.b.lockTable()), m.name, id)
		return m.b.redact(err)
	})
}

// LockInfo returns the lock info of the current lock on the workspace, or
// nil when plankit's lock info table records none.
func (m *Mgr) LockInfo() (*statemgr.LockInfo, error) {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	var info *statemgr.LockInfo
	err := m.withConn(context.Background(), func(ctx context.Context, c *pgx.Conn) error {
		var err error
		info, err = m.readInfoOn(ctx, c)
		return err
	})
	return info, m.b.redact(err)
}

// LockWithTimeout calls Lock until it succeeds, retrying while a live
// process holds the lock, for up to timeout (zero tries once). A stale lock
// or any other error is returned at once. ctx cancels the wait.
func (m *Mgr) LockWithTimeout(ctx context.Context, info *statemgr.LockInfo, timeout time.Duration) (string, error) {
	return statemgr.RetryLock(ctx, timeout, func() (string, error) { return m.Lock(info) })
}
