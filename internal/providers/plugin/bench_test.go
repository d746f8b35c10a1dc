//go:build linux

package plugin_test

import (
	"context"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/providers/plugin"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/states"
)

// cpuTime is the user+system CPU time of this process and of its reaped
// children (the provider processes, once CleanupClients has run).
func cpuTime() (self, children time.Duration) {
	get := func(who int) time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			return 0
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return get(syscall.RUSAGE_SELF), get(syscall.RUSAGE_CHILDREN)
}

// BenchmarkPluginPlanApply plans and applies N resources of a plugin
// provider over gRPC (one provider process) and, in the same run for an
// A/B comparison, N in-process terraform_data resources. Run it with
//
//	go test -run '^$' -bench PluginPlanApply -benchtime 1x ./internal/providers/plugin/
//
// Per resource it reports wall time of plan and apply; plankit's own CPU
// time (user+system of this process) for the plan and for the apply; the
// plan's CPU overhead against the built-in (plugin plan CPU minus
// terraform_data plan CPU: what the gRPC path costs plankit); the
// providers' CPU; and the number of provider processes started per plan
// and per apply; and the heap allocations per resource of the plugin plan
// and of the built-in one (a measure the machine's load does not blur).
// Wall times depend on the machine's load and on the
// provider's own speed; the CPU figures are plankit's.
func BenchmarkPluginPlanApply(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, kind := range []string{"rawtest", "fwtest"} {
			b.Run(fmt.Sprintf("%s/%d", kind, n), func(b *testing.B) {
				f := newCoreFixture(b)
				plugCfg := f.config(benchConfig(kind, n))
				var m benchSums
				for b.Loop() {
					m.run(b, f, plugCfg)
				}
				plugin.CleanupClients()
				_, children := cpuTime()
				m.provCPU = children - m.children0
				// The built-in, measured in the same run.
				var builtin benchSums
				dataCfg := f.config(benchConfig("terraform_data", n))
				builtin.run(b, f, dataCfg)

				per := func(d time.Duration, runs int) float64 {
					return float64(d.Nanoseconds()) / 1e3 / float64(runs) / float64(n)
				}
				b.ReportMetric(per(m.planWall, m.runs), "plan-µs/resource")
				b.ReportMetric(per(m.applyWall, m.runs), "apply-µs/resource")
				b.ReportMetric(per(m.planCPU, m.runs), "plan-cpu-µs/resource")
				b.ReportMetric(per(m.applyCPU, m.runs), "apply-cpu-µs/resource")
				b.ReportMetric(per(builtin.planCPU, builtin.runs), "builtin-plan-cpu-µs/resource")
				b.ReportMetric(per(m.planCPU, m.runs)-per(builtin.planCPU, builtin.runs), "plan-overhead-cpu-µs/resource")
				b.ReportMetric(per(m.provCPU, m.runs), "provider-cpu-µs/resource")
				perN := func(x uint64, runs int) float64 { return float64(x) / float64(runs) / float64(n) }
				b.ReportMetric(perN(m.planAllocs, m.runs), "plan-allocs/resource")
				b.ReportMetric(perN(builtin.planAllocs, builtin.runs), "builtin-plan-allocs/resource")
				b.ReportMetric(float64(m.planProcs)/float64(m.runs), "plan-processes")
				b.ReportMetric(float64(m.applyProcs)/float64(m.runs), "apply-processes")
			})
		}
	}
}

// benchSums adds up the measures of plan/apply runs.
type benchSums struct {
	runs                  int
	planWall, applyWall   time.Duration
	planCPU, applyCPU     time.Duration
	provCPU, children0    time.Duration
	planProcs, applyProcs int64
	planAllocs            uint64 // heap allocations (all goroutines)
}

func mallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}

// run plans cfg against an empty state and applies the plan, each with a
// Context of its own (as the plan and apply commands have).
func (m *benchSums) run(b *testing.B, f *coreFixture, cfg *configs.Config) {
	if m.runs == 0 {
		_, m.children0 = cpuTime()
	}
	m.runs++
	procs0 := plugin.ProcessesStarted()
	allocs0 := mallocs()
	self0, _ := cpuTime()
	start := time.Now()
	p, diags := f.newContext().Plan(context.Background(), cfg, states.NewState(), &terraform.PlanOpts{})
	if diags.HasErrors() {
		b.Fatal(diags.Error())
	}
	m.planWall += time.Since(start)
	self1, _ := cpuTime()
	m.planCPU += self1 - self0
	m.planAllocs += mallocs() - allocs0
	procs1 := plugin.ProcessesStarted()
	m.planProcs += procs1 - procs0
	checkAllCreate(b, p)

	start = time.Now()
	if _, diags := f.newContext().Apply(context.Background(), p, cfg, nil); diags.HasErrors() {
		b.Fatal(diags.Error())
	}
	m.applyWall += time.Since(start)
	self2, _ := cpuTime()
	m.applyCPU += self2 - self1
	m.applyProcs += plugin.ProcessesStarted() - procs1
}

func checkAllCreate(b *testing.B, p *plans.Plan) {
	for _, ch := range p.Changes.Resources {
		if ch.Action != plans.Create || ch.Addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
			b.Fatalf("%s: %s, want create", ch.Addr, ch.Action)
		}
	}
}
