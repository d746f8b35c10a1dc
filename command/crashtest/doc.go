// Package crashtest kills the real apply binary with SIGKILL at many points
// of an apply of generated local_file resources (random moments, right
// after an object's file appears, right after and during state writes, and
// during an apply -destroy) and checks what the next run finds: a state
// that parses, no state entry without its file and no created file the
// state does not know except the operations in flight (at most
// -parallelism, each named by the next plan's warning), a stale-lock
// command that works without a terminal, no temporary or journal files
// left, and a follow-up apply that converges to a clean re-plan. It takes about a minute, so it is behind a build
// tag; .ci/run runs it:
//
//	go test -tags crashtest ./command/crashtest/
//
// -crash.trials sets the number of random kills (the boundary kills come on
// top). The test logs the distribution of unrecorded files per kill.
package crashtest
