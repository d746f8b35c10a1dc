package render

import (
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/ordered"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
)

// parallelRenderMin is the number of changes from which they are
// rendered on every core (a variable for the benchmarks); renderBatch is
// how many one task renders.
var parallelRenderMin = 2048

const renderBatch = 256

// resourceChanges writes the rendering of every change in rcs but the
// no-ops, in the order order gives (indexes into rcs), each followed by
// an empty line. With load set, change i is rendered from load(i) (rcs[i]
// with its values), and an error from load stops the rendering. A small
// plan is rendered into b, flushed to w whenever b holds planFlushSize
// bytes or more. A large plan's changes are rendered in batches on every
// core while the finished batches are written to w in order (after what
// b holds), at most two batches per core ahead of the writer, so output
// streams and memory stays bounded. O(changes / cores) wall time.
func resourceChanges(w io.Writer, b *strings.Builder, flush func() error, rcs []*plans.ResourceInstanceChange, order []int, load Loader, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse, color bool) error {
	names := &blockNames{}
	// render writes the rendering of rcs[i], if shown, to sb.
	render := func(sb *strings.Builder, i int) error {
		rc := rcs[i]
		if !shown(rc) {
			return nil
		}
		if load != nil {
			var err error
			if rc, err = load(i); err != nil {
				return err
			}
		}
		schema := providers.ResourceSchema(schemas, rc.ProviderAddr.Provider, rc.Addr.Resource.Resource)
		writeResourceChange(sb, rc, schema, color, false, names)
		sb.WriteByte('\n')
		return nil
	}
	workers := runtime.GOMAXPROCS(0)
	if len(order) < parallelRenderMin || workers < 2 {
		for _, i := range order {
			if err := render(b, i); err != nil {
				return err
			}
			if b.Len() >= planFlushSize {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return nil
	}
	type batch struct {
		out string
		err error
	}
	return ordered.Batches(len(order), renderBatch, workers,
		func(lo, hi int) batch {
			var sb strings.Builder
			sb.Grow(renderBatch * 256) // most batches fit: one allocation
			var err error
			for _, i := range order[lo:hi] {
				if err = render(&sb, i); err != nil {
					break
				}
			}
			return batch{sb.String(), err}
		},
		func(r batch) error {
			// A batch is about planFlushSize bytes: it goes to w as it
			// is, after what b holds, instead of being copied into b.
			if b.Len() > 0 {
				if err := flush(); err != nil {
					return err
				}
			}
			if _, err := io.WriteString(w, r.out); err != nil {
				return err
			}
			return r.err
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
