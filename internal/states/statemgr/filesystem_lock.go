package statemgr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/safeio"
)

// Lock takes the state lock for this manager and returns its ID.
//
// The lock is the file LockInfoPath() holding info as JSON. It is created
// complete and already flock'ed: the info is written to an exclusively
// created temporary file, which is then hard-linked into place (the link
// fails if a lock file exists). The flock lives as long as this process
// holds the lock, and the kernel drops it when the process dies however it
// dies (SIGKILL, SIGPIPE), so a live holder gives a *LockError with
// ErrLocked. A lock file nobody holds the flock of was left behind by a
// dead process: Lock takes it over (TookOver then names the dead holder,
// for a warning) when that holder ran on this host, where the flock is
// the kernel's own and cannot be missed. It does not when the lock info
// names another host (ErrLockedElsewhere: on a file system shared between
// hosts a free flock does not prove that the other host's process is
// gone), when a Terraform or OpenTofu process holds its own lock (a POSIX
// record lock on the state file, see stateFileLocked), or when the lock
// file cannot be read (ErrStaleLock, to be removed by hand).
func (s *Filesystem) Lock(info *LockInfo) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lockFile != nil {
		return "", &LockError{Info: s.lockInfo, Err: errors.New("this state manager already holds the lock")}
	}
	li := NewLockInfo()
	if info != nil {
		li = copyInfo(info)
	}
	li.Path = s.path
	if li.Created.IsZero() {
		li.Created = time.Now().UTC()
	}
	var f *os.File
	var err error
	s.tookOver = nil
	for range 3 {
		f, err = s.createLockFile(li)
		var le *LockError
		if !errors.As(err, &le) || le.Info != nil {
			break
		}
		// The lock file vanished between our attempt and our probe: try again.
	}
	if err != nil {
		return "", err
	}
	s.lockFile, s.lockInfo = f, li
	s.removeLeftovers()
	return li.ID, nil
}

func copyInfo(info *LockInfo) *LockInfo {
	c := *info
	if c.ID == "" {
		c.ID = NewLockInfo().ID
	}
	if c.Who == "" {
		c.Who = whoAmI()
	}
	return &c
}

func (s *Filesystem) createLockFile(li *LockInfo) (*os.File, error) {
	// A lock file that is a symbolic link is taken where the link points,
	// as every file beside the state is written.
	path, err := atomicfile.Target(s.LockInfoPath())
	if errors.Is(err, atomicfile.ErrNotRegular) {
		// Never opened: a FIFO would block, a device is not ours.
		return nil, fmt.Errorf("%w. If no other operation is using the state, remove the lock file by hand", err)
	}
	if err != nil {
		return nil, fmt.Errorf("creating the lock file: %w", err)
	}
	tmp, _, err := s.lockedTemp(path, li)
	if err != nil {
		return nil, err
	}
	err = os.Link(tmp.Name(), path)
	os.Remove(tmp.Name()) // the inode lives on under path, or not at all
	switch {
	case err == nil:
		return tmp, atomicfile.SyncDir(filepath.Dir(path))
	case errors.Is(err, fs.ErrExist):
		tmp.Close()
		return s.takeOver(path, li)
	}
	// No hard links here (some network and FUSE file systems): fall back to
	// creating the lock file itself with O_EXCL.
	tmp.Close()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return s.takeOver(path, li)
	}
	if err != nil {
		return nil, fmt.Errorf("creating the lock file %s: %w", path, err)
	}
	if _, err := tryFlock(f); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	if _, err := f.Write(li.Marshal()); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("writing the lock file: %w", err)
	}
	return f, f.Sync()
}

// takeOver handles an existing lock file at path: held by a live process
// (its flock is taken) it refuses with ErrLocked; left behind by a dead
// process of this host, it replaces it with a lock file for li and
// returns that file; otherwise it refuses and says why (see Lock). A
// *LockError without Info asks the caller to try again: the lock file
// changed while we looked.
func (s *Filesystem) takeOver(path string, li *LockInfo) (*os.File, error) {
	old, err := safeio.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		// Released between our attempt and now; the caller may retry.
		return nil, &LockError{Err: ErrLocked}
	}
	if err != nil {
		return nil, fmt.Errorf("reading the lock file %s: %w", path, err)
	}
	defer old.Close() // drops the flock taken below, once the new file is in place
	info := s.readLockInfo(old)
	if !flockSupported {
		return nil, &LockError{Info: info, Err: ErrLocked}
	}
	free, err := tryFlock(old)
	if err != nil {
		return nil, &LockError{Info: info, Err: fmt.Errorf("%w (and probing it failed: %v)", ErrLocked, err)}
	}
	if !free {
		return nil, &LockError{Info: info, Err: ErrLocked}
	}
	// Holding the dead holder's flock now, we are the only process that
	// can take this lock file over: any other sees it held. It must still
	// be the file at path (another process may have taken over or
	// released the lock between our open and our flock).
	if cur, err := os.Stat(path); err != nil {
		return nil, &LockError{Err: ErrLocked}
	} else if st, err := old.Stat(); err != nil || !os.SameFile(st, cur) {
		return nil, &LockError{Err: ErrLocked}
	}
	// Terraform and OpenTofu lock the state file itself and only describe
	// themselves in the lock file.
	if locked, err := stateFileLocked(s.path); err != nil {
		return nil, &LockError{Info: info, Err: fmt.Errorf("%w (and checking the state file %s for a Terraform or OpenTofu lock failed: %v)", ErrLocked, s.path, err)}
	} else if locked {
		return nil, &LockError{Info: info, Err: ErrLocked}
	}
	if info.ID == "" {
		return nil, &LockError{Info: info, Err: ErrStaleLock, State: s.path}
	}
	if host := lockHost(info.Who); host == "" || host != lockHost(whoAmI()) {
		return nil, &LockError{Info: info, Err: ErrLockedElsewhere, State: s.path}
	}
	tmp, fail, err := s.lockedTemp(path, li)
	if err != nil {
		return nil, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fail(fmt.Errorf("replacing the stale lock file %s: %w", path, err))
	}
	s.tookOver = info
	return tmp, atomicfile.SyncDir(filepath.Dir(path))
}

// lockHost is the host part of a lock info's Who (user@host); "" when
// there is none or it is "unknown", which matches no host.
func lockHost(who string) string {
	i := strings.LastIndexByte(who, '@')
	if i < 0 || who[i+1:] == "unknown" {
		return ""
	}
	return who[i+1:]
}

// TookOver returns the info of the dead process whose lock the last Lock
// took over, or nil when the lock was free, for the caller to warn that
// the process ended without releasing it.
func (s *Filesystem) TookOver() *LockInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tookOver
}

// lockInfoLimit bounds what is read of a lock file: a real one is a few
// hundred bytes of JSON, so anything larger is unreadable, not a reason to
// read gigabytes.
const lockInfoLimit = 1 << 20

// readLockInfo reads the holder's info from the open lock file f (the
// inode that was opened, not whatever the name points at by now). An
// unreadable one gives info with no ID, naming the state (as every
// LockInfo's Path does) and, in Info, the lock file.
func (s *Filesystem) readLockInfo(f *os.File) *LockInfo {
	var info LockInfo
	data, err := safeio.ReadAll(f, f.Name(), lockInfoLimit)
	if err != nil || json.Unmarshal(data, &info) != nil {
		return &LockInfo{Path: s.path, Info: "the lock file " + f.Name() + " is unreadable"}
	}
	return &info
}

// Unlock releases the lock with the given ID. Called on a manager that does
// not hold it, it removes another holder's (for example a stale) lock file
// when id matches: that is force-unlock.
func (s *Filesystem) Unlock(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	path, err := atomicfile.Target(s.LockInfoPath())
	if err != nil {
		return fmt.Errorf("removing the lock file: %w", err)
	}
	if s.lockFile != nil {
		if id != s.lockInfo.ID {
			return &LockError{Info: s.lockInfo, Err: ErrLockIDMismatch}
		}
		err := os.Remove(path)
		_ = unflock(s.lockFile)
		s.lockFile.Close()
		s.lockFile, s.lockInfo = nil, nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing the lock file %s: %w", path, err)
		}
		return nil
	}
	f, err := safeio.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("the state %s is not locked (no %s)", s.path, path)
	}
	if err != nil {
		return fmt.Errorf("reading the lock file %s: %w", path, err)
	}
	info := s.readLockInfo(f)
	f.Close()
	if info.ID != id {
		return &LockError{Info: info, Err: ErrLockIDMismatch}
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("removing the lock file %s: %w", path, err)
	}
	return nil
}

// LockWithTimeout calls Lock until it succeeds, retrying while a live
// process holds the lock, for up to timeout (the -lock-timeout flag; zero
// tries once). An unreadable stale lock or any other error is returned at
// once: waiting would not help. ctx cancels the wait.
func (s *Filesystem) LockWithTimeout(ctx context.Context, info *LockInfo, timeout time.Duration) (string, error) {
	if info == nil {
		info = NewLockInfo()
	}
	return RetryLock(ctx, timeout, func() (string, error) { return s.Lock(info) })
}

// RetryLock calls lock until it succeeds, retrying while it reports
// ErrLocked (a live holder) or ErrLockedElsewhere, with doubling waits up to 2 s, for up to
// timeout (zero tries once). Any other error is returned at once; ctx
// cancels the wait. Every backend's LockWithTimeout is this loop.
func RetryLock(ctx context.Context, timeout time.Duration, lock func() (string, error)) (string, error) {
	deadline := time.Now().Add(timeout)
	delay := 50 * time.Millisecond
	for {
		id, err := lock()
		if err == nil || !errors.Is(err, ErrLocked) && !errors.Is(err, ErrLockedElsewhere) {
			return id, err
		}
		remaining := time.Until(deadline)
		if remaining <= 0 {
			return "", err
		}
		t := time.NewTimer(min(delay, remaining))
		select {
		case <-ctx.Done():
			t.Stop()
			return "", fmt.Errorf("waiting for the state lock: %w (last attempt: %v)", ctx.Err(), err)
		case <-t.C:
		}
		delay = min(delay*2, 2*time.Second)
	}
}

// lockedTemp creates, beside path, a new file holding li, flocked and
// synced, ready to be linked or renamed to path; fail closes and removes
// it and returns err.
func (s *Filesystem) lockedTemp(path string, li *LockInfo) (*os.File, func(error) (*os.File, error), error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, base+".tmp-*") // O_EXCL
	if err != nil {
		return nil, nil, fmt.Errorf("creating the lock file beside %s: %w", s.path, err)
	}
	fail := func(err error) (*os.File, error) {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	if ok, err := tryFlock(tmp); err != nil || !ok {
		_, err = fail(fmt.Errorf("locking %s: %v", tmp.Name(), err))
		return nil, nil, err
	}
	for _, step := range []func() error{func() error { _, err := tmp.Write(li.Marshal()); return err }, tmp.Sync} {
		if err := step(); err != nil {
			_, err = fail(fmt.Errorf("writing the lock file: %w", err))
			return nil, nil, err
		}
	}
	return tmp, fail, nil
}
