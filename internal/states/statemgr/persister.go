package statemgr

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
)

// PersisterOptions configures a BackgroundPersister.
type PersisterOptions struct {
	// Source is the live state the apply walk updates; each write persists
	// a Snapshot of it. When nil, the persister starts from an empty state
	// (see BackgroundPersister.State).
	Source *states.SyncState
	// GapFactor: after a write that took d (snapshot, encode, disk; the
	// lesser of the last two writes), the next write waits at least
	// GapFactor×d, so writing takes at most about
	// 1/(1+GapFactor) of the run whatever the state's size: the apply stays
	// linear. Default 4 (≤ 20%).
	GapFactor float64
	// MinGap is the least time between the end of one write and the start
	// of the next. Default 0.
	MinGap time.Duration
	// ErrorBackoff is the least wait after a failed write before retrying.
	// Default 1s.
	ErrorBackoff time.Duration
	// Journal, when set, records every change between full writes (see
	// Journal, Begin, Record and End): a process that dies loses no
	// finished operation, whatever the gap between full writes. Each full
	// write checkpoints it, a successful one truncates what it covers, and
	// Close removes it once the final write succeeded.
	Journal Journal
	// CheckpointBytes, with a Journal, spaces the full writes by the
	// journal's growth instead of by time alone: a full write is due once
	// the records appended since the last one reach the larger of
	// CheckpointBytes and all the records appended before it. Every
	// change is in the journal the moment it is made, so the full writes
	// only keep the journal (what a crashed run replays) in proportion to
	// the state; spaced this way, a run that builds a state of S bytes
	// writes about 2S in all, in O(log S) writes, and one that changes a
	// few objects of a large state writes it once, at Close. The GapFactor
	// and MinGap waits still apply. 0: by time alone.
	CheckpointBytes uint64
	// LagChanges and LagInterval, with CheckpointBytes, bound how far the
	// stored state itself lags the journal, for the tools that read only
	// the state (Terraform, OpenTofu): a full write is also due once
	// LagChanges changes were announced since the last write's snapshot,
	// or once the oldest of them is LagInterval old. The GapFactor wait
	// still applies, so these writes take at most about 1/(1+GapFactor)
	// of the run however large the state: the lag is at most LagChanges
	// changes or what the apply finishes in GapFactor times one write,
	// whichever is more. 0: no bound of that kind.
	LagChanges  uint64
	LagInterval time.Duration
}

// PersisterStats counts what a BackgroundPersister did.
type PersisterStats struct {
	Changes   uint64        // MarkDirty/Update calls
	Writes    uint64        // write attempts
	Failures  uint64        // failed attempts
	WriteTime time.Duration // total time spent writing (snapshot, encode, disk)
	LastWrite time.Duration // duration of the last attempt
}

// BackgroundPersister persists a live state during apply. Changes are
// announced with MarkDirty (or made with Update); a background goroutine
// writes whenever the state is dirty, coalescing every change since its last
// write into one write, and waits GapFactor times the last write's duration
// between writes. Each write is a Snapshot of the state (no attribute
// copying) written through the manager, whose per-object encoding cache
// makes a write cost a copy of the unchanged objects' bytes. Flush and Close
// force a write of everything announced so far.
//
// With a Journal (PersisterOptions.Journal), Begin, Record and End also
// append each operation's start and result to it before they return, so
// the lag of the full writes loses nothing when the process dies.
type BackgroundPersister struct {
	mgr  Storage
	src  *states.SyncState
	opts PersisterOptions

	mu          sync.Mutex
	cond        *sync.Cond    // broadcast after each write attempt
	gen         uint64        // changes announced so far
	writtenGen  uint64        // gen covered by the last successful write
	flushReq    uint64        // Flush/Close requests so far
	attemptReq  uint64        // flushReq when the last attempt started
	lastFailReq uint64        // attemptReq of the last failed attempt
	lastErr     error         // error of the last attempt, nil after a success
	nextAllowed time.Time     // earliest start of the next unforced write
	dirtySince  time.Time     // when the oldest change not written was announced
	prevWrite   time.Duration // duration of the last write attempt (0 before the first)
	closing     bool
	stats       PersisterStats

	wake chan struct{}
	done chan struct{}

	// The journal (nil without one). jmu orders its records with the
	// snapshots of full writes: a record is appended, and a snapshot taken
	// with its checkpoint, under jmu.
	journal    Journal
	jq         journalQueue // the journal's writes (group commit)
	jmu        sync.Mutex
	inflight   map[string][]byte // instance -> its begin record, while in flight
	journalErr error             // the first failed append or sync
	stopped    bool              // Close began: no more records
	syncWake   chan struct{}
	syncClosed bool // syncWake is closed; under jq.wmu
	syncDone   chan struct{}
	// Journal bytes appended since the last checkpoint, and before it
	// (see CheckpointBytes); written under jmu, read by run.
	jSince, jBefore atomic.Uint64

	// final: the source will not change any more (SourceFinal), so a
	// write takes it as it is instead of a snapshot.
	final atomic.Bool
}

// SourceFinal tells the persister that the live state will not change
// any more (the apply is over; its last changes are announced): the
// writes from now on, Close's included, store it as it is instead of
// copying its maps into a snapshot first — a copy of every instance's
// map at the apply's memory peak. The caller must
// not change the state after this call.
func (p *BackgroundPersister) SourceFinal() { p.final.Store(true) }

// take returns the live state to write: a snapshot, or the state itself
// once it is final.
func (p *BackgroundPersister) take() *states.State {
	if p.final.Load() {
		s := p.src.Lock()
		p.src.Unlock()
		return s
	}
	return p.src.Snapshot()
}

// NewBackgroundPersister starts a persister writing through mgr. Call Close
// when the apply is over.
func NewBackgroundPersister(mgr Storage, opts PersisterOptions) *BackgroundPersister {
	if opts.GapFactor <= 0 {
		opts.GapFactor = 4
	}
	if opts.ErrorBackoff <= 0 {
		opts.ErrorBackoff = time.Second
	}
	if opts.Source == nil {
		opts.Source = states.NewState().SyncWrapper()
	}
	p := &BackgroundPersister{
		mgr:  mgr,
		src:  opts.Source,
		opts: opts,
		wake: make(chan struct{}, 1),
		done: make(chan struct{}),
	}
	p.cond = sync.NewCond(&p.mu)
	if opts.Journal != nil {
		p.journal = opts.Journal
		p.jq.j = opts.Journal
		p.inflight = map[string][]byte{}
		p.syncWake = make(chan struct{}, 1)
		p.syncDone = make(chan struct{})
		go p.syncLoop()
	}
	go p.run()
	return p
}

// Begin records that an operation (action, e.g. "create") is starting on
// addr, before its provider is called: if the process dies before Record
// or End, the next run names addr as in flight. An error means the record
// could not be stored; the caller should not start the operation.
func (p *BackgroundPersister) Begin(addr addrs.AbsResourceInstance, action string) error {
	if p.journal == nil {
		return nil
	}
	key := addr.String()
	rec := appendBegin(make([]byte, 0, len(key)+len(action)+32), key, action)
	p.jmu.Lock()
	if p.stopped {
		p.jmu.Unlock()
		return nil
	}
	n := p.jq.push(rec)
	p.appended(len(rec))
	p.inflight[key] = rec
	p.jmu.Unlock()
	if err := p.jq.waitWritten(n, p.kickSync); err != nil {
		p.jmu.Lock()
		p.noteJournalErr(err)
		// Not started: a checkpoint must not record it again.
		if r, ok := p.inflight[key]; ok && &r[0] == &rec[0] {
			delete(p.inflight, key)
		}
		p.jmu.Unlock()
		return err
	}
	return nil
}

// appended counts n journal bytes appended; p.jmu is held. It wakes the
// writer when they make a full write due (see CheckpointBytes).
func (p *BackgroundPersister) appended(n int) {
	since := p.jSince.Add(uint64(n))
	if t := p.opts.CheckpointBytes; t > 0 && since >= max(t, p.jBefore.Load()) && since-uint64(n) < max(t, p.jBefore.Load()) {
		p.signal()
	}
}

// checkpointDue reports whether the journal has grown enough for a full
// write (always, without CheckpointBytes or a journal).
func (p *BackgroundPersister) checkpointDue() bool {
	t := p.opts.CheckpointBytes
	return t == 0 || p.journal == nil || p.jSince.Load() >= max(t, p.jBefore.Load())
}

// Record announces that addr's objects in the live state changed (and
// ends an operation in flight on it). With a journal, the instance's
// objects are appended to it before Record returns, so the change
// survives the process being killed; then, as MarkDirty, a full write
// follows in the background. O(size of the instance's objects).
func (p *BackgroundPersister) Record(addr addrs.AbsResourceInstance) error {
	var err error
	if p.journal != nil {
		// Only the lookup holds the state's lock, and only the append the
		// journal's: records of one instance come from one worker at a time
		// (its operations are ordered by the graph), so they cannot be
		// reordered; and a record landing after a checkpoint whose snapshot
		// already holds its change only repeats it.
		s := p.src.Lock()
		objs := instanceObjectsOf(s, addr)
		p.src.Unlock()
		bp := recBufs.Get().(*[]byte)
		var rec []byte
		rec, err = objs.appendSet((*bp)[:0], addr)
		defer putRecBuf(bp, rec)
		var n uint64
		p.jmu.Lock()
		if err == nil && !p.stopped {
			n = p.jq.push(rec)
			p.appended(len(rec))
		}
		delete(p.inflight, addr.String())
		p.jmu.Unlock()
		if n > 0 {
			err = p.jq.waitWritten(n, p.kickSync)
		}
		if err != nil {
			p.jmu.Lock()
			p.noteJournalErr(err)
			p.jmu.Unlock()
		}
	}
	p.MarkDirty()
	return err
}

// recBufs recycles the buffers set records are built in (Journal.Append
// keeps no record): an apply makes one per finished operation.
var recBufs = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

// putRecBuf returns a record buffer to recBufs, keeping the larger of its
// old and new backing arrays unless that is unusually large.
func putRecBuf(bp *[]byte, rec []byte) {
	if cap(rec) > cap(*bp) {
		*bp = rec
	}
	if cap(*bp) > 64<<10 {
		return
	}
	*bp = (*bp)[:0]
	recBufs.Put(bp)
}

// End records that the operation on addr ended; right after Record it
// costs nothing, otherwise (an operation that failed without changing the
// state, or one begun again for its provisioners) it appends an end record
// so addr is not reported as in flight.
func (p *BackgroundPersister) End(addr addrs.AbsResourceInstance) error {
	if p.journal == nil {
		return nil
	}
	key := addr.String()
	p.jmu.Lock()
	if _, ok := p.inflight[key]; !ok || p.stopped {
		p.jmu.Unlock()
		return nil
	}
	delete(p.inflight, key)
	rec := EncodeEnd(addr)
	n := p.jq.push(rec)
	p.appended(len(rec))
	p.jmu.Unlock()
	if err := p.jq.waitWritten(n, p.kickSync); err != nil {
		p.jmu.Lock()
		p.noteJournalErr(err)
		p.jmu.Unlock()
		return err
	}
	return nil
}

// JournalErr returns the first error appending to or syncing the journal.
func (p *BackgroundPersister) JournalErr() error {
	p.jmu.Lock()
	defer p.jmu.Unlock()
	return p.journalErr
}

func (p *BackgroundPersister) noteJournalErr(err error) {
	if p.journalErr == nil {
		p.journalErr = err
	}
}

// kickSync wakes syncLoop; the journal queue's writer turn is held
// (Close closes the channel under it).
func (p *BackgroundPersister) kickSync() {
	if p.syncClosed {
		return // not after Close (which writes what was queued first): a guard
	}
	select {
	case p.syncWake <- struct{}{}:
	default:
	}
}

// syncLoop fsyncs the journal whenever records were appended since the
// last fsync, at most once every journalSyncGap: appends made while one
// fsync runs or waits share the next (group commit), so the workers never
// wait for the disk and a power loss loses at most the records of about
// journalSyncGap and two fsyncs. A killed process loses none: appended
// bytes are in the kernel already.
func (p *BackgroundPersister) syncLoop() {
	defer close(p.syncDone)
	var last time.Time
	for range p.syncWake {
		if wait := journalSyncGap - time.Since(last); wait > 0 {
			time.Sleep(wait)
		}
		last = time.Now()
		if err := p.journal.Sync(); err != nil {
			p.jmu.Lock()
			p.noteJournalErr(err)
			p.jmu.Unlock()
		}
	}
}

// journalSyncGap is the least time between the starts of two fsyncs of
// the journal. A sequential apply (a chain of resources through a plugin
// provider, a few milliseconds a step) otherwise fsyncs after almost
// every record: an fsync per change, disk and CPU beside the provider's
// work, for a window a power loss could shorten by milliseconds.
const journalSyncGap = 20 * time.Millisecond

// State returns the live state the persister writes.
func (p *BackgroundPersister) State() *states.SyncState { return p.src }

// Update runs fn on the live state under its lock, then marks it dirty.
func (p *BackgroundPersister) Update(fn func(*states.State)) {
	s := p.src.Lock()
	fn(s)
	p.src.Unlock()
	p.MarkDirty()
}

// MarkDirty announces a change to the live state. O(1); it never waits for
// a write.
func (p *BackgroundPersister) MarkDirty() {
	p.mu.Lock()
	wasClean := p.gen == p.writtenGen
	if wasClean {
		p.dirtySince = time.Now()
	}
	p.gen++
	p.stats.Changes++
	lagDue := p.opts.LagChanges > 0 && p.gen-p.writtenGen == p.opts.LagChanges
	p.mu.Unlock()
	if wasClean || lagDue {
		// The goroutine may be idle, or waiting for the journal's growth
		// or the lag bound.
		p.signal()
	}
}

func (p *BackgroundPersister) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Flush writes every change announced so far, now, and waits for the
// write. It returns nil once a write covering them succeeded, or the error
// of a failed attempt to write them.
func (p *BackgroundPersister) Flush() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.flushLocked()
}

func (p *BackgroundPersister) flushLocked() error {
	target := p.gen
	if p.writtenGen >= target {
		return nil
	}
	p.flushReq++
	req := p.flushReq
	p.signal()
	for {
		if p.writtenGen >= target {
			// A write that started before this request may have covered
			// it: the request needs no forced write of its own any more.
			p.attemptReq = max(p.attemptReq, req)
			return nil
		}
		if p.lastErr != nil && p.lastFailReq >= req {
			// An attempt started after this request failed.
			return p.lastErr
		}
		p.cond.Wait()
	}
}

// Close makes a final write of everything announced, stops the goroutine and
// returns the final write's error. Changes announced after Close are not
// written.
func (p *BackgroundPersister) Close() error {
	p.mu.Lock()
	err := p.flushLocked()
	p.closing = true
	p.mu.Unlock()
	p.signal()
	<-p.done
	if p.journal != nil {
		p.jmu.Lock()
		p.stopped = true
		p.jmu.Unlock()
		// A record queued before stopped whose caller has not taken the
		// writer's turn yet is written now: before the last fsync, and
		// not after the journal is removed (which would leave a new
		// segment behind).
		p.jq.flush(p.kickSync)
		p.jq.wmu.Lock()
		p.syncClosed = true
		close(p.syncWake)
		p.jq.wmu.Unlock()
		<-p.syncDone
		if err == nil {
			// The state stored now holds everything the journal recorded. A
			// journal left behind only repeats it: JournalErr reports it.
			if rerr := p.journal.Remove(); rerr != nil {
				p.jmu.Lock()
				p.noteJournalErr(rerr)
				p.jmu.Unlock()
			}
		}
	}
	return err
}

// Stats returns counts so far.
func (p *BackgroundPersister) Stats() PersisterStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stats
}

// run is the writer goroutine: idle while clean; when dirty, wait out the
// gap after the last write (unless a Flush is waiting), then write.
func (p *BackgroundPersister) run() {
	defer close(p.done)
	for {
		p.mu.Lock()
		if p.closing {
			p.mu.Unlock()
			return
		}
		dirty := p.gen > p.writtenGen
		forced := p.flushReq > p.attemptReq
		wait := time.Until(p.nextAllowed)
		lagged := p.opts.LagChanges > 0 && p.gen-p.writtenGen >= p.opts.LagChanges
		var lagIn time.Duration // until the oldest unwritten change is LagInterval old
		if p.opts.LagInterval > 0 && dirty {
			lagIn = time.Until(p.dirtySince.Add(p.opts.LagInterval))
			lagged = lagged || lagIn <= 0
		}
		p.mu.Unlock()
		switch {
		case !dirty:
			<-p.wake // idle until a change, a Flush or Close
			continue
		case !forced && !lagged && !p.checkpointDue():
			// Until a Flush or Close, the journal's growth (appended) or
			// the lag bound makes a write due.
			if lagIn <= 0 {
				<-p.wake
				continue
			}
			t := time.NewTimer(lagIn)
			select {
			case <-t.C:
			case <-p.wake:
				t.Stop()
			}
			continue
		case !forced && wait > 0:
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-p.wake: // a Flush, or Close: re-evaluate
				t.Stop()
				continue
			}
		}
		p.writeOnce()
	}
}

// writeOnce persists a snapshot of the live state, timing the whole of it
// (snapshot under the state's lock, encode, disk) to set the next gap.
func (p *BackgroundPersister) writeOnce() {
	p.mu.Lock()
	g, req := p.gen, p.flushReq
	p.attemptReq = req
	p.mu.Unlock()

	start := time.Now()
	snap, mark, err := p.snapshot()
	if err == nil {
		err = p.mgr.WriteState(snap)
	}
	if err == nil {
		err = p.mgr.PersistState()
	}
	if err == nil && p.journal != nil {
		err = p.journal.Truncate(mark)
	}
	d := time.Since(start)

	p.mu.Lock()
	defer p.mu.Unlock()
	p.stats.Writes++
	p.stats.WriteTime += d
	p.stats.LastWrite = d
	// The gap follows the cheaper of this write and the one before (none
	// before the first): a one-off slow write (the first, which creates
	// the file and its backup, or a disk stalled by another process) does
	// not hold the next one back, while a state that keeps growing still
	// spaces its writes by what they cost.
	gap := max(time.Duration(float64(min(d, p.prevWrite))*p.opts.GapFactor), p.opts.MinGap)
	p.prevWrite = d
	if err != nil {
		p.stats.Failures++
		p.lastErr, p.lastFailReq = err, req
		gap = max(gap, p.opts.ErrorBackoff)
	} else {
		p.writtenGen, p.lastErr = g, nil
		if p.gen > g {
			// Announced after the snapshot was taken, at the earliest.
			p.dirtySince = start
		}
	}
	p.nextAllowed = time.Now().Add(gap)
	p.cond.Broadcast()
}

// snapshot takes a snapshot of the live state for a full write and, with a
// journal, checkpoints it at the same moment: every record before the mark
// is in the snapshot, so once the write succeeded they can go. The begin
// records of operations still in flight are appended again after the
// checkpoint, so that truncating does not forget them.
func (p *BackgroundPersister) snapshot() (*states.State, JournalMark, error) {
	if p.journal == nil {
		return p.take(), 0, nil
	}
	p.jmu.Lock()
	defer p.jmu.Unlock()
	snap := p.take()
	mark, err := p.journal.Checkpoint()
	if err != nil {
		// The full write still goes ahead; it just cannot drop records.
		p.noteJournalErr(err)
		return snap, 0, nil
	}
	p.jBefore.Add(p.jSince.Swap(0))
	for _, rec := range p.inflight {
		if err := p.journal.Append(rec); err != nil {
			// Keep what the checkpoint closed: it names these operations.
			p.noteJournalErr(err)
			return snap, 0, nil
		}
		p.jSince.Add(uint64(len(rec)))
	}
	return snap, mark, nil
}
