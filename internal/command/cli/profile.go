package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
)

// startProfiles starts the profiles the developer environment variables
// PLANKIT_CPUPROFILE, PLANKIT_MEMPROFILE and PLANKIT_TRACE ask for (file
// paths; unset or empty: none) and returns the func that finishes them: it
// stops the CPU profile, writes the heap profile (allocations of the whole
// run, as `go tool pprof -sample_index=alloc_space` reads them) and stops
// the execution trace (`go tool trace`: which goroutine ran when, on
// which of the machine's cores — the critical path of a short run). They are for
// measuring plankit itself (bench/run.sh), not for users; a file that cannot
// be written is reported on stderr and the command runs anyway.
func startProfiles() func() {
	cpu, mem := os.Getenv("PLANKIT_CPUPROFILE"), os.Getenv("PLANKIT_MEMPROFILE")
	var stops []func()
	if cpu != "" {
		f, err := os.Create(cpu)
		if err == nil {
			err = pprof.StartCPUProfile(f)
			if err != nil {
				f.Close()
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "PLANKIT_CPUPROFILE:", err)
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if tr := os.Getenv("PLANKIT_TRACE"); tr != "" {
		f, err := os.Create(tr)
		if err == nil {
			if err = trace.Start(f); err != nil {
				f.Close()
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "PLANKIT_TRACE:", err)
		} else {
			stops = append(stops, func() { trace.Stop(); f.Close() })
		}
	}
	if mem != "" {
		runtime.MemProfileRate = 64 << 10
		stops = append(stops, func() {
			// The profile holds allocations as of the last collection:
			// collect now so it covers the whole run, not all but its end.
			runtime.GC()
			f, err := os.Create(mem)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "PLANKIT_MEMPROFILE:", err)
			}
		})
	}
	return func() {
		for _, stop := range stops {
			stop()
		}
	}
}
