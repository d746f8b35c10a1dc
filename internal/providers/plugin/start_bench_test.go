//go:build linux

package plugin

import (
	"syscall"
	"testing"
	"time"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/internal/providers/plugin/plugintest"
)

// BenchmarkStart measures the fixed cost of one provider process: launch,
// handshake (mTLS), GetProviderSchema, ConfigureProvider and Close, with
// plankit's own CPU per start and the provider's (its process reaped, so
// counted in RUSAGE_CHILDREN) beside the wall time. Run it with
//
//	go test -run '^$' -bench Start -benchtime 20x ./internal/providers/plugin/
func BenchmarkStart(b *testing.B) {
	bins := plugintest.Build(b)
	pa, err := addrs.ParseProviderSourceString(plugintest.RawAddress)
	if err != nil {
		b.Fatal(err)
	}
	f := Factory(Meta{Provider: pa, Version: "1.0.0", Executable: bins.Raw}, Options{})
	ru := func(who int) time.Duration {
		var r syscall.Rusage
		_ = syscall.Getrusage(who, &r)
		return time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	self0, child0 := ru(syscall.RUSAGE_SELF), ru(syscall.RUSAGE_CHILDREN)
	for b.Loop() {
		p, err := f()
		if err != nil {
			b.Fatal(err)
		}
		s := p.GetProviderSchema()
		if s.Diagnostics.HasErrors() {
			b.Fatal(s.Diagnostics.Error())
		}
		if err := p.Close(); err != nil {
			b.Fatal(err)
		}
	}
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) }
	b.ReportMetric(per(ru(syscall.RUSAGE_SELF)-self0), "plankit-cpu-µs/start")
	b.ReportMetric(per(ru(syscall.RUSAGE_CHILDREN)-child0), "provider-cpu-µs/start")
}
