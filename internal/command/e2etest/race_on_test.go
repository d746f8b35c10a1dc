//go:build race

package e2etest

// raceEnabled: the tests run with -race, so the binaries are built with it.
const raceEnabled = true
