package s3

import (
	"context"
	"fmt"

	"github.com/plankit/plankit/internal/backend"
	"github.com/plankit/plankit/internal/backend/internal/remotestate"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states"
)

// Mgr is one workspace's state manager: the object stateKey(workspace).
// The in-memory state and its rules are remotestate.Core's; Mgr reads and
// writes the object, holds the lock and keeps the journal. All methods are
// safe for concurrent use.
type Mgr struct {
	core // its Mu guards the fields below too

	b    *Backend
	name string
	key  string

	held *statemgr.LockInfo // the lock this manager holds, nil when none

	journal *s3Journal
}

// core is embedded under a lower-case name so that only its methods, not
// its fields, are part of Mgr's API.
type core = remotestate.Core

var (
	_ backend.StateMgr   = (*Mgr)(nil)
	_ statemgr.Journaled = (*Mgr)(nil)
)

// StateMgr returns the manager of a workspace. A workspace other than
// default without a state object gets an empty state, written under the
// lock, so that it is listed from then on (as Terraform does).
func (b *Backend) StateMgr(ctx context.Context, workspace string) (backend.StateMgr, error) {
	return b.stateMgr(ctx, workspace)
}

func (b *Backend) stateMgr(ctx context.Context, workspace string) (*Mgr, error) {
	if err := backend.ValidWorkspaceName(workspace); err != nil {
		return nil, err
	}
	m := &Mgr{b: b, name: workspace, key: b.stateKey(workspace)}
	// A journal that only repeats the object does not take a serial.
	m.Init(s3Store{m}, b.codec)
	if workspace == backend.DefaultWorkspace {
		return m, nil
	}
	ok, err := b.exists(ctx, m.key)
	if err != nil {
		return nil, fmt.Errorf("reading workspace %q in %s: %w", workspace, b.describes, err)
	}
	if !ok {
		if err := m.Create(ctx, workspace, m); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Describe names the workspace, the object and the server.
func (m *Mgr) Describe() string {
	return fmt.Sprintf("workspace %q in s3://%s/%s at %s", m.name, m.b.cfg.Bucket, m.key, m.b.endpoint)
}

// Workspace returns the workspace's name.
func (m *Mgr) Workspace() string { return m.name }

// s3Store is the object of a workspace's state, for remotestate.Core.
type s3Store struct{ m *Mgr }

func (s s3Store) Describe() string { return s.m.Describe() }

func (s s3Store) ReadState() ([]byte, error) {
	src, _, err := s.m.b.get(context.Background(), s.m.key)
	if err != nil {
		return nil, fmt.Errorf("reading the state of %s: %w", s.m.Describe(), err)
	}
	return src, nil
}

// WriteState stores data in one PUT: readers see the old object or the
// new one, never a part.
func (s s3Store) WriteState(data []byte) error {
	if err := s.m.b.put(context.Background(), s.m.key, data, false); err != nil {
		return fmt.Errorf("writing the state of %s: %w", s.m.Describe(), err)
	}
	return nil
}

func (s s3Store) ReplayJournal(st *states.State) (*statemgr.Recovery, int64, error) {
	return s.m.replayJournal(st)
}

func (s s3Store) DropJournal(mark int64) error { return s.m.deleteRecords(uint64(mark)) }

// RawState returns the state object as stored (nil when there is none):
// `state pull`.
func (m *Mgr) RawState() ([]byte, error) {
	data, _, err := m.b.get(context.Background(), m.key)
	if err != nil {
		return nil, fmt.Errorf("reading the state of %s: %w", m.Describe(), err)
	}
	return data, nil
}

// Close releases the lock if held.
func (m *Mgr) Close() error {
	m.Mu.Lock()
	held := m.held
	m.Mu.Unlock()
	if held != nil {
		return m.Unlock(held.ID)
	}
	return nil
}
