package s3

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/plankit/plankit/internal/backend/internal/remotestate"
	"github.com/plankit/plankit/internal/states/statemgr"
)

// LockError is a refused lock or unlock. It unwraps to the
// *statemgr.LockError (errors.Is(err, statemgr.ErrLocked) works), with
// advice that fits a lock object: S3 cannot tell whether its holder still
// runs, so a lock left by a process that died stays until force-unlock.
type LockError struct {
	*statemgr.LockError
	Workspace string
	Object    string // s3://BUCKET/KEY.tflock
}

func (e *LockError) Error() string {
	var unlock string
	if errors.Is(e.Err, statemgr.ErrLocked) {
		unlock = fmt.Sprintf("The lock is the object %s. Wait for that operation to finish (-lock-timeout waits for it). If the process holding it is no longer running", e.Object)
	}
	return remotestate.LockMessage(e.LockError, e.Workspace, "", unlock)
}

func (e *LockError) Unwrap() error { return e.LockError }

func (m *Mgr) lockKey() string { return m.key + lockSuffix }

func (m *Mgr) lockErr(err error, info *statemgr.LockInfo) error {
	return &LockError{LockError: &statemgr.LockError{Info: info, Err: err}, Workspace: m.name, Object: fmt.Sprintf("s3://%s/%s", m.b.cfg.Bucket, m.lockKey())}
}

// Lock creates the lock object STATE.tflock by a conditional PUT holding
// the lock info, as Terraform and OpenTofu do with use_lockfile. An
// existing lock object gives ErrLocked naming its holder. Without
// use_lockfile nothing is locked (Terraform's behaviour) and Lock returns
// an ID all the same.
func (m *Mgr) Lock(info *statemgr.LockInfo) (string, error) {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	if m.held != nil {
		return "", m.lockErr(errors.New("this state manager already holds the lock"), m.held)
	}
	li := remotestate.LockInfo(info)
	li.Path = m.b.cfg.Bucket + "/" + m.key // Terraform records bucket/key
	if !m.b.cfg.UseLockfile {
		m.held = li
		return li.ID, nil
	}
	ctx := context.Background()
	if err := m.b.Probe(ctx); err != nil {
		return "", err
	}
	data, err := json.Marshal(li)
	if err != nil {
		return "", err
	}
	err = m.b.put(ctx, m.lockKey(), data, true)
	if isPreconditionFailed(err) {
		holder, rerr := m.readInfo(ctx)
		if rerr != nil {
			holder = &statemgr.LockInfo{Info: fmt.Sprintf("the lock object could not be read: %v", rerr)}
		} else if holder == nil {
			// Removed between the PUT and the GET: the next try may win.
			holder = &statemgr.LockInfo{Info: "the lock was released while it was being read"}
		}
		return "", m.lockErr(fmt.Errorf("%w: %s", statemgr.ErrLocked, m.Describe()), holder)
	}
	if err != nil {
		return "", fmt.Errorf("locking %s: %w", m.Describe(), err)
	}
	m.held = li
	return li.ID, nil
}

// readInfo reads the lock object (nil when there is none).
func (m *Mgr) readInfo(ctx context.Context) (*statemgr.LockInfo, error) {
	data, ok, err := m.b.get(ctx, m.lockKey())
	if err != nil || !ok {
		return nil, err
	}
	var info statemgr.LockInfo
	if err := json.Unmarshal(data, &info); err != nil {
		return &statemgr.LockInfo{Info: fmt.Sprintf("the lock object s3://%s/%s is not lock info JSON: %v", m.b.cfg.Bucket, m.lockKey(), err)}, nil
	}
	return &info, nil
}

// LockInfo returns the current lock object's info, or nil when unlocked.
func (m *Mgr) LockInfo() (*statemgr.LockInfo, error) {
	if !m.b.cfg.UseLockfile {
		return nil, nil
	}
	info, err := m.readInfo(context.Background())
	if err != nil {
		return nil, fmt.Errorf("reading the lock of %s: %w", m.Describe(), err)
	}
	return info, nil
}

// Unlock removes the lock object when it holds the lock with the given
// ID. Called on a manager that does not hold it, it is force-unlock: the
// lock object is removed when its ID is the one given (S3 cannot tell
// whether its holder still runs; the user says so).
func (m *Mgr) Unlock(id string) error {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	if m.held != nil && m.held.ID != id {
		return m.lockErr(statemgr.ErrLockIDMismatch, m.held)
	}
	if !m.b.cfg.UseLockfile {
		if m.held == nil {
			return fmt.Errorf("%s is not locked: its s3 backend has no use_lockfile, so nothing locks it", m.Describe())
		}
		m.held = nil
		return nil
	}
	ctx := context.Background()
	info, err := m.readInfo(ctx)
	if err != nil {
		return fmt.Errorf("unlocking %s: reading the lock object: %w", m.Describe(), err)
	}
	if info == nil {
		if m.held != nil {
			m.held = nil
			return fmt.Errorf("unlocking %s: the lock object s3://%s/%s is gone: something removed the lock while this run held it (plan force-unlock from elsewhere?)", m.Describe(), m.b.cfg.Bucket, m.lockKey())
		}
		return fmt.Errorf("%s is not locked", m.Describe())
	}
	if info.ID != id {
		return m.lockErr(statemgr.ErrLockIDMismatch, info)
	}
	if err := m.b.delete(ctx, m.lockKey()); err != nil {
		return fmt.Errorf("unlocking %s: %w", m.Describe(), err)
	}
	m.held = nil
	return nil
}

// LockWithTimeout calls Lock until it succeeds, retrying while another
// process holds the lock, for up to timeout (zero tries once).
func (m *Mgr) LockWithTimeout(ctx context.Context, info *statemgr.LockInfo, timeout time.Duration) (string, error) {
	return statemgr.RetryLock(ctx, timeout, func() (string, error) { return m.Lock(info) })
}
