//go:build unix

package plugin

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers"
)

// selfCPU is the user+system CPU time of this process.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPlanRPC measures PlanResourceChange round trips (create of a
// small object) to the framework provider ("fw") and to the
// terraform-plugin-go one ("raw"), one call at a time and with 10 in
// flight (the core's default parallelism), reporting plankit's CPU per
// call beside the wall time.
func BenchmarkPlanRPC(b *testing.B) {
	for _, which := range []string{"raw", "fw"} {
		for _, par := range []int{1, 10} {
			b.Run(fmt.Sprintf("%s/parallel=%d", which, par), func(b *testing.B) {
				p, _ := testProviderB(b, which)
				typeName := which + "test_thing"
				s := p.GetProviderSchema().ResourceTypes[typeName].Block
				cfg := with(s, map[string]cty.Value{"name": cty.StringVal("a"), "value": cty.StringVal("v")})
				null := cty.NullVal(s.ImpliedType())
				call := func() {
					r := p.PlanResourceChange(providers.PlanResourceChangeRequest{TypeName: typeName, PriorState: null, ProposedNewState: cfg, Config: cfg})
					if r.Diagnostics.HasErrors() {
						b.Error(r.Diagnostics.Error())
					}
				}
				call()
				cpu0 := selfCPU()
				b.ResetTimer()
				if par == 1 {
					for b.Loop() {
						call()
					}
				} else {
					b.SetParallelism(par) // × GOMAXPROCS goroutines
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							call()
						}
					})
				}
				b.StopTimer()
				b.ReportMetric(float64((selfCPU()-cpu0).Nanoseconds())/1e3/float64(b.N), "plankit-cpu-µs/op")
			})
		}
	}
}

// BenchmarkValidateProviderRPC measures the cheapest round trip.
func BenchmarkValidateProviderRPC(b *testing.B) {
	for _, which := range []string{"fw", "sdk"} {
		b.Run(which, func(b *testing.B) {
			p, _ := testProviderB(b, which)
			s := p.GetProviderSchema().Provider.Block
			for b.Loop() {
				r := p.ValidateProviderConfig(providers.ValidateProviderConfigRequest{Config: s.EmptyValue()})
				if r.Diagnostics.HasErrors() {
					b.Error(r.Diagnostics.Error())
				}
			}
		})
	}
}
