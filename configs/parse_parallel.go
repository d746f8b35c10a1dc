package configs

import (
	"path"
	"runtime"
	"sync"

	"github.com/hashicorp/hcl/v2"
)

// parsedFile is one file's parseAndDecode result.
type parsedFile struct {
	f     *file
	diags hcl.Diagnostics
}

// parseFiles parses and decodes the primary files, then the override
// files, of one module, in parallel (at most GOMAXPROCS at once: each file
// is independent until it is merged into the module), and returns the
// results in that order, so the module is built, and its diagnostics come
// out, exactly as a one-by-one load gives them. A module of one file is
// parsed on the calling goroutine.
func parseFiles(dir string, files map[string][]byte, primary, override []string) []parsedFile {
	n := len(primary) + len(override)
	out := make([]parsedFile, n)
	one := func(i int) {
		name, isOverride := "", false
		if i < len(primary) {
			name = primary[i]
		} else {
			name, isOverride = override[i-len(primary)], true
		}
		f, ds := parseAndDecode(path.Join(dir, name), files[name], isOverride)
		out[i] = parsedFile{f: f, diags: ds}
	}
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			one(i)
		}
		return out
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				one(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}
