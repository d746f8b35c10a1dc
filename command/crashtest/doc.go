// Package crashtest kills the real apply binary with SIGKILL at many points
// of an apply of generated local_file resources and checks what the next
// run finds: a state that parses, no state entry without its file, at most
// -parallelism created files the state does not know, a warning naming the
// instances that were in flight, no temporary files left, and a follow-up
// apply that converges. It takes about a minute, so it is behind a build
// tag; .ci/run runs it:
//
//	go test -tags crashtest ./command/crashtest/
//
// -crash.trials sets the number of random kills (the boundary kills come on
// top). The test logs the distribution of unrecorded files per kill.
package crashtest
