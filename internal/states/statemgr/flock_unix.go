//go:build unix

package statemgr

import (
	"errors"
	"os"
	"syscall"

	"github.com/plankit/plankit/internal/safeio"
)

// flockSupported says whether this platform can tell a live lock holder
// from a dead one.
const flockSupported = true

// tryFlock takes an exclusive advisory lock on f without blocking. The
// kernel drops it when the process dies, which is how a stale lock file is
// told apart from a live one. It reports false when another process holds it.
func tryFlock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

func unflock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}

// stateFileLocked says whether another process holds a POSIX record lock
// on the state file at path: that is the lock Terraform and OpenTofu take
// (their lock file only describes the holder). F_GETLK only asks, so
// nothing is taken; a missing state file has no holder.
func stateFileLocked(path string) (bool, error) {
	f, err := safeio.Open(path) // never blocks on a FIFO
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	lk := syscall.Flock_t{Type: syscall.F_WRLCK}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk); err != nil {
		return false, err
	}
	return lk.Type != syscall.F_UNLCK, nil
}
