package e2etest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// rssFileEnv turns the test binary into a small launcher (see rssRun).
const rssFileEnv = "PLANKIT_E2E_RSS_FILE"

// rssRun runs os.Args[1:] and writes its peak resident memory, in KiB, to
// the file named by rssFileEnv, when the test binary was started as that
// launcher; ok is false otherwise.
//
// A child's ru_maxrss counts the memory of the process it was started
// from: Go starts processes with vfork, and Linux records the shared
// address space's high-water mark at exec. Measured directly from the
// test process (hundreds of MiB under -race, with many tests running),
// every binary would look that large; started from this small launcher,
// the figure is the binary's own.
func rssRun() (code int, ok bool) {
	out := os.Getenv(rssFileEnv)
	if out == "" {
		return 0, false
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, rssFileEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	err := cmd.Run()
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			_ = os.WriteFile(out, []byte(strconv.FormatInt(ru.Maxrss, 10)), 0o600)
		}
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, true
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode(), true
	default:
		fmt.Fprintln(os.Stderr, "rssrun:", err)
		return 125, true
	}
}
