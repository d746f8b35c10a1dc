// Command firstbyte runs a command and reports how long its first byte of
// standard output took to appear and how long the whole command took,
// both from the start of the process, as "first_byte_s=… wall_s=…
// bytes=…" on standard error. The output itself is read and discarded.
// bench/run.sh uses it for the time-to-first-line of human plan output
// (the issue asks that a large plan's output streams).
//
// Usage: firstbyte [-after REGEXP] COMMAND ARGS...
// With -after, first_byte_s is instead the time of the first non-blank
// line after a line matching REGEXP (e.g. the first resource change after
// "will perform the following actions:"); -1 when none came.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"time"
)

func main() {
	after := flag.String("after", "", "measure the first line after one matching this regular expression")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: firstbyte [-after REGEXP] COMMAND ARGS...")
		os.Exit(2)
	}
	var re *regexp.Regexp
	if *after != "" {
		var err error
		if re, err = regexp.Compile(*after); err != nil {
			fmt.Fprintln(os.Stderr, "firstbyte:", err)
			os.Exit(2)
		}
	}
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "firstbyte:", err)
		os.Exit(1)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "firstbyte:", err)
		os.Exit(1)
	}
	var first time.Duration = -1
	var n int64
	if re == nil {
		buf := make([]byte, 1<<16)
		for {
			k, err := out.Read(buf)
			if k > 0 && first < 0 {
				first = time.Since(start)
			}
			n += int64(k)
			if err != nil {
				break
			}
		}
	} else {
		r := bufio.NewReaderSize(out, 1<<16)
		matched := false
		for {
			line, err := r.ReadSlice('\n')
			if len(line) > 0 {
				if matched && first < 0 && len(bytes.TrimSpace(line)) > 0 {
					first = time.Since(start)
				}
				if !matched && re.Match(line) {
					matched = true
				}
			}
			n += int64(len(line))
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				break
			}
		}
	}
	werr := cmd.Wait()
	wall := time.Since(start)
	fmt.Fprintf(os.Stderr, "first_byte_s=%.3f wall_s=%.3f bytes=%d\n", first.Seconds(), wall.Seconds(), n)
	if werr != nil {
		fmt.Fprintln(os.Stderr, "firstbyte:", werr)
		os.Exit(1)
	}
}
