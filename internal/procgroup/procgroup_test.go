//go:build unix

package procgroup

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestCancelStopsGrandchildren: cancelling the context stops the shell
// and the command it started, even though the grandchild holds the output
// pipe open; exec.CommandContext alone would kill the shell and wait for
// the sleep.
func TestCancelStopsGrandchildren(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "echo ready; sleep 30; echo finished")
	var out bytes.Buffer
	pr, pw := ioPipe(t)
	cmd.Stdout = pw
	var s Set
	done := make(chan error, 1)
	go func() { done <- s.Run(cmd); pw.Close() }()
	line := make([]byte, 6)
	if _, err := pr.Read(line); err != nil || string(line) != "ready\n" {
		t.Fatalf("read %q, %v", line, err)
	}
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("a cancelled command succeeded")
		}
	case <-time.After(Grace / 2):
		t.Fatalf("the command was still running %s after the cancel", Grace/2)
	}
	_, _ = out.ReadFrom(pr)
	if strings.Contains(out.String(), "finished") || time.Since(start) > 5*time.Second {
		t.Errorf("the command ran on: %q after %s", out.String(), time.Since(start))
	}
}

// TestKillAllKillsWhatIgnoresInterrupt: a command that ignores SIGINT
// survives the cancel, and KillAll kills its whole group.
func TestKillAllKillsWhatIgnoresInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "trap '' INT; echo ready; sleep 30")
	pr, pw := ioPipe(t)
	cmd.Stdout = pw
	var s Set
	done := make(chan error, 1)
	go func() { done <- s.Run(cmd); pw.Close() }()
	line := make([]byte, 6)
	if _, err := pr.Read(line); err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-done:
		t.Fatalf("a command that ignores SIGINT stopped at the cancel")
	case <-time.After(300 * time.Millisecond):
	}
	s.KillAll()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("KillAll did not stop the command")
	}
}

// TestCancelTerminatesWhatIgnoresInterrupt: a command that ignores SIGINT
// but not SIGTERM (a shell started with SIGINT ignored, as background jobs
// of a non-interactive shell are) stops at TermDelay, long before Grace.
func TestCancelTerminatesWhatIgnoresInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "trap '' INT; trap 'exit 3' TERM; echo ready; while :; do sleep 0.1; done")
	pr, pw := ioPipe(t)
	cmd.Stdout = pw
	var s Set
	done := make(chan error, 1)
	go func() { done <- s.Run(cmd); pw.Close() }()
	line := make([]byte, 6)
	if _, err := pr.Read(line); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cancel()
	select {
	case <-done:
		if took := time.Since(start); took < TermDelay/2 {
			t.Errorf("stopped after %s, before SIGTERM was due", took)
		}
	case <-time.After(Grace - time.Second):
		t.Fatalf("a command that ignores SIGINT was still running %s after the cancel", Grace-time.Second)
	}
}
