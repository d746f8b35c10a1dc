package render

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
)

// dataPlan is a plan of n creates of a terraform_data-like resource type
// (the shape bench/run.sh plans), with its schema.
func dataPlan(n int) *plans.Plan {
	block := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":               {Type: cty.String, Computed: true},
		"input":            {Type: cty.DynamicPseudoType, Optional: true},
		"output":           {Type: cty.DynamicPseudoType, Computed: true},
		"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
	}}
	prov := addrs.NewBuiltInProvider("terraform")
	ty := block.ImpliedType()
	rcs := make([]*plans.ResourceInstanceChange, n)
	for i := range rcs {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: fmt.Sprintf("r%d", i)}.Instance(addrs.NoKey).Absolute(nil)
		rcs[i] = &plans.ResourceInstanceChange{
			Addr: addr, PrevRunAddr: addr,
			ProviderAddr: addrs.AbsProviderConfig{Provider: prov},
			Change: plans.Change{Action: plans.Create, Before: cty.NullVal(ty), After: cty.ObjectVal(map[string]cty.Value{
				"id": cty.UnknownVal(cty.String), "input": cty.StringVal(fmt.Sprintf("v%d", i)),
				"output": cty.UnknownVal(cty.DynamicPseudoType), "triggers_replace": cty.NullVal(cty.DynamicPseudoType),
			})},
		}
	}
	p := &plans.Plan{Changes: &plans.Changes{Resources: plans.SortedResourceChanges(rcs)}, ProviderSchemas: map[addrs.Provider]*providers.GetProviderSchemaResponse{
		prov: {ResourceTypes: map[string]providers.Schema{"terraform_data": {Block: block}}},
	}}
	return p
}

// firstChange is a writer that records when the first resource change
// (the write after the header) arrives.
type firstChange struct {
	writes int
	at     time.Time
}

func (w *firstChange) Write(p []byte) (int, error) {
	if w.writes++; w.writes == 2 {
		w.at = time.Now()
	}
	return len(p), nil
}

// BenchmarkPlanLoading is plan show's rendering of 100,000 terraform_data
// creates read from an archive without their values (decoding each
// change's values as it is rendered), to a discarding writer; the
// decoding of the rest of the plan is outside the timing. first-change-ms
// is how long the first resource change took to be written.
// Run: go test -run '^$' -bench PlanLoading -benchmem ./command/render/
func BenchmarkPlanLoading(b *testing.B) {
	enc, err := plans.Marshal(dataPlan(100000), "bench")
	if err != nil {
		b.Fatal(err)
	}
	p, vals, _, err := plans.UnmarshalDeferred(enc)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	var first time.Duration
	for range b.N {
		var w firstChange
		start := time.Now()
		if err := PlanLoading(&w, p, false, vals.Load); err != nil {
			b.Fatal(err)
		}
		first += w.at.Sub(start)
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "first-change-ms")
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// cpuTime is the process's user and system CPU time so far: on a
// machine shared with other work it measures the cost better than wall
// time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPlanRenderData is the plan command's rendering of 100,000
// terraform_data creates, their values in memory, to a discarding
// writer. Run: go test -run '^$' -bench PlanRenderData -benchmem ./command/render/
func BenchmarkPlanRenderData(b *testing.B) {
	p := dataPlan(100000)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		if err := Plan(discard{}, p, false); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}
