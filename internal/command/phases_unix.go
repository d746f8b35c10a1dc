//go:build unix

package command

import (
	"runtime"
	"syscall"
	"time"
)

// processUsage returns the CPU time (user + system) the process has used
// and its peak resident set size in bytes.
func processUsage() (cpu time.Duration, peakRSS int64) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, 0
	}
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	peakRSS = int64(ru.Maxrss)
	if runtime.GOOS != "darwin" { // kilobytes everywhere but macOS
		peakRSS *= 1024
	}
	return cpu, peakRSS
}
