// Package testserver keeps the one throwaway server (PostgreSQL, S3) a test
// binary shares: started by the first test that needs it, stopped when the
// tests end.
package testserver

import (
	"errors"
	"os"
	"sync"
	"testing"
)

// Shared is a test binary's shared server of type S.
type Shared[S interface{ Stop() }] struct {
	// Start starts the server. An error wrapping NoServer means it is not
	// installed: Get skips the test then, except in CI (CI=true), where a
	// missing server is a failure.
	Start    func() (S, error)
	NoServer error
	// Skip is the message of a skipped test, a format for the error.
	Skip string
	// What names the server in a failure.
	What string

	once    sync.Once
	mu      sync.Mutex
	server  S
	started bool
	err     error
}

// Run runs the package's tests and stops the server, if one was started,
// afterwards. It returns the exit code for os.Exit.
func (sh *Shared[S]) Run(m *testing.M) int {
	code := m.Run()
	sh.Stop()
	return code
}

// Stop stops the server if one was started.
func (sh *Shared[S]) Stop() {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.started {
		sh.server.Stop()
		sh.started = false
	}
}

// Get returns the server, starting it on first use.
func (sh *Shared[S]) Get(t testing.TB) S {
	t.Helper()
	sh.once.Do(func() {
		s, err := sh.Start()
		sh.mu.Lock()
		defer sh.mu.Unlock()
		sh.server, sh.err, sh.started = s, err, err == nil
	})
	if sh.err != nil {
		if errors.Is(sh.err, sh.NoServer) && os.Getenv("CI") != "true" {
			t.Skipf(sh.Skip, sh.err)
		}
		t.Fatalf("starting the %s test server: %v", sh.What, sh.err)
	}
	return sh.server
}
