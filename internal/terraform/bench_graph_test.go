package terraform

import (
	"fmt"
	"testing"

	"github.com/plankit/plankit/bench/gen"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// BenchmarkPlanGraph measures what the plan command's graph phase does
// before the walk: schemas, moves, removed statements and the plan graph
// build, for N independent terraform_data resources and an empty state.
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
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
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
			}
		})
	}
}
