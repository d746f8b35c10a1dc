package render

import (
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/ordered"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
)

// parallelRenderMin is the number of changes from which they are
// rendered on every core; renderBatch is how many one task renders.
const (
	parallelRenderMin = 2048
	renderBatch       = 256
)

// renderBufs holds the buffers batches are rendered into, given back
// once the writer has copied them out.
var renderBufs = sync.Pool{New: func() any { return new([]byte) }}

// resourceChanges writes the rendering of every change in rcs but the
// no-ops, in the order order gives (indexes into rcs), each followed by
// an empty line, to b, calling flush whenever b holds planFlushSize
// bytes or more. With load set, a change is rendered from load(i), which
// gives rcs[i] with its values; its error stops the rendering. A large
// plan's changes are rendered in batches on every core while the
// finished batches are written in order, at most two batches per core
// ahead of the writer, so output streams and memory stays bounded.
// O(changes / cores) wall time.
func resourceChanges(b *strings.Builder, flush func() error, rcs []*plans.ResourceInstanceChange, order []int, load Loader, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse, color bool) error {
	// render appends the rendering of rcs[i], if shown, to buf.
	render := func(buf []byte, i int) ([]byte, error) {
		rc := rcs[i]
		if !shown(rc) {
			return buf, nil
		}
		if load != nil {
			var err error
			if rc, err = load(i); err != nil {
				return buf, err
			}
		}
		schema := providers.ResourceSchema(schemas, rc.ProviderAddr.Provider, rc.Addr.Resource.Resource)
		return append(append(buf, ResourceChange(rc, schema, color, false)...), '\n'), nil
	}
	workers := runtime.GOMAXPROCS(0)
	if len(order) < parallelRenderMin || workers < 2 {
		var buf []byte
		for _, i := range order {
			var err error
			if buf, err = render(buf[:0], i); err != nil {
				return err
			}
			b.Write(buf)
			if b.Len() >= planFlushSize {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return nil
	}
	type batch struct {
		out *[]byte
		err error
	}
	return ordered.Batches(len(order), renderBatch, workers,
		func(lo, hi int) batch {
			out := renderBufs.Get().(*[]byte)
			buf := (*out)[:0]
			var err error
			for _, i := range order[lo:hi] {
				if buf, err = render(buf, i); err != nil {
					break
				}
			}
			*out = buf
			return batch{out, err}
		},
		func(r batch) error {
			b.Write(*r.out)
			renderBufs.Put(r.out)
			if r.err != nil {
				return r.err
			}
			if b.Len() >= planFlushSize {
				return flush()
			}
			return nil
		})
}

// Loader gives the i-th resource change of a plan (in the order of its
// Changes.Resources) with its Before and After values, for a plan read
// without them (plans.UnmarshalDeferred). It is called from several
// goroutines at once.
type Loader func(i int) (*plans.ResourceInstanceChange, error)

// sortedOrder is the order plans.SortedResourceChanges puts rcs in, as
// indexes into rcs. A plan's changes are usually stored sorted: that is
// checked in O(n) before sorting. O(n log n).
func sortedOrder(rcs []*plans.ResourceInstanceChange) []int {
	order := make([]int, len(rcs))
	for i := range order {
		order[i] = i
	}
	cmpIdx := func(a, b int) int { return plans.CompareResourceInstanceChanges(rcs[a], rcs[b]) }
	if !slices.IsSortedFunc(order, cmpIdx) {
		slices.SortStableFunc(order, cmpIdx)
	}
	return order
}
