package statemgr

import (
	"sort"
	"sync"
)

// journalQueue gathers the records of concurrent operations and writes
// them to the journal together (group commit). A record is queued under
// the persister's jmu, which keeps records in the order of the state
// changes and checkpoints they describe; the write itself happens outside
// jmu. Whoever queued a record then calls waitWritten: the first caller
// to take the writer's turn writes every record queued so far in one
// Journal.Append per record (one write(2) for a journal that can append a
// batch), the callers whose records that covered return without writing.
// So Begin, Record and End still return only once their record is
// written — what Journal.Append guarantees for each record, it guarantees
// for a batch — while at -parallelism=10 a worker no longer holds every
// other worker's jmu for the length of a write system call.
type journalQueue struct {
	j Journal

	qmu    sync.Mutex // queue, queued
	queue  [][]byte
	queued uint64 // records queued so far; a record's number is queued after its queueing

	wmu     sync.Mutex // the writer's turn; written, failed
	written uint64     // records whose write was attempted, in queue order
	failed  []failedBatch
	spare   [][]byte // the last batch's slice, reused
}

// failedBatch is a range of record numbers whose write failed.
type failedBatch struct {
	first, last uint64
	err         error
}

// batchJournal is a Journal that can append several records with one
// write: AppendBatch is Append for each record, in order.
type batchJournal interface {
	AppendBatch(recs [][]byte) error
}

// push queues rec and returns its number. The caller holds jmu.
func (q *journalQueue) push(rec []byte) uint64 {
	q.qmu.Lock()
	q.queue = append(q.queue, rec)
	q.queued++
	n := q.queued
	q.qmu.Unlock()
	return n
}

// waitWritten returns once record n has been written (or its write has
// failed: the error). after runs, with the writer's turn held, after each
// batch this call writes (the persister wakes its fsync loop there).
func (q *journalQueue) waitWritten(n uint64, after func()) error {
	q.wmu.Lock()
	defer q.wmu.Unlock()
	if q.written < n {
		q.qmu.Lock()
		batch, first, last := q.queue, q.written+1, q.queued
		q.queue = q.spare[:0]
		q.qmu.Unlock()
		var err error
		if bj, ok := q.j.(batchJournal); ok {
			err = bj.AppendBatch(batch)
		} else {
			for _, rec := range batch {
				if err = q.j.Append(rec); err != nil {
					break
				}
			}
		}
		clear(batch)
		q.spare = batch[:0]
		q.written = last
		if err != nil {
			q.failed = append(q.failed, failedBatch{first, last, err})
		}
		after()
	}
	// failed is in record order and its ranges are disjoint: a journal
	// that keeps failing (a full disk) adds a range per batch, so search.
	i := sort.Search(len(q.failed), func(i int) bool { return q.failed[i].last >= n })
	if i < len(q.failed) && q.failed[i].first <= n {
		return q.failed[i].err
	}
	return nil
}

// flush writes every record queued so far (their callers get the
// result from their own waitWritten).
func (q *journalQueue) flush(after func()) {
	q.qmu.Lock()
	n := q.queued
	q.qmu.Unlock()
	_ = q.waitWritten(n, after)
}
