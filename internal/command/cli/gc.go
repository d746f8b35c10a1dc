package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The garbage collector's pacing for a plankit process. A plan or apply
// builds most of its heap once and keeps it to the end (configuration,
// graph, values), so with Go's default GOGC=100 a run collects again and
// again while that heap grows, each time marking everything built so far.
// plankit lets the heap grow by gcHeadroom beyond the live heap instead
// (GOGC = gcHeadroom/live, within [gcPercentMin, gcPercentMax]): small runs
// collect a few times instead of dozens, and large ones grow by less than
// Go's default doubling (GOGC 50 once the live heap passes twice
// gcHeadroom), so the peak memory of a large run stays closer to its live
// data. Setting GOGC or GOMEMLIMIT in the environment turns this off.
//
// Less headroom for small runs would save page faults but cost more in
// collections than the faults cost; a fixed headroom, a memory limit or
// more collections at the top trade CPU for a lower peak, while the way to
// a lower peak is a smaller live heap. The measurements behind these
// choices are in the commit that moved them out of this comment.
const (
	gcHeadroom   = 256 << 20
	gcPercentMin = 50
	gcPercentMax = 1600
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

// gcPercentFor is the GOGC that lets a live heap of live bytes grow by
// about gcHeadroom before the next collection.
func gcPercentFor(live uint64) int {
	if live == 0 {
		return gcPercentMax
	}
	p := uint64(gcHeadroom) * 100 / live
	return int(max(gcPercentMin, min(gcPercentMax, p)))
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
