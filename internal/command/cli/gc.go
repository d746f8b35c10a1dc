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
// data: 100,000 resources peak about 10% lower for the same CPU. Setting
// GOGC or GOMEMLIMIT in the environment turns this off.
//
// Why not less headroom for small runs, though a 4,000-resource command
// touches 80-130 MB of fresh memory (18-24k minor page faults: touching
// 256 MiB alone takes 0.10-0.12 s of kernel time here, about 2 µs a
// fault)? Because the collections that would let it reuse memory cost
// more than the faults they save. Making faults cheaper does not pay
// either: MADV_POPULATE_WRITE saves about 15% of that kernel time, and
// MADV_HUGEPAGE took 0.03-0.6 s for the same 256 MiB (compaction). Medians of 9
// interleaved runs at 4,000 independent resources (CPU s user+sys, peak
// RSS MiB, minor faults), this pacing / a first collection at 4 MB then
// 32 MiB of headroom / Go's default GOGC=100:
//
//	plan -out       0.185  89 17.9k / 0.187  90 18.1k / 0.248 62 11.9k
//	plan show -json 0.135  87 17.6k / 0.144  83 16.8k / 0.170 62 12.0k
//	apply           0.318 105 21.6k / 0.337  87 17.0k / 0.407 79 15.8k
//	no-op re-plan   0.339 114 24.2k / 0.352  93 20.1k / 0.430 86 18.8k
//
// A fixed 16 MiB of headroom cut apply's faults by a third and cost 23%
// more CPU; no headroom (GOGC=off) or 128-512 MiB at the start were no
// faster. At 100,000 resources the peak RSS of plan -out is set by the
// walk's collections at a live heap of about 450 MB (plus about 150 MB of
// partly used spans), and every 100 MB less peak costs 0.8-1 s more CPU
// in collections. Medians of 5 interleaved runs, CPU s / peak RSS MiB: one
// run, this pacing 5.95 / 829, 160 MiB of headroom 6.92 / 705, 128 MiB
// with a floor of 35 7.29 / 663; another, this pacing 5.34 / 783, 160 MiB
// 6.44 / 709, a soft memory limit of 740 MiB (or twice the live heap)
// 5.69 / 751. Those trades are left out: the memory target needs a
// smaller live heap, not more collections.
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
