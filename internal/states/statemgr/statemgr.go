// Package statemgr stores states: the local file manager (Filesystem) with
// its lock, atomic writes, backup and serial/lineage rules; the Journal of
// finished operations that an apply keeps beside the state so that a
// process that dies loses none of them; and the BackgroundPersister that
// journals each change and writes the whole state now and then during
// apply without making the apply quadratic.
//
// Crash guarantees during apply (a BackgroundPersister with a Journal):
//   - an operation is journaled (Begin) before its provider runs, and its
//     result (Record) before the worker goes on: after a SIGKILL, every
//     finished operation is in the state the next run reads, and the ones
//     in flight (at most the parallelism) are named by Recovery;
//   - records survive a killed process at once (write(2)) and an OS crash
//     after the next group-commit fsync;
//   - full writes are atomic (temp file, fsync, rename, directory fsync)
//     and spaced so they take at most about a fifth of the run: the cost is
//     O(size of each object) per operation plus O(state) per full write;
//   - the final write, at every normal end, error or interrupt, stores the
//     complete state (what Terraform and OpenTofu read) and removes the
//     journal.
package statemgr

import "github.com/plankit/plankit/states"

// Reader gives the manager's current in-memory state.
type Reader interface {
	State() *states.State
}

// Writer replaces the manager's in-memory state; nothing is stored until
// PersistState.
type Writer interface {
	WriteState(*states.State) error
}

// Refresher reloads the in-memory state from storage.
type Refresher interface {
	RefreshState() error
}

// Persister stores the in-memory state.
type Persister interface {
	PersistState() error
}

// Locker excludes other processes from the state.
type Locker interface {
	Lock(info *LockInfo) (string, error)
	Unlock(id string) error
}

// Storage is what the BackgroundPersister needs from a manager.
type Storage interface {
	Writer
	Persister
}

// Journaled is a manager that keeps a Journal of the changes an apply made
// since its last full write, and replays a journal left by an apply that
// did not finish whenever it reads its state (ReplayJournal), reporting
// what it found through Recovery until a PersistState stores it. Every
// backend that stores state gives apply these guarantees by implementing
// it; Filesystem does, with files beside the state.
type Journaled interface {
	Journal() (Journal, error)
	Recovery() *Recovery
}

// Full is a complete state manager.
type Full interface {
	Reader
	Writer
	Refresher
	Persister
	Locker
}

var (
	_ Full      = (*Filesystem)(nil)
	_ Journaled = (*Filesystem)(nil)
)
