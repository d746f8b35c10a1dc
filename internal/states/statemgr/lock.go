package statemgr

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/user"
	"strings"
	"time"

	uuid "github.com/hashicorp/go-uuid"
)

// LockInfo describes a lock holder. It is stored as JSON in the lock file
// with Terraform's field names (ID, Operation, Info, Who, Version, Created,
// Path), so the holder can be shown to whoever is refused.
type LockInfo struct {
	ID        string    // unique lock ID, given to force-unlock
	Operation string    // e.g. "OperationTypeApply", "OperationTypePlan"
	Info      string    // free text
	Who       string    // user@host
	Version   string    // version of the program holding the lock
	Created   time.Time // when the lock was taken (UTC)
	Path      string    // the state file the lock protects
}

// NewLockInfo returns a LockInfo with a fresh ID, the current user@host and
// the current time; the caller sets Operation, Info and Version.
func NewLockInfo() *LockInfo {
	id, err := uuid.GenerateUUID()
	if err != nil {
		id = fmt.Sprintf("%x", time.Now().UnixNano())
	}
	return &LockInfo{ID: id, Who: whoAmI(), Created: time.Now().UTC()}
}

func whoAmI() string {
	name := "unknown"
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	return name + "@" + host
}

// Marshal returns the lock info JSON.
func (l *LockInfo) Marshal() []byte {
	b, _ := json.Marshal(l)
	return b
}

// String lists the lock info as Terraform shows it when a lock is refused.
func (l *LockInfo) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "  ID:        %s\n", l.ID)
	fmt.Fprintf(&b, "  Path:      %s\n", l.Path)
	fmt.Fprintf(&b, "  Operation: %s\n", l.Operation)
	fmt.Fprintf(&b, "  Who:       %s\n", l.Who)
	fmt.Fprintf(&b, "  Version:   %s\n", l.Version)
	fmt.Fprintf(&b, "  Created:   %s\n", l.Created)
	fmt.Fprintf(&b, "  Info:      %s\n", l.Info)
	return b.String()
}

var (
	// ErrLocked is a LockError's Err when a running process holds the lock.
	ErrLocked = errors.New("the state is locked by another process")
	// ErrStaleLock is a LockError's Err when the lock file was left behind
	// by a process that is no longer running.
	ErrStaleLock = errors.New("the state lock was left behind by a process that is no longer running")
	// ErrLockedElsewhere is a LockError's Err when nobody on this host
	// holds the lock file's flock but its info names another host, where
	// the holder may still be running: on a file system shared between
	// hosts, a free flock does not prove that it is gone.
	ErrLockedElsewhere = errors.New("the state is locked by a process on another host, which plankit cannot check from here")
	// ErrLockIDMismatch is a LockError's Err when Unlock is given an ID that
	// is not the current lock's.
	ErrLockIDMismatch = errors.New("the lock ID does not match the existing lock")
)

// LockError is returned when a lock cannot be taken or released. Info
// describes the current holder when known.
type LockError struct {
	Info *LockInfo
	Err  error
	// State is the state's path as the refused process names it (relative
	// to its working directory), for the force-unlock command; the
	// holder's Info.Path when empty.
	State string
}

// Error explains the failure, the holder and, for a stale lock, the
// command that removes it.
func (e *LockError) Error() string {
	var b strings.Builder
	b.WriteString(e.Err.Error())
	if e.Info != nil {
		b.WriteString("\n\nLock Info:\n")
		b.WriteString(e.Info.String())
		switch {
		case errors.Is(e.Err, ErrStaleLock) && e.Info.ID == "":
			// No ID to give force-unlock: the lock file itself is damaged.
			fmt.Fprintf(&b, "\nNo process holds this lock any more, and its lock file cannot be read. If no other operation is using the state, remove the lock file by hand (it sits beside the state %s).\n", e.Info.Path)
		case errors.Is(e.Err, ErrStaleLock):
			// -force: the command must also work where standard input is not
			// a terminal (CI), where force-unlock cannot ask.
			fmt.Fprintf(&b, "\nNo process holds this lock any more. If no other operation is using the state, remove the lock with:\n  plan force-unlock -force -state=%s %s\n", shellQuote(e.statePath()), e.Info.ID)
		case errors.Is(e.Err, ErrLockedElsewhere):
			fmt.Fprintf(&b, "\nWait for the operation on that host to finish (-lock-timeout waits for it). If the process there is no longer running, remove the lock with:\n  plan force-unlock -force -state=%s %s\n", shellQuote(e.statePath()), e.Info.ID)
		}
	}
	return b.String()
}

func (e *LockError) statePath() string {
	if e.State != "" {
		return e.State
	}
	return e.Info.Path
}

// Unwrap returns Err, so errors.Is(err, ErrLocked) works.
func (e *LockError) Unwrap() error { return e.Err }

// shellQuote quotes s for a POSIX shell when it holds anything but safe
// characters, so the force-unlock command can be pasted as is.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@+,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
