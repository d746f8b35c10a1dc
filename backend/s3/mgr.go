package s3

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	version "github.com/hashicorp/go-version"

	"github.com/plankit/plankit/backend"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
	"github.com/plankit/plankit/states/statemgr"
)

// Mgr is one workspace's state manager: the object stateKey(workspace).
// It follows the local manager's rules: the serial increases only when a
// persisted state differs from the last one read or written, and a
// lineage is created on the first persist. All methods are safe for
// concurrent use.
type Mgr struct {
	b    *Backend
	name string
	key  string

	mu        sync.Mutex
	loaded    bool
	file      *statefile.File
	lastBytes []byte
	tfVersion *version.Version

	held *statemgr.LockInfo // the lock this manager holds, nil when none

	codec   statemgr.Codec
	rewrite bool // the stored form is outdated: persist even if unchanged

	journal   *s3Journal
	recovery  *statemgr.Recovery
	recovered uint64 // the last journal record refresh replayed (0: none)
}

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
	m := &Mgr{b: b, name: workspace, key: b.stateKey(workspace), codec: b.codec}
	if workspace == backend.DefaultWorkspace {
		return m, nil
	}
	ok, err := b.exists(ctx, m.key)
	if err != nil {
		return nil, fmt.Errorf("reading workspace %q in %s: %w", workspace, b.describes, err)
	}
	if !ok {
		if err := m.create(ctx); err != nil {
			return nil, err
		}
	}
	return m, nil
}

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

// Describe names the workspace, the object and the server.
func (m *Mgr) Describe() string {
	return fmt.Sprintf("workspace %q in s3://%s/%s at %s", m.name, m.b.cfg.Bucket, m.key, m.b.endpoint)
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

// WriteState replaces the in-memory state (a Snapshot of st is kept).
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

// RefreshState reads the state object again. No object, or an empty one,
// is an empty state with no lineage.
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
	src, _, err := m.b.get(context.Background(), m.key)
	if err != nil {
		return fmt.Errorf("reading the state of %s: %w", m.Describe(), err)
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

// PersistState writes the in-memory state if it changed since the last
// read or write: lineage created if missing, serial increased, the object
// replaced by one PUT. O(size of the state).
func (m *Mgr) PersistState() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.ensureLoaded(); err != nil {
		return err
	}
	w, err := statemgr.PrepareWrite(m.file, m.tfVersion, m.lastBytes)
	if err != nil {
		return err
	}
	if w.Unchanged && !m.rewrite {
		return m.dropRecovered()
	}
	if err := m.putState(w.Data); err != nil {
		return err
	}
	m.rewrite = false
	m.file.Lineage, m.file.Serial, m.file.TerraformVersion = w.Lineage, w.Serial, w.TerraformVersion
	m.lastBytes = w.Data
	return m.dropRecovered()
}

// putState stores data as the workspace's state in one PUT: readers see
// the old object or the new one, never a part. m.mu must be held.
func (m *Mgr) putState(data []byte) error {
	data, err := m.encode(data)
	if err != nil {
		return err
	}
	if err := m.b.put(context.Background(), m.key, data, false); err != nil {
		return fmt.Errorf("writing the state of %s: %w", m.Describe(), err)
	}
	return nil
}

// Import stores f as the workspace's state as is (lineage and serial
// included): `state push`. The caller checks lineage and serial.
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
	if err := m.putState(buf.Bytes()); err != nil {
		return err
	}
	m.file = c.DeepCopy()
	m.loaded = true
	m.recovery, m.recovered = nil, 0
	var lb bytes.Buffer
	if err := statefile.Write(statemgr.WithWriteVersion(m.file, m.tfVersion), &lb); err == nil {
		m.lastBytes = lb.Bytes()
	}
	return nil
}

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
	m.mu.Lock()
	held := m.held
	m.mu.Unlock()
	if held != nil {
		return m.Unlock(held.ID)
	}
	return nil
}

// SetCodec makes the manager store states through c (state encryption;
// nil: as they are). Set it before the first read.
func (m *Mgr) SetCodec(c statemgr.Codec) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.codec = c
}

// NeedsRewrite reports whether the state was read in an outdated stored
// form, so that the next persist writes it again even with no change.
func (m *Mgr) NeedsRewrite() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.rewrite
}

func (m *Mgr) decode(src []byte) ([]byte, error) {
	if m.codec == nil || len(src) == 0 {
		return src, nil
	}
	plain, rewrite, err := m.codec.Decode(src)
	if err != nil {
		return nil, fmt.Errorf("the state of %s: %w", m.Describe(), err)
	}
	m.rewrite = rewrite
	return plain, nil
}

func (m *Mgr) encode(plain []byte) ([]byte, error) {
	if m.codec == nil {
		return plain, nil
	}
	out, err := m.codec.Encode(plain)
	if err != nil {
		return nil, fmt.Errorf("writing the state of %s: %w", m.Describe(), err)
	}
	return out, nil
}
