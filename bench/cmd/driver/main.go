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
	"github.com/plankit/plankit/providers/builtin"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/terraform"
)

func main() {
	dir := flag.String("dir", ".", "configuration directory")
	apply := flag.Bool("apply", false, "apply the plan too")
	par := flag.Int("parallelism", 10, "parallelism")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of plan (and apply) to this file")
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
	if err := run(*dir, *apply, *par); err != nil {
		fmt.Fprintln(os.Stderr, "driver:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func run(dir string, apply bool, par int) error {
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
	line := fmt.Sprintf("load=%.3fs plan=%.3fs changes=%d", tLoad.Seconds(), tPlan.Seconds(), len(plan.Changes.Resources))
	if apply {
		persists := 0
		t2 := time.Now()
		st, diags := c.Apply(context.Background(), plan, cfg, &terraform.ApplyOpts{Persist: func(*states.State) error {
			persists++
			return nil
		}})
		if diags.HasErrors() {
			return diags
		}
		line += fmt.Sprintf(" apply=%.3fs resources=%d persists=%d", time.Since(t2).Seconds(), len(st.AllResourceInstances()), persists)
	}
	fmt.Printf("%s heap_peak_mib=%.0f\n", line, float64(peakHeap())/(1<<20))
	return nil
}

// peakHeap returns the heap memory obtained from the OS (an upper bound
// of the live heap's high-water mark).
func peakHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	return s[1].Value.Uint64()
}
