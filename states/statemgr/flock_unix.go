//go:build unix

package statemgr

import (
	"errors"
	"os"
	"syscall"
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
