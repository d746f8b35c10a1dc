// Command rusage runs a command and appends one line to a file: the wall
// time and the user and system CPU seconds of the command and of every
// descendant it waited for, with microsecond resolution, and the largest
// peak resident set size (KiB) among them (GNU time prints
// hundredths, too coarse for per-resource figures of a 1,000-resource
// run). Standard input, output and error pass through, so it can wrap a
// provider binary as well as plankit.
//
//	rusage -o FILE [-self] COMMAND [ARG...]
//
// With -self the line also counts rusage's own CPU (when it stands in for
// a provider binary, so that its cost is not left in plankit's figure).
// The exit status is the command's; a command killed by a signal makes
// rusage exit with status 128+N after writing the line.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	out := flag.String("o", "", "append the measures to this file")
	self := flag.Bool("self", false, "count rusage's own CPU too")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: rusage -o FILE [-self] COMMAND [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// Signals for the command go to it; rusage outlives it to report.
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		os.Exit(127)
	}
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	wall := time.Since(start)
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	var user, sys time.Duration
	var maxRSS int64
	if ru != nil {
		user, sys = time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
		maxRSS = ru.Maxrss // KiB on Linux
	}
	if *self {
		var me syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &me) == nil {
			user += time.Duration(me.Utime.Nano())
			sys += time.Duration(me.Stime.Nano())
		}
	}
	f, ferr := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if ferr == nil {
		fmt.Fprintf(f, "%.6f %.6f %.6f %d\n", wall.Seconds(), user.Seconds(), sys.Seconds(), maxRSS)
		ferr = f.Close()
	}
	if ferr != nil {
		fmt.Fprintln(os.Stderr, "rusage:", ferr)
	}
	code := 0
	if err != nil {
		code = 1
		if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
			switch {
			case st.Exited():
				code = st.ExitStatus()
			case st.Signaled():
				code = 128 + int(st.Signal())
			}
		}
	}
	os.Exit(code)
}
