//go:build !race

package e2etest

// raceEnabled: the tests run without -race.
const raceEnabled = false
