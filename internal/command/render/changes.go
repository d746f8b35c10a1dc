package render

import (
	"io"
	"slices"
	"strings"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
)

// resourceChanges writes the rendering of every change in rcs but the
// no-ops, in the order order gives (indexes into rcs), each followed by
// an empty line. With load set, change i is rendered from load(i) (rcs[i]
// with its values), and an error from load stops the rendering. The
// changes are rendered into b, flushed to w whenever b holds
// planFlushSize bytes or more, so output streams and memory stays
// bounded. O(changes).
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

// Loader gives the i-th resource change of a plan (in the order of its
// Changes.Resources) with its Before and After values, for a plan read
// without them (plans.UnmarshalDeferred).
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
