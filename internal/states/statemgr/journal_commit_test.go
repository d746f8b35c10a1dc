package statemgr

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
)

// batchRecorder is a Journal that records each AppendBatch call; the
// first call waits for release when gate is set, and a batch holding a
// record "bad" fails.
type batchRecorder struct {
	Journal // unused methods
	mu      sync.Mutex
	batches [][]string
	gate    chan struct{}
	entered chan struct{}
}

func (r *batchRecorder) AppendBatch(recs [][]byte) error {
	r.mu.Lock()
	first := len(r.batches) == 0
	var b []string
	for _, rec := range recs {
		b = append(b, string(rec))
	}
	r.batches = append(r.batches, b)
	r.mu.Unlock()
	if first && r.gate != nil {
		close(r.entered)
		<-r.gate
	}
	for _, s := range b {
		if s == "bad" {
			return errors.New("disk full")
		}
	}
	return nil
}

// TestJournalQueueGroupCommit: records queued while a write is under way
// are written together by the next caller, in queue order, each exactly
// once; every waitWritten returns after its record's write, with that
// write's error; the hook runs once per batch.
func TestJournalQueueGroupCommit(t *testing.T) {
	r := &batchRecorder{gate: make(chan struct{}), entered: make(chan struct{})}
	q := &journalQueue{j: r}
	batches := 0
	after := func() { batches++ } // under the writer's turn
	errs := make(map[string]error)
	var emu sync.Mutex
	var wg sync.WaitGroup
	wait := func(name string, n uint64) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := q.waitWritten(n, after)
			emu.Lock()
			errs[name] = err
			emu.Unlock()
		}()
	}
	wait("r0", q.push([]byte("r0")))
	<-r.entered // r0's write is under way, holding the writer's turn
	for _, name := range []string{"r1", "bad", "r3"} {
		wait(name, q.push([]byte(name)))
	}
	close(r.gate)
	wg.Wait()
	wait("r4", q.push([]byte("r4")))
	wg.Wait()

	want := [][]string{{"r0"}, {"r1", "bad", "r3"}, {"r4"}}
	if d := cmp.Diff(want, r.batches); d != "" {
		t.Errorf("batches (-want +got):\n%s", d)
	}
	if batches != 3 {
		t.Errorf("after ran %d times, want 3", batches)
	}
	for name, err := range errs {
		wantErr := name == "r1" || name == "bad" || name == "r3"
		if (err != nil) != wantErr {
			t.Errorf("%s: error %v, want error: %v", name, err, wantErr)
		}
	}
}

// TestPersisterRecordsWrittenOnReturn: with many workers recording at
// once, each Begin, Record and End has its record in the journal file
// when it returns (another worker may have written it), every record is
// there exactly once, and each instance's records are in its order.
func TestPersisterRecordsWrittenOnReturn(t *testing.T) {
	mgr := NewFilesystem(t.TempDir() + "/terraform.tfstate")
	j, err := mgr.Journal()
	if err != nil {
		t.Fatal(err)
	}
	src := stateWith(0).SyncWrapper()
	p := NewBackgroundPersister(mgr, PersisterOptions{Source: src, Journal: j, CheckpointBytes: 1 << 30})
	const workers, each = 8, 40
	var wg sync.WaitGroup
	var fmu sync.Mutex
	var failures []string
	check := func(what string) {
		recs, _, err := j.Records()
		if err != nil {
			fmu.Lock()
			failures = append(failures, err.Error())
			fmu.Unlock()
			return
		}
		for _, r := range recs {
			if string(r) == what {
				return
			}
		}
		fmu.Lock()
		failures = append(failures, "missing after return: "+what)
		fmu.Unlock()
	}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w * each; i < (w+1)*each; i++ {
				addr := instAddr(i)
				if err := p.Begin(addr, "create"); err != nil {
					t.Error(err)
					return
				}
				if i%8 == 0 {
					check(string(EncodeBegin(addr, "create")))
				}
				if i%3 == 0 {
					if err := p.End(addr); err != nil { // failed without a change
						t.Error(err)
					}
					if i%8 == 0 {
						check(string(EncodeEnd(addr)))
					}
					continue
				}
				s := src.Lock()
				s.SetResourceInstanceCurrent(addr, benchObj(i, 0), nullProvider)
				src.Unlock()
				if err := p.Record(addr); err != nil {
					t.Error(err)
				}
				if i%8 == 1 {
					s := src.Lock()
					rec, err := EncodeSet(s, addr)
					src.Unlock()
					if err != nil {
						t.Error(err)
					}
					check(string(rec))
				}
			}
		}()
	}
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("%d failures, first: %s", len(failures), failures[0])
	}
	recs, damaged, err := j.Records()
	if err != nil || damaged != 0 {
		t.Fatalf("records: %v, %d damaged", err, damaged)
	}
	seen := map[string]int{}
	last := map[string]string{}
	for _, r := range recs {
		seen[string(r)]++
		s := string(r)
		kind := s[strings.Index(s, `"k":"`)+5:]
		kind = kind[:strings.Index(kind, `"`)]
		inst := s[strings.Index(s, `"i":"`)+5:]
		inst = inst[:strings.Index(inst, `"`)]
		if prev := last[inst]; (kind == "begin") != (prev == "") {
			t.Errorf("%s: %s after %q", inst, kind, prev)
		}
		last[inst] = kind
	}
	for rec, n := range seen {
		if n != 1 {
			t.Errorf("record written %d times: %.60s", n, rec)
		}
	}
	if got, want := len(recs), workers*each*2; got != want {
		t.Errorf("%d records, want %d", got, want)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	want := 0
	for i := range workers * each {
		if i%3 != 0 {
			want++
		}
	}
	if got := len(readFile(t, mgr.Path()).State.AllResourceInstances()); got != want {
		t.Errorf("%d instances stored, want %d", got, want)
	}
}

// TestJournalQueueManyFailedBatches: with a journal failing batch after
// batch (a full disk), each waitWritten still returns its own batch's
// error, and nil for the batches that were written, wherever they fall
// among the failed ones.
func TestJournalQueueManyFailedBatches(t *testing.T) {
	q := &journalQueue{j: &batchRecorder{}}
	for i := range 50 {
		name := "ok"
		if i%3 != 0 {
			name = "bad"
		}
		err := q.waitWritten(q.push([]byte(name)), func() {})
		if (err != nil) != (name == "bad") {
			t.Fatalf("record %d (%s): error %v", i, name, err)
		}
	}
	// Asking again about an early record gives the same answers.
	if err := q.waitWritten(1, func() {}); err != nil {
		t.Errorf("record 1 (written): %v", err)
	}
	if err := q.waitWritten(2, func() {}); err == nil {
		t.Error("record 2 (failed): no error")
	}
	if len(q.failed) != 33 {
		t.Errorf("%d failed batches, want 33", len(q.failed))
	}
}

// eventJournal is a Journal that logs its appends, syncs and removal.
type eventJournal struct {
	mu     sync.Mutex
	events []string
}

func (e *eventJournal) log(s string) { e.mu.Lock(); e.events = append(e.events, s); e.mu.Unlock() }
func (e *eventJournal) Append(rec []byte) error {
	e.log("append " + string(rec))
	return nil
}
func (e *eventJournal) Sync() error                      { e.log("sync"); return nil }
func (e *eventJournal) Checkpoint() (JournalMark, error) { return 0, nil }
func (e *eventJournal) Truncate(JournalMark) error       { return nil }
func (e *eventJournal) Records() ([][]byte, int, error)  { return nil, 0, nil }
func (e *eventJournal) Remove() error                    { e.log("remove"); return nil }

// TestPersisterCloseWritesQueuedRecords: a record queued before Close
// whose caller had not written it yet is written by Close, before the
// last fsync and the journal's removal, and not again afterwards.
func TestPersisterCloseWritesQueuedRecords(t *testing.T) {
	j := &eventJournal{}
	p := NewBackgroundPersister(&snapshotRecorder{}, PersisterOptions{Source: stateWith(1).SyncWrapper(), Journal: j})
	p.jmu.Lock()
	n := p.jq.push([]byte("late"))
	p.jmu.Unlock()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.jq.waitWritten(n, p.kickSync); err != nil {
		t.Fatal(err)
	}
	j.mu.Lock()
	got := strings.Join(j.events, ", ")
	j.mu.Unlock()
	if want := "append late, sync, remove"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
}

// TestJournalSyncGap: records appended one after another, as a
// sequential apply appends them, share fsyncs at most one per
// journalSyncGap (plus the first and Close's last), and Close still
// syncs after the last append, before removing the journal.
func TestJournalSyncGap(t *testing.T) {
	j := &eventJournal{}
	p := NewBackgroundPersister(&snapshotRecorder{}, PersisterOptions{Source: stateWith(1).SyncWrapper(), Journal: j})
	start := time.Now()
	for i := range 200 {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: fmt.Sprintf("r%d", i)}.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance)
		if err := p.Begin(addr, "create"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Microsecond) // a provider call
	}
	elapsed := time.Since(start)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	j.mu.Lock()
	events := slices.Clone(j.events)
	j.mu.Unlock()
	syncs := 0
	for _, e := range events {
		if e == "sync" {
			syncs++
		}
	}
	if most := int(elapsed/journalSyncGap) + 3; syncs > most {
		t.Errorf("%d fsyncs for 200 records in %v, want at most %d (one per %v)", syncs, elapsed, most, journalSyncGap)
	}
	last := -1
	for i, e := range events {
		if strings.HasPrefix(e, "append ") {
			last = i
		}
	}
	if n := len(events); last < 0 || events[n-1] != "remove" || !slices.Contains(events[last:], "sync") {
		t.Errorf("the journal's last events are %q, want a sync after the last append, then its removal", events[max(0, last):])
	}
}
