package plans

import (
	"maps"
	"runtime"
	"sync"
)

// parallelDecodeMin is the number of resource changes from which their
// values are decoded on every core: below it a goroutine costs more than
// it saves. A variable for the benchmarks.
var parallelDecodeMin = 2048

// decodeEach runs decode(d, i) for every i in [0, n): in order on this
// goroutine for small n, else in one contiguous chunk per core, each
// chunk with its own copy of the decoder (the parsed-provider cache is
// the decoder's only mutable part, and each copy gets its own). Every
// chunk stops at its first error, and the error of the lowest index is
// returned, so the result is the one a single loop would give. A panic
// in a chunk is raised again here. O(n / cores) wall time.
func (d *decoder) decodeEach(n int, decode func(d *decoder, i int) error) error {
	workers := min(runtime.GOMAXPROCS(0), n/(parallelDecodeMin/2))
	if n < parallelDecodeMin || workers < 2 {
		for i := range n {
			if err := decode(d, i); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, workers)
	panics := make([]any, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wd := *d
		wd.providers = maps.Clone(d.providers)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[w] = recover() }()
			for i := lo; i < hi; i++ {
				if err := decode(&wd, i); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for w := range workers {
		if panics[w] != nil {
			panic(panics[w])
		}
		if errs[w] != nil {
			return errs[w]
		}
	}
	return nil
}
