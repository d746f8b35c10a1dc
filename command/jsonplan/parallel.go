package jsonplan

import (
	"runtime"
	"sync"
)

// parallelMin is the number of items from which forEachParallel spreads
// them over the cores.
const parallelMin = 1024

// forEachParallel calls f(i) for every i in [0, n): in order for small n,
// else in one contiguous chunk per core. f must only write what index i
// owns. A panic in a chunk is raised again in the caller. O(n / cores)
// wall time.
func forEachParallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n/(parallelMin/2))
	if n < parallelMin || workers < 2 {
		for i := range n {
			f(i)
		}
		return
	}
	panics := make([]any, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[w] = recover() }()
			for i := lo; i < hi; i++ {
				f(i)
			}
		}()
	}
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
}
