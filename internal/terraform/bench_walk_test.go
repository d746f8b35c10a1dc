package terraform

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/plankit/plankit/bench/gen"
)

// BenchmarkPlanWalkPerInstance plans 10,000 terraform_data instances, as
// independent resources and as one count resource, and reports the walk's
// cost per instance (ns and allocations; configuration loading excluded):
// go test ./terraform -run '^$' -bench PlanWalkPerInstance -benchmem
func BenchmarkPlanWalkPerInstance(b *testing.B) {
	const n = 10000
	for _, shape := range []gen.Shape{gen.Independent, gen.Count} {
		b.Run(fmt.Sprintf("%s-%d", shape, n), func(b *testing.B) {
			src, err := gen.Config(shape, n)
			if err != nil {
				b.Fatal(err)
			}
			cfg := loadConfig(b, map[string]string{"main.tf": src})
			c := builtinContext(b)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for b.Loop() {
				p, diags := c.Plan(context.Background(), cfg, nil, nil)
				if diags.HasErrors() {
					b.Fatal(diags.Error())
				}
				if got := len(p.Changes.Resources); got != n {
					b.Fatalf("%d changes", got)
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/instance")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(b.N*n), "allocs/instance")
		})
	}
}
