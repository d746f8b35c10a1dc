package operation

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/tfdiags"
)

// StateSaver is the apply's terraform.StateWriter: a BackgroundPersister
// over the state manager with the manager's journal. Every finished
// operation is in the journal before the walk goes on, full writes of the
// state follow in the background, and the final write removes the
// journal; a process that dies loses no finished operation, and the next
// run names those in flight (recoverJournal). The saver also keeps the
// last snapshot written, so that a second Ctrl-C, or a core that gives up
// without a final state, still has a state to save. Its mutex serialises
// writes between the persister, the final write and the second Ctrl-C.
type StateSaver struct {
	mu      sync.Mutex
	mgr     SavedState
	last    *states.State
	pending *states.State // handed over by the persister, not yet written
	wd      string
	spath   string // where the state lives, for messages
	remote  bool   // the state is in a remote backend: recover with state push
	dump    io.Writer
	codec   statemgr.Codec // a local recovery copy is encrypted as the state is

	p          *statemgr.BackgroundPersister
	journalErr error             // the journal could not be opened (writes go on without it)
	live       *states.SyncState // the core's live state, from Start until Close
	// closed is the live state as Close found it (final, by the
	// StateWriter contract) when Close's write of it succeeded: a final
	// state that is this very state needs no second write, whose encoding
	// (a whole large state) would only find it unchanged.
	closed *states.State
}

// NewStateSaver returns the saver apply persists through: the state goes
// to mgr, which messages name spath; wd is where a recovery copy goes when mgr cannot be written (dump
// when no file can be written either), remote says the state is in a
// remote backend (a recovery copy is then pushed back with state push),
// and codec encrypts a recovery copy as the state is.
func NewStateSaver(mgr SavedState, spath, wd string, remote bool, dump io.Writer, codec statemgr.Codec) *StateSaver {
	return &StateSaver{mgr: mgr, wd: wd, spath: spath, remote: remote, dump: dump, codec: codec}
}

// Mgr is the state manager the saver writes through.
func (s *StateSaver) Mgr() SavedState { return s.mgr }

var (
	_ terraform.StateWriter        = (*StateSaver)(nil)
	_ terraform.ProvisionersWriter = (*StateSaver)(nil)
)

// checkpointBytes is the journal growth that makes a full write of the
// state due during an apply (see statemgr.PersisterOptions).
const checkpointBytes = 4 << 20

// The bound on how far the state file itself lags the journal during an
// apply (statemgr.PersisterOptions.LagChanges, LagInterval): Terraform,
// OpenTofu and any tool that ignores the journal read only the file, so
// after a kill they miss what it lacks. Terraform itself persists every
// 20 seconds during an apply; these bound the lag by count as well, and
// the persister's gap (GapFactor, 4, times the last write) keeps the
// extra writes of a large state amortised: at most about a fifth of the
// apply's time.
const (
	stateLagChanges  = 100
	stateLagInterval = 5 * time.Second
)

// Start starts the persister on the live state, with the manager's
// journal when it keeps one (statemgr.Journaled: the local state does). A
// state is written at once when none is stored yet, so a state exists
// from the first object on, for Terraform and OpenTofu too.
func (s *StateSaver) Start(live *states.SyncState) {
	var j statemgr.Journal
	// With state encryption the journal's records go through the same
	// codec (one key derivation per run; see encryption.Target).
	if jm, ok := s.mgr.(statemgr.Journaled); ok {
		var err error
		if j, err = jm.Journal(); err != nil {
			s.journalErr = err
			j = nil
		}
	}
	// With the journal holding every change, full writes are spaced by its
	// growth (statemgr.PersisterOptions.CheckpointBytes) and by the bound
	// on the state file's lag behind it.
	s.p = statemgr.NewBackgroundPersister(s, statemgr.PersisterOptions{Source: live, Journal: j, CheckpointBytes: checkpointBytes,
		LagChanges: stateLagChanges, LagInterval: stateLagInterval})
	s.mu.Lock()
	s.live = live
	s.mu.Unlock()
	if sf := s.mgr.StateFile(); sf == nil || sf.Lineage == "" {
		s.p.MarkDirty()
		_ = s.p.Flush() // a failure shows again, and is reported, at Close
	} else if b, ok := s.mgr.(interface{ SaveBackup() error }); ok {
		// The first background write then replaces one file, not two.
		_ = b.SaveBackup()
	}
}

// Begin records the start of an operation on addr. A journal that cannot
// be written does not stop the apply, as a state that cannot be written
// does not: the operation goes on, the final write (or the recovery file)
// keeps its result, and saveFinal warns that the journal failed.
func (s *StateSaver) Begin(addr addrs.AbsResourceInstance, dk addrs.DeposedKey, action plans.Action) error {
	_ = s.p.Begin(addr, describeAction(action, dk))
	return nil
}

// BeginProvisioners records that addr's object is created and its
// provisioners are starting: a journal that ends here (the process died)
// replays it tainted (statemgr.ProvisionersAction).
func (s *StateSaver) BeginProvisioners(addr addrs.AbsResourceInstance, action plans.Action) error {
	_ = s.p.Begin(addr, statemgr.ProvisionersAction(describeAction(action, addrs.NotDeposed)))
	return nil
}

// Changed records addr's objects (in the journal, before it returns).
func (s *StateSaver) Changed(addr addrs.AbsResourceInstance) { _ = s.p.Record(addr) }

// End records the end of the operation on addr.
func (s *StateSaver) End(addr addrs.AbsResourceInstance) { _ = s.p.End(addr) }

// Close makes the final write; the journal is removed once it succeeded.
func (s *StateSaver) Close() error {
	// The core closes the live state after this returns: flushLast must
	// not snapshot it any more.
	s.mu.Lock()
	live := s.live
	s.live = nil
	s.mu.Unlock()
	s.p.MarkDirty() // the outputs, written after the last instance
	s.p.SourceFinal()
	err := s.p.Close()
	if err == nil && live != nil {
		st := live.Lock()
		live.Unlock()
		s.mu.Lock()
		s.closed = st
		s.mu.Unlock()
	}
	return err
}

// describeAction names an operation for the in-flight list.
func describeAction(a plans.Action, dk addrs.DeposedKey) string {
	switch a {
	case plans.Create:
		return "create"
	case plans.Update:
		return "update"
	case plans.DeleteThenCreate, plans.CreateThenDelete:
		return "replace"
	case plans.Delete:
		if dk != addrs.NotDeposed {
			return "destroy of deposed object " + dk.String()
		}
		return "destroy"
	case plans.Forget:
		return "forget"
	}
	return a.String()
}

// WriteState and PersistState make the saver the persister's storage:
// each full write goes through write, under the saver's mutex.
func (s *StateSaver) WriteState(st *states.State) error {
	s.mu.Lock()
	s.pending = st
	s.mu.Unlock()
	return nil
}

func (s *StateSaver) PersistState() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.pending
	s.pending = nil
	if st == nil {
		return nil
	}
	return s.write(st)
}

// write records st as the last snapshot and writes it. s.mu must be held.
// Every st written here is left alone afterwards (a snapshot, or the
// final state), so a manager that can keep it as it is does (see
// statemgr.Filesystem.WriteSnapshot).
func (s *StateSaver) write(st *states.State) error {
	s.last = st
	var err error
	if ws, ok := s.mgr.(snapshotWriter); ok {
		err = ws.WriteSnapshot(st)
	} else {
		err = s.mgr.WriteState(st)
	}
	if err != nil {
		return err
	}
	return s.mgr.PersistState()
}

// snapshotWriter is a manager that can take a state without copying it.
type snapshotWriter interface {
	WriteSnapshot(*states.State) error
}

// lastSnapshot is the last state written, or nil.
func (s *StateSaver) lastSnapshot() *states.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// flushLast writes the live state as it is now (the second Ctrl-C), or
// the last snapshot written when the walk is over, and when that fails
// saves a recovery copy; it returns what to report. The journal stays: the
// next run folds it in and names the operations the exit cut short.
func (s *StateSaver) FlushLast() hcl.Diagnostics {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.live != nil {
		// Close waits for s.mu, so the core cannot close it meanwhile.
		s.last = s.live.Snapshot()
	}
	if s.last == nil {
		return nil
	}
	if err := s.write(s.last); err != nil {
		return s.saveRecovery(s.last, err)
	}
	return nil
}

// saveRecovery reports that writing st failed with err and saves st to a
// recovery file (or prints it), returning the diagnostics that say where.
func (s *StateSaver) saveRecovery(st *states.State, err error) hcl.Diagnostics {
	if s.remote {
		return append(hcl.Diagnostics{StateWriteFailed(s.spath, err)}, SaveErroredRemote(s.wd, s.spath, s.mgr.StateFile(), st, s.dump, s.codec)...)
	}
	return append(hcl.Diagnostics{StateWriteFailed(s.spath, err)}, SaveErroredStateCodec(s.wd, s.spath, s.mgr.StateFile(), st, s.dump, s.codec)...)
}

// saveFinal writes the state the apply ended with and returns it; when
// the core gave up without one, it writes and returns the last snapshot
// persisted along the way, so a failed write of that is not lost either.
// A failed write leaves a recovery copy (and the journal) and returns the
// errors that say where it is. Once the write succeeded the journal goes.
func (s *StateSaver) SaveFinal(final *states.State) (*states.State, hcl.Diagnostics) {
	if final == nil {
		final = s.lastSnapshot()
	}
	if final == nil {
		return nil, nil
	}
	s.mu.Lock()
	var err error
	if final != s.closed {
		err = s.write(final)
	} else {
		s.last = final
	}
	s.mu.Unlock()
	if err != nil {
		return final, s.saveRecovery(final, err)
	}
	var diags hcl.Diagnostics
	if jm, ok := s.mgr.(statemgr.Journaled); ok && s.journalErr == nil {
		j, _ := jm.Journal()
		if err := j.Remove(); err != nil {
			diags = append(diags, tfdiags.Warning("Failed to remove the state journal", fmt.Sprintf("The state %s is complete, but removing the journal beside it failed: %s. The next run removes it.", s.spath, err)))
		}
	}
	jerr := s.journalErr
	if jerr == nil && s.p != nil {
		jerr = s.p.JournalErr()
	}
	if jerr != nil {
		hint := " Check that the directory is writable."
		if s.remote { // the error says what the backend lacks
			hint = ""
		}
		diags = append(diags, tfdiags.Warning("The state journal could not be written", fmt.Sprintf(
			"Writing the journal of this apply beside %s failed: %s. The state file is complete now; but had the process died, changes made since its last full write would have been missing from it.%s", s.spath, jerr, hint)))
	}
	return final, diags
}

// StateWriteFailed reports a failed final write of the state file; a
// recovery copy follows it (SaveErroredState).
func StateWriteFailed(spath string, err error) *hcl.Diagnostic {
	return tfdiags.Errorf("Failed to save state", "Writing the state to %s failed: %s", spath, err)
}
