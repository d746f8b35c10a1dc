// Package remotestate is the part of a remote backend's state manager that
// does not depend on where the state is stored: the in-memory state, the
// serial and lineage rules, the stored form (statemgr.Codec) and the
// replay of an interrupted apply's journal. A backend (pg, s3) embeds a
// Core and gives it a Store that reads and writes one workspace's bytes.
package remotestate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	version "github.com/hashicorp/go-version"

	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// Store is one workspace's storage. Core calls it with Core.Mu held. Its
// errors are complete: they name the workspace (and are redacted where
// the backend needs it), Core does not wrap them again.
type Store interface {
	// Describe names the workspace and where it is stored.
	Describe() string
	// ReadState returns the state as stored, nil when there is none.
	ReadState() ([]byte, error)
	// WriteState replaces the stored state by data, whole or not at all.
	WriteState(data []byte) error
	// ReplayJournal folds the records an apply that did not finish left
	// into st and returns what it replayed and a mark for DropJournal
	// (nil and 0 when there was nothing).
	ReplayJournal(st *states.State) (*statemgr.Recovery, int64, error)
	// DropJournal deletes the records up to mark, once the state holding
	// them is stored.
	DropJournal(mark int64) error
}

// Core is one workspace's in-memory state. It follows the local manager's
// rules: the serial increases only when a persisted state differs from the
// last one read or written, and a lineage is created on the first
// persist. Its methods are safe for concurrent use.
type Core struct {
	// Mu guards Core and the backend's own fields of the manager (the
	// lock held, the connection...): one mutex, so that a persist never
	// runs beside a lock change.
	Mu sync.Mutex

	store     Store
	loaded    bool
	file      *statefile.File
	lastBytes []byte
	tfVersion *version.Version

	codec   statemgr.Codec // stored form (encryption)
	rewrite bool           // the stored form is outdated: persist even if unchanged

	recovery  *statemgr.Recovery // what refresh replayed from a journal left behind
	recovered int64              // the mark of the last record refresh replayed (0: none)
}

// Init sets the store and the codec the manager starts with.
func (c *Core) Init(s Store, codec statemgr.Codec) {
	c.store, c.codec = s, codec
}

// SetTerraformVersion sets the "terraform_version" written (a newer one
// already recorded is kept).
func (c *Core) SetTerraformVersion(v *version.Version) {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	c.tfVersion = v
}

// State returns a deep copy of the in-memory state.
func (c *Core) State() *states.State {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	if c.EnsureLoaded() != nil {
		return nil
	}
	return c.file.State.DeepCopy()
}

// StateFile returns a copy of the in-memory state with its lineage, serial
// and version.
func (c *Core) StateFile() *statefile.File {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	if c.EnsureLoaded() != nil {
		return nil
	}
	f := c.file.DeepCopy()
	f.TerraformVersion = statemgr.WriteVersion(c.file, c.tfVersion)
	return f
}

// WriteState replaces the in-memory state (a Snapshot of st is kept; st's
// objects must not be modified afterwards).
func (c *Core) WriteState(st *states.State) error {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	if err := c.EnsureLoaded(); err != nil {
		return err
	}
	if st == nil {
		st = states.NewState()
	}
	c.file.State = st.Snapshot()
	return nil
}

// RefreshState reads the stored state again. None, or an empty one, is an
// empty state with no lineage.
func (c *Core) RefreshState() error {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return c.refresh()
}

// EnsureLoaded reads the stored state unless it was read. c.Mu must be
// held.
func (c *Core) EnsureLoaded() error {
	if c.loaded {
		return nil
	}
	return c.refresh()
}

// File returns the in-memory state itself, for the backend to change in
// place. c.Mu must be held and EnsureLoaded must have succeeded.
func (c *Core) File() *statefile.File { return c.file }

// Codec returns the codec states are stored through. c.Mu must be held.
func (c *Core) Codec() statemgr.Codec { return c.codec }

func (c *Core) refresh() error {
	src, err := c.store.ReadState()
	if err != nil {
		return err
	}
	if src, err = c.decode(src); err != nil {
		return err
	}
	f, err := statefile.Read(bytes.NewReader(src))
	switch {
	case errors.Is(err, statefile.ErrNoState):
		c.file = &statefile.File{State: states.NewState()}
		c.lastBytes = nil
	case err != nil:
		return fmt.Errorf("the state of %s: %w", c.store.Describe(), err)
	default:
		c.file = f
		var buf bytes.Buffer
		if err := statefile.Write(statemgr.WithWriteVersion(f, c.tfVersion), &buf); err != nil {
			return fmt.Errorf("the state of %s: %w", c.store.Describe(), err)
		}
		c.lastBytes = buf.Bytes()
	}
	c.recovery, c.recovered = nil, 0
	rec, mark, err := c.store.ReplayJournal(c.file.State)
	if err != nil {
		return err
	}
	c.recovery, c.recovered = rec, mark
	c.loaded = true
	return nil
}

// PersistState stores the in-memory state if it changed since the last
// read or write: lineage created if missing, serial increased, the stored
// state replaced whole. O(size of the state).
func (c *Core) PersistState() error {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	if err := c.EnsureLoaded(); err != nil {
		return err
	}
	last := c.lastBytes
	if c.recovered != 0 {
		// Folding a journal in always takes the next serial, even when the
		// journal only repeats the stored state: a plan saved from the
		// recovered state expects it.
		last = nil
	}
	w, err := statemgr.PrepareWrite(c.file, c.tfVersion, last)
	if err != nil {
		return err
	}
	if w.Unchanged && !c.rewrite { // a rewrite in the current stored form keeps the serial
		return c.dropRecovered()
	}
	if err := c.put(w.Data); err != nil {
		return err
	}
	c.rewrite = false
	c.file.Lineage, c.file.Serial, c.file.TerraformVersion = w.Lineage, w.Serial, w.TerraformVersion
	c.lastBytes = w.Data
	return c.dropRecovered()
}

// put stores data, encoded, as the workspace's state. c.Mu must be held.
func (c *Core) put(data []byte) error {
	data, err := c.encode(data)
	if err != nil {
		return err
	}
	return c.store.WriteState(data)
}

// dropRecovered deletes the records refresh replayed, once the state
// holding them is stored. c.Mu must be held.
func (c *Core) dropRecovered() error {
	if c.recovered == 0 {
		return nil
	}
	if err := c.store.DropJournal(c.recovered); err != nil {
		return err
	}
	c.recovered = 0
	return nil
}

// Import stores f as the workspace's state as is (lineage and serial
// included): `state push`. The caller checks lineage and serial. The
// in-memory state becomes f.
func (c *Core) Import(f *statefile.File) error {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	var buf bytes.Buffer
	cp := *f
	if cp.State == nil {
		cp.State = states.NewState()
	}
	if err := statefile.Write(&cp, &buf); err != nil {
		return fmt.Errorf("encoding the state: %w", err)
	}
	if err := c.put(buf.Bytes()); err != nil {
		return err
	}
	c.file = cp.DeepCopy()
	c.loaded = true
	c.recovery, c.recovered = nil, 0 // the caller removes a journal the import replaces
	var lb bytes.Buffer
	if err := statefile.Write(statemgr.WithWriteVersion(c.file, c.tfVersion), &lb); err == nil {
		c.lastBytes = lb.Bytes()
	}
	return nil
}

// Recovery returns what the last refresh replayed from the journal of an
// apply that did not finish, or nil when there was none. The next
// successful PersistState writes the recovered state and drops the
// records replayed.
func (c *Core) Recovery() *statemgr.Recovery {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	if c.EnsureLoaded() != nil {
		return nil
	}
	return c.recovery
}

// SetCodec makes the manager store states through codec (state
// encryption; nil: as they are), as statemgr.Filesystem.SetCodec does.
// Set it before the first read.
func (c *Core) SetCodec(codec statemgr.Codec) {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	c.codec = codec
}

// NeedsRewrite reports whether the state was read in an outdated stored
// form (statemgr.Codec), so that the next persist writes it again even
// with no change.
func (c *Core) NeedsRewrite() bool {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return c.rewrite
}

func (c *Core) decode(src []byte) ([]byte, error) {
	if c.codec == nil || len(src) == 0 {
		return src, nil
	}
	plain, rewrite, err := c.codec.Decode(src)
	if err != nil {
		return nil, fmt.Errorf("the state of %s: %w", c.store.Describe(), err)
	}
	c.rewrite = rewrite
	return plain, nil
}

func (c *Core) encode(plain []byte) ([]byte, error) {
	if c.codec == nil {
		return plain, nil
	}
	out, err := c.codec.Encode(plain)
	if err != nil {
		return nil, fmt.Errorf("writing the state of %s: %w", c.store.Describe(), err)
	}
	return out, nil
}

// Locker is the backend's state lock.
type Locker interface {
	LockWithTimeout(ctx context.Context, info *statemgr.LockInfo, timeout time.Duration) (string, error)
	Unlock(id string) error
}

// Create writes an empty state for workspace name, which has none stored,
// under l's lock; another process creating it at the same time is waited
// for briefly.
func (c *Core) Create(ctx context.Context, name string, l Locker) error {
	info := statemgr.NewLockInfo()
	info.Operation = "init"
	id, err := l.LockWithTimeout(ctx, info, 10*time.Second)
	if err != nil {
		return fmt.Errorf("creating workspace %q: %w", name, err)
	}
	var perr error
	if err := c.RefreshState(); err != nil {
		perr = err
	} else if c.file.Lineage == "" {
		perr = c.PersistState()
	}
	uerr := l.Unlock(id)
	if perr != nil {
		return fmt.Errorf("creating workspace %q: %w", name, perr)
	}
	return uerr
}

// LockInfo returns the lock info to record for a Lock given info (nil:
// none): a copy, with an ID, a holder and a creation time.
func LockInfo(info *statemgr.LockInfo) *statemgr.LockInfo {
	li := statemgr.NewLockInfo()
	if info != nil {
		c := *info
		li = &c
		if li.ID == "" {
			li.ID = statemgr.NewLockInfo().ID
		}
		if li.Who == "" {
			li.Who = statemgr.NewLockInfo().Who
		}
	}
	if li.Created.IsZero() {
		li.Created = time.Now().UTC()
	}
	return li
}

// EncodeRecord returns a journal record in its stored form: through the
// state's codec, so that an encrypted state's journal is encrypted too.
func EncodeRecord(codec statemgr.Codec, rec []byte) ([]byte, error) {
	if codec == nil {
		return rec, nil
	}
	enc, err := codec.Encode(rec)
	if err != nil {
		return nil, fmt.Errorf("writing the state journal: %w", err)
	}
	return enc, nil
}

// LockMessage is the text of a backend's refused lock: the error, the
// holder's lock info, the backend's notes, and, when unlock is not empty
// and the holder's lock ID is known, unlock's advice leading to the
// force-unlock command (with the workspace to select, when it is not the
// default one).
func LockMessage(e *statemgr.LockError, workspace, notes, unlock string) string {
	var b strings.Builder
	b.WriteString(e.Err.Error())
	if e.Info != nil {
		b.WriteString("\n\nLock Info:\n")
		b.WriteString(e.Info.String())
	}
	b.WriteString(notes)
	if unlock != "" && e.Info != nil && e.Info.ID != "" {
		fmt.Fprintf(&b, "\n%s, remove the lock with:\n  plan force-unlock -force %s\n", unlock, e.Info.ID)
		if workspace != "" && workspace != "default" {
			fmt.Fprintf(&b, "(with workspace %q selected, or TF_WORKSPACE=%s)\n", workspace, workspace)
		}
	}
	return b.String()
}
