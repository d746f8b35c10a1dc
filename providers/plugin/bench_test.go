//go:build linux

package plugin_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/plankit/plankit/providers/plugin"
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

// BenchmarkPluginPlanApply plans and applies N resources of the framework
// test provider over gRPC (one provider process) and, for comparison, N
// in-process terraform_data resources, reporting microseconds per resource
// for the plan and for the apply. Run it with
//
//	go test -run '^$' -bench PluginPlanApply -benchtime 1x ./providers/plugin/
func BenchmarkPluginPlanApply(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, kind := range []string{"fwtest", "terraform_data"} {
			b.Run(fmt.Sprintf("%s/%d", kind, n), func(b *testing.B) {
				f := newCoreFixture(b)
				src := fmt.Sprintf(`resource "terraform_data" "x" {
  count = %d
  input = "v${count.index}"
}
`, n)
				if kind == "fwtest" {
					src = fmt.Sprintf(`terraform {
  required_providers {
    fwtest = { source = "plankit/fwtest" }
  }
}
resource "fwtest_thing" "x" {
  count = %d
  name  = "n${count.index}"
  value = "v"
}
`, n)
				}
				cfg := f.config(src)
				var planTime, applyTime time.Duration
				self0, children0 := cpuTime()
				for b.Loop() {
					start := time.Now()
					p, diags := f.plan(cfg, states.NewState())
					if diags.HasErrors() {
						b.Fatal(diags.Error())
					}
					planTime += time.Since(start)
					start = time.Now()
					if _, diags := f.ctx.Apply(context.Background(), p, cfg, nil); diags.HasErrors() {
						b.Fatal(diags.Error())
					}
					applyTime += time.Since(start)
				}
				// CPU time of plankit and of the (now reaped) provider
				// processes: wall time is at the mercy of the machine's load,
				// as every call crosses two processes.
				plugin.CleanupClients()
				self1, children1 := cpuTime()
				per := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) / float64(n) }
				b.ReportMetric(per(planTime), "plan-µs/resource")
				b.ReportMetric(per(applyTime), "apply-µs/resource")
				b.ReportMetric(per(self1-self0), "plankit-cpu-µs/resource")
				b.ReportMetric(per(children1-children0), "provider-cpu-µs/resource")
			})
		}
	}
}
