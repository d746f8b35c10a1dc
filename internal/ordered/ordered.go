// Package ordered runs batches of work on several goroutines and hands
// their results to one consumer in order, for output that must stream in
// a fixed order (plan rendering, plan show -json) while the work behind
// it uses every core.
package ordered

import "sync"

// Batches splits [0, n) into batches of size indexes, runs work(lo, hi)
// for each batch on workers goroutines and calls use with the results in
// batch order, from the calling goroutine. At most 2*workers batches are
// handed out ahead of use, so memory stays bounded however large n is.
// When use returns an error no further batches are handed out or
// started, and Batches returns that error once the batches already
// running have finished: no work runs after Batches returns, so the
// caller may change what work reads. A panic in work is raised again in
// the calling goroutine (also after the other workers stop), so the
// program's crash handler sees it. O(n / workers) wall time for work
// that costs the same per index.
func Batches[R any](n, size, workers int, work func(lo, hi int) R, use func(R) error) error {
	workers = max(workers, 1)
	size = max(size, 1)
	type result struct {
		r       R
		crashed any
		ok      bool
	}
	type batch struct {
		lo, hi int
		done   chan result
	}
	jobs := make(chan *batch, 2*workers)
	inOrder := make(chan *batch, 2*workers)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { close(stop); wg.Wait() }()
	wg.Go(func() { // hands out the batches in order, no more than use has room for
		defer close(jobs)
		defer close(inOrder)
		for lo := 0; lo < n; lo += size {
			b := &batch{lo: lo, hi: min(lo+size, n), done: make(chan result, 1)}
			select {
			case inOrder <- b:
			case <-stop:
				return
			}
			jobs <- b // waits at most until a worker is free: every batch in jobs is also in inOrder
		}
	})
	run := func(b *batch) (res result) {
		defer func() {
			if !res.ok {
				res.crashed = recover()
			}
		}()
		return result{r: work(b.lo, b.hi), ok: true}
	}
	for range workers {
		wg.Go(func() {
			for b := range jobs {
				select {
				case <-stop: // Batches is returning: nobody reads this batch
					continue
				default:
				}
				b.done <- run(b)
			}
		})
	}
	for b := range inOrder {
		res := <-b.done
		if !res.ok {
			panic(res.crashed)
		}
		if err := use(res.r); err != nil {
			return err
		}
	}
	return nil
}
