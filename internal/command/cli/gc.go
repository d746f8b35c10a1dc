package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The garbage collector's pacing for a plankit process. A plan or apply
// builds most of its heap once and keeps it to the end (configuration,
// graph, values), so the pacing is set from the live heap after every
// collection (gcPercentFor) in three bands:
//
//   - below gcSmallHeap live, the heap may grow by gcSmallHeap: a small
//     run collects a few times instead of dozens (Go's default would
//     collect every few MiB while its heap is built), and a medium one
//     (thousands of resources) still collects often enough that its
//     short-lived garbage does not set the peak;
//   - from gcSmallHeap to gcLargeHeap, Go's default doubling;
//   - above gcLargeHeap the headroom shrinks as the live heap grows
//     (gcLargeHeap·gcLargeHeap/live, at least gcPercentMin percent), so a
//     very large run's peak stays near its live data: what it trades is
//     more collections of a large heap, CPU that only a smaller live heap
//     would save as well.
//
// Setting GOGC or GOMEMLIMIT in the environment turns this off.
const (
	gcMinHeap    = 4 << 20 // the runtime's own minimum heap goal at GOGC=100
	gcSmallHeap  = 64 << 20
	gcLargeHeap  = 256 << 20
	gcPercentMin = 25
)

// tuneGC starts the pacing above unless the environment sets its own.
func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	t := &gcTuner{percent: gcPercentFor(0)}
	debug.SetGCPercent(t.percent)
	t.arm()
}

// gcPercentFor is the GOGC for a live heap of live bytes (see the bands
// above). A live heap below the runtime's minimum counts as the minimum:
// the first goal, before anything is measured, is then gcSmallHeap.
func gcPercentFor(live uint64) int {
	live = max(live, gcMinHeap)
	switch {
	case live < gcSmallHeap:
		return int(gcSmallHeap * 100 / live)
	case live <= gcLargeHeap:
		return 100
	}
	r := float64(gcLargeHeap) / float64(live)
	return max(gcPercentMin, int(100*r*r))
}

// gcTuner re-reads the live heap after every collection (through a
// finalizer on an object it drops each time) and sets GOGC from it.
type gcTuner struct {
	percent int
	sample  []metrics.Sample
}

// gcSentinel is the object whose finalizer runs once per collection; it
// has a pointer so it is not batched by the tiny allocator (whose objects'
// finalizers may never run).
type gcSentinel struct {
	t   *gcTuner
	pad [2]uintptr
}

func (t *gcTuner) arm() {
	runtime.SetFinalizer(&gcSentinel{t: t}, func(s *gcSentinel) { s.t.collected() })
}

func (t *gcTuner) collected() {
	if t.sample == nil {
		t.sample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	}
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		if p := gcPercentFor(t.sample[0].Value.Uint64()); p != t.percent {
			t.percent = p
			debug.SetGCPercent(p)
		}
	}
	t.arm()
}
