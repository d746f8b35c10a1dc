// Package crashtest kills the real apply binary with SIGKILL at many points
// of an apply of generated local_file resources (random moments, right
// after an object's file appears, right after and during state writes,
// during an apply -destroy, and in a paced apply whose creates each run a
// short provisioner) and checks what is left: the state file alone (as
// Terraform or OpenTofu, which ignore the journal, read it) parses and,
// for the paced apply, is wrong about at most -crash.lagbound objects; the
// next plan names the journal it read, writes neither the state nor the
// journal, knows every created object except the operations in flight (at
// most -parallelism, each named by its warning); a stale-lock command
// works without a terminal; the apply of the saved plan folds the journal
// in first, saying so and recording it in terraform.tfstate.recovery.log;
// it converges to a clean re-plan that leaves the state file untouched,
// with no temporary or journal files left. TestKillDuringProvisioner kills
// the apply while a created object's provisioner runs: the object is
// recovered tainted and replaced. It takes a minute or two, so it is
// behind a build tag; .ci/run runs it:
//
//	go test -tags crashtest ./command/crashtest/
//
// -crash.trials sets the number of random kills (the boundary kills come on
// top). The test logs the distribution of unrecorded files per kill, and of
// what the state file alone is wrong about.
package crashtest
