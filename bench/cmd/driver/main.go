// Command driver loads a configuration directory, plans it from an empty
// state with the built-in providers and, with -apply, applies the plan,
// printing the time of each phase and the Go heap high-water mark as one
// line of key=value pairs. bench/run.sh runs it under /usr/bin/time -v for
// the process's peak RSS.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/states"
)

func main() {
	dir := flag.String("dir", ".", "configuration directory")
	apply := flag.Bool("apply", false, "apply the plan too")
	par := flag.Int("parallelism", 10, "parallelism")
	statePath := flag.String("state", "", "with -apply, persist the state to this file as the apply command does (journal and background writes)")
	journal := flag.Bool("journal", true, "with -state, keep the journal of finished operations (false: background full writes only)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of plan (and apply) to this file")
	memProfile := flag.String("memprofile", "", "write heap profiles to this file plus .plan (after plan, plan kept live) and, with -apply, .apply (after apply)")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "driver:", err)
			os.Exit(1)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "driver:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if *memProfile != "" {
		runtime.MemProfileRate = 64 << 10
	}
	if *memProfile != "" {
		stop := watchPeak(*memProfile + ".peak")
		defer stop()
	}
	var writer *filePersister
	if *statePath != "" {
		writer = &filePersister{mgr: statemgr.NewFilesystem(*statePath), journal: *journal}
	}
	if err := run(*dir, *apply, *par, *memProfile, writer); err != nil {
		fmt.Fprintln(os.Stderr, "driver:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func run(dir string, apply bool, par int, memProfile string, writer *filePersister) error {
	t0 := time.Now()
	cfg, diags := configs.LoadConfigDir(dir)
	if diags.HasErrors() {
		return diags
	}
	tLoad := time.Since(t0)
	c, diags := terraform.NewContext(&terraform.ContextOpts{Providers: builtin.Factories(), Parallelism: par})
	if diags.HasErrors() {
		return diags
	}
	t1 := time.Now()
	plan, diags := c.Plan(context.Background(), cfg, states.NewState(), &terraform.PlanOpts{})
	if diags.HasErrors() {
		return diags
	}
	tPlan := time.Since(t1)
	if err := writeHeap(memProfile, ".plan"); err != nil {
		return err
	}
	line := fmt.Sprintf("load=%.3fs plan=%.3fs changes=%d", tLoad.Seconds(), tPlan.Seconds(), len(plan.Changes.Resources))
	if apply {
		persists := 0
		t2 := time.Now()
		opts := &terraform.ApplyOpts{Persist: func(*states.State) error {
			persists++
			return nil
		}}
		if writer != nil {
			opts.State = writer
		}
		st, diags := c.Apply(context.Background(), plan, cfg, opts)
		if diags.HasErrors() {
			return diags
		}
		if err := writeHeap(memProfile, ".apply"); err != nil {
			return err
		}
		runtime.KeepAlive(st)
		line += fmt.Sprintf(" apply=%.3fs resources=%d persists=%d", time.Since(t2).Seconds(), len(st.AllResourceInstances()), persists)
		if writer != nil {
			ps := writer.p.Stats()
			line += fmt.Sprintf(" state_writes=%d state_write_s=%.3f", ps.Writes, ps.WriteTime.Seconds())
		}
	}
	fmt.Printf("%s heap_peak_mib=%.0f\n", line, float64(peakHeap())/(1<<20))
	runtime.KeepAlive(plan)
	runtime.KeepAlive(cfg)
	return nil
}

// watchPeak samples the live heap every 50ms and, each time it passes the
// previous high-water mark by a tenth, writes a heap profile to path, so the
// file ends up describing (about) the peak. The returned func stops it.
func watchPeak(path string) func() {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var high uint64
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			metrics.Read(s)
			if live := s[0].Value.Uint64(); live > high+high/10 {
				high = live
				if f, err := os.Create(path); err == nil {
					_ = pprof.Lookup("heap").WriteTo(f, 0)
					f.Close()
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

// writeHeap writes a heap profile (after a GC, so inuse_space is what the
// phase retains) to base+suffix; nothing when base is empty.
func writeHeap(base, suffix string) error {
	if base == "" {
		return nil
	}
	runtime.GC()
	f, err := os.Create(base + suffix)
	if err != nil {
		return err
	}
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// peakHeap returns the heap memory obtained from the OS (an upper bound
// of the live heap's high-water mark).
func peakHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	return s[1].Value.Uint64()
}
