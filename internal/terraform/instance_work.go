package terraform

import (
	"context"
	"sort"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/plankit/plankit/addrs"
)

// workList is the instances one resource node processes, as segments: an
// expansion's keys in one module instance, generated on demand, or explicit
// items (orphans, targeted subsets). A count of millions therefore costs
// one key slice, not an instanceWork (~250 bytes) per instance held for
// the whole block.
type workList struct {
	segs []workSeg
	n    int
}

// workSeg is one segment of a workList: when items is nil, instance i is
// abs.Instance(x.key(i)) in module instance mi.
type workSeg struct {
	abs   addrs.AbsResource
	mi    moduleInst
	x     expansion
	items []instanceWork
}

func (s *workSeg) len() int {
	if s.items != nil {
		return len(s.items)
	}
	return s.x.len()
}

func (s *workSeg) at(i int) instanceWork {
	if s.items != nil {
		return s.items[i]
	}
	k := s.x.key(i)
	return instanceWork{addr: s.abs.Instance(k), mod: s.mi, rep: s.x.rep(k)}
}

// workItems is a workList of explicit items.
func workItems(items []instanceWork) workList {
	var l workList
	l.addItems(items)
	return l
}

// addItems appends explicit items (none: nothing).
func (l *workList) addItems(items []instanceWork) {
	if len(items) == 0 {
		return
	}
	l.segs = append(l.segs, workSeg{items: items})
	l.n += len(items)
}

// addExpansion appends every key of x in module instance mi. O(1).
func (l *workList) addExpansion(abs addrs.AbsResource, mi moduleInst, x expansion) {
	if x.len() == 0 {
		return
	}
	l.segs = append(l.segs, workSeg{abs: abs, mi: mi, x: x})
	l.n += x.len()
}

// len is the number of instances.
func (l *workList) len() int { return l.n }

// each calls fn with the index and item of every instance in order until
// fn returns false. O(instances).
func (l *workList) each(fn func(int, instanceWork) bool) {
	i := 0
	for s := range l.segs {
		seg := &l.segs[s]
		for j := range seg.len() {
			if !fn(i, seg.at(j)) {
				return
			}
			i++
		}
	}
}

// indexedDiags are the diagnostics of the work item at index i.
type indexedDiags struct {
	i     int
	diags hcl.Diagnostics
}

// runInstances runs fn for every work item, up to the parallelism at once,
// and returns the diagnostics in work order (deterministic). Only items
// with diagnostics cost memory for their result. Once ctx is cancelled no
// further item is handed out: the rest are only counted (ws.notStarted),
// so a cancelled walk of millions of instances stops at once and reports
// one diagnostic, not one per instance.
func runInstances(ctx context.Context, ws *walkState, work workList, fn func(instanceWork) hcl.Diagnostics) hcl.Diagnostics {
	switch work.len() {
	case 0:
		return nil
	case 1:
		var diags hcl.Diagnostics
		work.each(func(_ int, w instanceWork) bool {
			diags = fn(w)
			return false
		})
		return diags
	}
	type job struct {
		i int
		w instanceWork
	}
	var (
		mu      sync.Mutex
		results []indexedDiags
		wg      sync.WaitGroup
	)
	next := make(chan job)
	for range min(work.len(), ws.c.parallelism) {
		wg.Go(func() {
			for j := range next {
				if ctx.Err() != nil {
					ws.notStarted.Add(1)
					continue
				}
				if d := fn(j.w); len(d) > 0 {
					mu.Lock()
					results = append(results, indexedDiags{j.i, d})
					mu.Unlock()
				}
			}
		})
	}
	sent := 0
	work.each(func(i int, w instanceWork) bool {
		select {
		case next <- job{i, w}:
			sent++
			return true
		case <-ctx.Done():
			return false
		}
	})
	close(next)
	wg.Wait()
	ws.notStarted.Add(int64(work.len() - sent))
	sort.Slice(results, func(a, b int) bool { return results[a].i < results[b].i })
	var diags hcl.Diagnostics
	for _, r := range results {
		diags = append(diags, r.diags...)
	}
	return diags
}
