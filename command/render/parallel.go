package render

import (
	"runtime"
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
// no-ops, each followed by an empty line, to b in order, calling flush
// whenever b holds planFlushSize bytes or more. A large plan's changes
// are rendered in batches on every core while the finished batches are
// written in order, at most two batches per core ahead of the writer, so
// output streams and memory stays bounded. O(changes / cores) wall time.
func resourceChanges(b *strings.Builder, flush func() error, rcs []*plans.ResourceInstanceChange, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse, color bool) error {
	render := func(sb *strings.Builder, rc *plans.ResourceInstanceChange) {
		schema := providers.ResourceSchema(schemas, rc.ProviderAddr.Provider, rc.Addr.Resource.Resource)
		sb.WriteString(ResourceChange(rc, schema, color, false))
		sb.WriteString("\n")
	}
	workers := runtime.GOMAXPROCS(0)
	if len(rcs) < parallelRenderMin || workers < 2 {
		for _, rc := range rcs {
			if !shown(rc) {
				continue
			}
			render(b, rc)
			if b.Len() >= planFlushSize {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return ordered.Batches(len(rcs), renderBatch, workers,
		func(lo, hi int) *[]byte {
			out := renderBufs.Get().(*[]byte)
			buf := (*out)[:0]
			for _, rc := range rcs[lo:hi] {
				if shown(rc) {
					schema := providers.ResourceSchema(schemas, rc.ProviderAddr.Provider, rc.Addr.Resource.Resource)
					buf = append(append(buf, ResourceChange(rc, schema, color, false)...), '\n')
				}
			}
			*out = buf
			return out
		},
		func(out *[]byte) error {
			b.Write(*out)
			renderBufs.Put(out)
			if b.Len() >= planFlushSize {
				return flush()
			}
			return nil
		})
}
