// Package statemgr stores states: the local file manager (Filesystem) with
// its lock, atomic writes, backup and serial/lineage rules, and the
// BackgroundPersister that writes a state repeatedly during apply without
// making the apply quadratic.
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
