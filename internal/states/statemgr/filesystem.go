package statemgr

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	version "github.com/hashicorp/go-version"
	"github.com/plankit/plankit/internal/atomicfile"
	"github.com/plankit/plankit/internal/safeio"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// Filesystem is the local state manager: a v4 state file on disk, guarded
// by a lock file beside it, replaced atomically on each persist, with the
// previous snapshot saved once to a backup file.
//
// Rules, as Terraform's local state follows them:
//   - the serial increases only when a persisted state differs from the
//     last one read or written (an unchanged state is not rewritten);
//   - a lineage is created on the first persist of a state that has none;
//   - before the first overwrite in this manager's lifetime the file as read
//     is copied to the backup path (path + ".backup" unless SetBackupPath).
//
// All methods are safe for concurrent use.
type Filesystem struct {
	mu         sync.Mutex
	path       string
	backupPath string
	tfVersion  *version.Version

	loaded    bool
	file      *statefile.File // the transient state with its lineage and serial
	readBytes []byte          // the file as read by the last refresh, for the backup
	lastSum   stateSum        // of our encoding of the last state read or written
	haveLast  bool            // lastSum is set: a state was read or written
	// baseline is the state as read, at the version we would write, while
	// its sum is not computed yet: only a persist needs it, and encoding a
	// large state costs (a plan that only reads it never pays).
	baseline   *statefile.File
	backupDone bool

	lockFile *os.File
	lockInfo *LockInfo
	tookOver *LockInfo // the dead holder the last Lock took over from

	journal   *fileJournal // opened on first use
	recovery  *Recovery    // what refresh replayed from a journal left behind
	recovered JournalMark  // the last segment refresh replayed (0: none)

	codec   Codec // stored form (encryption); see codec.go
	rewrite bool  // the stored form is outdated: persist even if unchanged

	// beforeRename is a test hook run between writing the temporary file
	// and renaming it over the state file.
	beforeRename func() error
}

// NewFilesystem returns a manager for the state file at path. Nothing is
// read until first use.
func NewFilesystem(path string) *Filesystem {
	return &Filesystem{path: path, backupPath: path + ".backup"}
}

// SetBackupPath sets where the previous snapshot is saved; "" disables it.
func (s *Filesystem) SetBackupPath(p string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.backupPath = p
}

// SetTerraformVersion sets the "terraform_version" written to the file
// (statefile.DefaultTerraformVersion when nil). A newer version recorded in
// the file already is kept, so Terraform never sees a downgrade.
func (s *Filesystem) SetTerraformVersion(v *version.Version) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tfVersion = v
}

// Path returns the state file's path.
func (s *Filesystem) Path() string { return s.path }

// BackupPath returns the backup file's path ("" when disabled).
func (s *Filesystem) BackupPath() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.backupPath
}

// State returns a deep copy of the in-memory state. O(size of the state).
func (s *Filesystem) State() *states.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ensureLoaded(); err != nil {
		return nil
	}
	return s.file.State.DeepCopy()
}

// StateFile returns a copy of the in-memory state with its lineage, serial
// and version, as it would be persisted now. The copy is a Snapshot: its
// structure is its own (setters on it do not reach the manager), its
// immutable objects are shared, so a plan of 100,000 stored objects does
// not copy every object's attributes before it starts. O(number of
// objects).
func (s *Filesystem) StateFile() *statefile.File {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ensureLoaded(); err != nil {
		return nil
	}
	f := snapshotFile(s.file)
	f.TerraformVersion = WriteVersion(s.file, s.tfVersion)
	return f
}

// Lineage returns the state's lineage ("" before the first persist of a
// new state).
func (s *Filesystem) Lineage() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ensureLoaded() != nil {
		return ""
	}
	return s.file.Lineage
}

// Serial returns the serial of the last state read or persisted.
func (s *Filesystem) Serial() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ensureLoaded() != nil {
		return 0
	}
	return s.file.Serial
}

// WriteState replaces the in-memory state; PersistState stores it. The
// manager keeps a Snapshot of st: st's objects are shared, not copied, so
// they must not be modified afterwards (see package states). O(number of
// objects).
func (s *Filesystem) WriteState(st *states.State) error {
	return s.WriteSnapshot(st.Snapshot()) // nil stays nil: an empty state
}

// WriteSnapshot is WriteState for a state the caller hands over: the
// manager keeps st itself, not a Snapshot of it, so st must not be
// modified afterwards. The apply's persister writes snapshots it took
// for this; copying each again would double what every full write of a
// large state allocates. O(1).
func (s *Filesystem) WriteSnapshot(st *states.State) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ensureLoaded(); err != nil {
		return err
	}
	if st == nil {
		st = states.NewState()
	}
	s.file.State = st
	return nil
}

// RefreshState reads the state file again, replacing the in-memory state.
// A missing or empty file is an empty state with no lineage and serial 0.
func (s *Filesystem) RefreshState() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refresh()
}

func (s *Filesystem) ensureLoaded() error {
	if s.loaded {
		return nil
	}
	return s.refresh()
}

func (s *Filesystem) refresh() error {
	src, err := safeio.ReadFile(s.path, safeio.StateFileLimit)
	if errors.Is(err, fs.ErrNotExist) {
		src, err = nil, nil
	}
	if err != nil {
		return fmt.Errorf("reading the state file: %w", err) // err names the path
	}
	if src, err = s.decode(src); err != nil {
		return err
	}
	f, err := statefile.Read(bytes.NewReader(src))
	switch {
	case errors.Is(err, statefile.ErrNoState):
		s.file = &statefile.File{State: states.NewState()}
		s.readBytes, s.haveLast, s.baseline = nil, false, nil
	case err != nil:
		return fmt.Errorf("%s: %w", s.path, err)
	default:
		s.file = f
		s.readBytes = src
		// Our encoding of what we read, at the version we would write, is
		// the baseline that tells whether a later state changed anything;
		// its sum stands for it, computed by the first persist.
		s.baseline, s.haveLast = WithWriteVersion(f, s.tfVersion), false
	}
	if err := s.replayJournal(); err != nil {
		return err
	}
	s.loaded = true
	return nil
}

// replayJournal folds a journal left beside the state by an apply that did
// not finish into the in-memory state; the next PersistState writes it and
// removes the journal. O(size of the journal).
func (s *Filesystem) replayJournal() error {
	s.recovery, s.recovered = nil, 0
	j, err := s.openJournal()
	if err != nil {
		return err
	}
	segs, err := j.segments()
	if err != nil || len(segs) == 0 {
		return err
	}
	recs, damaged, err := j.Records()
	if err != nil {
		return err
	}
	if s.baseline != nil && s.baseline.State == s.file.State {
		// Replaying changes the state in place; the baseline is the
		// state as read.
		s.baseline.State = s.file.State.Snapshot()
	}
	rec, err := ReplayJournal(s.file.State, recs)
	if err != nil {
		return fmt.Errorf("%s: the journal of an interrupted apply beside it (%s*) cannot be replayed: %w. The state file itself is intact; move the journal files aside to go on without what they recorded", s.path, filepath.Join(j.dir, j.prefix), err)
	}
	rec.Damaged = damaged
	rec.Journal = filepath.Join(j.dir, j.prefix) + "*"
	s.recovery, s.recovered = rec, JournalMark(segs[len(segs)-1])
	return nil
}

func (s *Filesystem) openJournal() (*fileJournal, error) {
	if s.journal == nil {
		j, err := newFileJournal(s.path)
		if err != nil {
			return nil, fmt.Errorf("the state journal: %w", err)
		}
		// Records hold objects as the state does: an encrypted state has
		// an encrypted journal.
		if !storesClear(s.codec) {
			j.codec = s.codec
		} else if s.codec != nil {
			j.decodeOnly = s.codec
		}
		s.journal = j
	}
	return s.journal, nil
}

// Journal returns the state's journal (see Journal): segment files
// ".NAME.journal.N" beside the state file. Whoever appends to it must
// hold the state lock.
func (s *Filesystem) Journal() (Journal, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.openJournal()
}

// Recovery returns what the last refresh replayed from the journal of an
// apply that did not finish, or nil when there was none. The next
// successful PersistState writes the recovered state and removes that
// journal.
func (s *Filesystem) Recovery() *Recovery {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ensureLoaded() != nil {
		return nil
	}
	return s.recovery
}

// dropRecovered removes the journal segments refresh replayed, once the
// state holding them is stored.
func (s *Filesystem) dropRecovered() error {
	if s.recovered == 0 {
		return nil
	}
	if err := s.journal.Truncate(s.recovered); err != nil {
		return err
	}
	s.recovered = 0
	return nil
}

// PersistState writes the in-memory state to the file if it changed since
// the last read or write: lineage created if missing, serial increased,
// backup saved before the first overwrite, file replaced atomically.
// O(size of the state); unchanged objects are copied from their cached
// encoding. Stored in clear (no codec, or one that stores clear), the
// encoding streams into the new file, so
// the state is never held encoded in memory; whether it changed is known
// from its stateSum once written, and an unchanged one is dropped before
// it replaces anything.
func (s *Filesystem) PersistState() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ensureLoaded(); err != nil {
		return err
	}
	if s.baseline != nil {
		sum, err := sumOf(s.baseline)
		if err != nil {
			return fmt.Errorf("%s: %w", s.path, err)
		}
		s.lastSum, s.haveLast, s.baseline = sum, true, nil
	}
	f := WithWriteVersion(s.file, s.tfVersion)
	if f.Lineage == "" {
		f.Lineage = states.NewLineage()
	}
	// A new state may live in a directory that does not exist yet (-state
	// or a backend "local" path in a new directory, with -lock=false so no
	// lock file created it): create it, as Terraform does, rather than fail
	// after the apply changed real objects.
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return fmt.Errorf("writing the state file: creating its directory: %w", err)
	}
	next := *f
	next.Serial++
	// Folding a journal in always takes the next serial, even when the
	// journal only repeats the file (a kill between the final write and
	// its removal): a plan saved from the recovered state expects it.
	sum, err := s.store(&next, s.recovered == 0)
	if errors.Is(err, errUnchanged) {
		if !s.rewrite {
			return s.dropRecovered()
		}
		// Rewritten in the current stored form, the serial kept.
		next = *f
		sum, err = s.store(&next, false)
	}
	if err != nil {
		return err
	}
	s.rewrite = false
	s.file.Lineage, s.file.Serial, s.file.TerraformVersion = next.Lineage, next.Serial, next.TerraformVersion
	s.lastSum, s.haveLast = sum, true
	return s.dropRecovered()
}

// store replaces the state file with f, saving the backup first when this
// manager has not yet. With unless, a state whose sum is that of the last
// one read or written is not stored: errUnchanged. s.mu is held.
func (s *Filesystem) store(f *statefile.File, unless bool) (stateSum, error) {
	var sum stateSum
	var own error // an error our callbacks return, already described
	mode := fileMode(s.path)
	before := func() error {
		own = s.beforeReplace(mode)
		return own
	}
	var err error
	if storesClear(s.codec) {
		err = atomicfile.Write(s.path, mode, func(w io.Writer) error {
			if sum, own = encodeTo(f, w, s.path); own == nil && unless && s.haveLast && sum == s.lastSum {
				own = errUnchanged
			}
			return own
		}, before)
	} else {
		// Encryption takes the whole plaintext.
		var buf bytes.Buffer
		if sum, err = encodeTo(f, &buf, s.path); err != nil {
			return sum, err
		}
		if unless && s.haveLast && sum == s.lastSum {
			return sum, errUnchanged
		}
		stored, err := s.encode(buf.Bytes())
		if err != nil {
			return sum, err
		}
		err = atomicfile.WriteBytes(s.path, stored, mode, before)
	}
	if err != nil && err != own {
		err = fmt.Errorf("writing the state file: %w", err)
	}
	return sum, err
}

// beforeReplace runs once the new state file is written and synced, before
// it replaces the old one: the first overwrite in this manager's lifetime
// saves the file as read to the backup path first.
func (s *Filesystem) beforeReplace(mode os.FileMode) error {
	if err := s.writeBackup(mode); err != nil {
		return err
	}
	if s.beforeRename != nil {
		return s.beforeRename()
	}
	return nil
}

// writeBackup saves the file as read to the backup path, once in this
// manager's lifetime. s.mu is held.
func (s *Filesystem) writeBackup(mode os.FileMode) error {
	if !s.backupDone && s.backupPath != "" && s.readBytes != nil {
		backup, err := s.encode(s.readBytes)
		if err != nil {
			return err
		}
		if err := atomicfile.WriteBytes(s.backupPath, backup, mode, nil); err != nil {
			return fmt.Errorf("writing the state backup: %w", err)
		}
	}
	s.backupDone = true
	return nil
}

// SaveBackup saves the backup the first overwrite of the state would save,
// now: apply calls it before its walk, so that its first background write
// (which bounds what a tool reading only the state misses after a kill)
// costs one file, not two. A failure is left for that overwrite to report.
func (s *Filesystem) SaveBackup() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ensureLoaded(); err != nil {
		return err
	}
	return s.writeBackup(fileMode(s.path))
}

// fileMode keeps an existing state file's permissions; a new file gets 0644,
// as Terraform's local state does.
func fileMode(path string) os.FileMode {
	if fi, err := os.Stat(path); err == nil {
		return fi.Mode().Perm()
	}
	return 0o644
}

// LockInfoPath returns the lock file's path: ".NAME.lock.info" beside the
// state file (".terraform.tfstate.lock.info"), as Terraform names it.
func (s *Filesystem) LockInfoPath() string {
	dir, base := filepath.Split(s.path)
	return filepath.Join(dir, "."+base+".lock.info")
}

// snapshotFile is f with its state's structure copied and its objects
// shared (states.State.Snapshot), where File.DeepCopy copies every object.
func snapshotFile(f *statefile.File) *statefile.File {
	out := *f
	out.State = f.State.Snapshot()
	if f.CheckResults != nil {
		out.CheckResults = append([]byte(nil), f.CheckResults...)
	}
	return &out
}
