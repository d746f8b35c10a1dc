package terraform

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/plankit/plankit/bench/gen"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// BenchmarkPlanGraph measures what the plan command's graph phase does
// before the walk: schemas, moves, removed statements and the plan graph
// build, for N independent terraform_data resources and an empty state,
// and reports retained-B/resource: the live heap one built graph keeps
// (nodes, edges, per-node caches) per resource, which the whole plan walk
// holds and every collection marks.
func BenchmarkPlanGraph(b *testing.B) {
	for _, n := range []int{20000} {
		b.Run(fmt.Sprintf("independent-%d", n), func(b *testing.B) {
			src, err := gen.Config(gen.Independent, n)
			if err != nil {
				b.Fatal(err)
			}
			cfg := loadConfig(b, map[string]string{"main.tf": src})
			c := builtinContext(b)
			opts := &PlanOpts{Mode: plans.NormalMode}
			build := func() *Graph {
				st := states.NewState()
				schemas, diags := c.schemasFor(neededProviders(cfg, st))
				if diags.HasErrors() {
					b.Fatal(diags.Error())
				}
				moves, d := applyMoves(cfg, st, opts)
				if d.HasErrors() {
					b.Fatal(d.Error())
				}
				removed, d := removedStatements(cfg)
				if d.HasErrors() {
					b.Fatal(d.Error())
				}
				in := &buildInput{config: cfg, schemas: schemas, state: moves.moved, removed: removed}
				g, d := planBuilder(in).Build()
				if d.HasErrors() {
					b.Fatal(d.Error())
				}
				if got := len(g.Vertices()); got < n {
					b.Fatalf("%d nodes", got)
				}
				return g
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			g := build()
			runtime.GC()
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(g)
			retained := float64(after.HeapAlloc) - float64(before.HeapAlloc)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				build()
			}
			b.ReportMetric(retained/float64(n), "retained-B/resource")
		})
	}
}
