package jsonplan

import (
	"runtime"
	"sync"

	"github.com/plankit/plankit/internal/ordered"
)

// Entries of a large list are made on every core in batches of
// entryBatch, from parallelEntriesMin entries on (a variable for the
// benchmarks).
var parallelEntriesMin = 2048

const entryBatch = 128

// entries writes a JSON array of n entries, entry i written by
// write(e, i) into the encoder it is given. A long list is made in
// batches on every core, each into an encoder of its own, while the
// finished batches are written in order, at most two batches per core
// ahead of the writer; so the output streams, memory stays bounded, and
// the error returned is the one of the lowest failing entry, as a loop
// gives. A panic in a batch is raised again here. O(n / cores) wall time.
func (e *encoder) entries(n int, write func(e *encoder, i int) error) error {
	e.buf = append(e.buf, '[')
	workers := runtime.GOMAXPROCS(0)
	if n < parallelEntriesMin || workers < 2 {
		for i := range n {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if err := write(e, i); err != nil {
				return err
			}
			if err := e.flush(false); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, ']')
		return nil
	}
	first := true
	err := ordered.Batches(n, entryBatch, workers,
		func(lo, hi int) batchResult { return writeBatch(e, lo, hi, write) },
		func(r batchResult) error {
			if !first {
				e.buf = append(e.buf, ',')
			}
			first = false
			e.buf = append(e.buf, r.buf...)
			batchBufs.Put(&r.buf)
			if r.err != nil {
				return r.err
			}
			return e.flush(false)
		})
	if err != nil {
		return err
	}
	e.buf = append(e.buf, ']')
	return nil
}

// batchBufs holds the buffers batches are written into, given back once
// the writer has copied them out.
var batchBufs = sync.Pool{New: func() any { return new([]byte) }}

// batchResult is a batch's JSON, and its first error.
type batchResult struct {
	buf []byte
	err error
}

// writeBatch writes entries lo..hi-1, comma-separated, into an encoder
// of their own (with e's schemas); it stops at the first error.
func writeBatch(e *encoder, lo, hi int, write func(e *encoder, i int) error) (r batchResult) {
	be := &encoder{schemas: e.schemas, buf: (*batchBufs.Get().(*[]byte))[:0]}
	for i := lo; i < hi; i++ {
		if i > lo {
			be.buf = append(be.buf, ',')
		}
		if err := write(be, i); err != nil {
			return batchResult{buf: be.buf, err: err}
		}
	}
	return batchResult{buf: be.buf}
}
