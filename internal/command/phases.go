package command

import (
	"fmt"
	"io"
	"runtime/metrics"
	"strings"
	"sync"
	"time"
)

// PhasesEnv is the developer environment variable that makes plan and
// apply report each phase of their work on stderr (bench/run.sh collects
// the lines). Any non-empty value turns it on. It is for measuring plankit
// itself, not for users: the lines are not a stable interface.
const PhasesEnv = "PLANKIT_PHASES"

// phaseLog reports, when PhasesEnv is set, one line per finished phase of
// a command: its wall and CPU seconds, the heap at its end (objects
// allocated, and what the last collection found live) and the process's
// peak RSS so far (a high-water mark: a phase's own peak is the first
// line where it rises). Nil-safe: a nil *phaseLog reports nothing. The
// cost is one getrusage and one runtime/metrics read per phase.
type phaseLog struct {
	w       io.Writer
	mu      sync.Mutex
	last    time.Time
	lastCPU time.Duration
	samples []metrics.Sample
}

// phases returns m's phase log, created on first use (nil when PhasesEnv
// is unset), so that the load phase runs from the command's start.
func (m *Meta) phases() *phaseLog {
	m.phaseOnce.Do(func() {
		for _, kv := range m.Env {
			if v, ok := strings.CutPrefix(kv, PhasesEnv+"="); ok && v != "" {
				cpu, _ := processUsage()
				m.phaseLog = &phaseLog{w: m.Stderr, last: time.Now(), lastCPU: cpu, samples: []metrics.Sample{
					{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"},
				}}
			}
		}
	})
	return m.phaseLog
}

// done reports the phase that ends now, named name, and starts the next.
func (p *phaseLog) done(name string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	cpu, peak := processUsage()
	metrics.Read(p.samples)
	mib := func(s metrics.Sample) float64 {
		if s.Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return float64(s.Value.Uint64()) / (1 << 20)
	}
	fmt.Fprintf(p.w, "plankit-phase %-8s wall_s=%.3f cpu_s=%.3f heap_mib=%.0f live_mib=%.0f peak_rss_mib=%.0f\n",
		name, now.Sub(p.last).Seconds(), (cpu - p.lastCPU).Seconds(), mib(p.samples[0]), mib(p.samples[1]), float64(peak)/(1<<20))
	p.last, p.lastCPU = now, cpu
}

// coreHook is the phase callback for terraform.ContextOpts (nil when
// phases are off, so the core skips it).
func (p *phaseLog) coreHook() func(string) {
	if p == nil {
		return nil
	}
	return p.done
}
