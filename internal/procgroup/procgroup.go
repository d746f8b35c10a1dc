// Package procgroup runs child processes (local-exec provisioners) so that
// an interrupt sent to plankit alone reaches them too.
//
// A CI system's cancel button or `timeout` signals the plankit process,
// not its process group; a child in plankit's group never hears of it.
// So each child gets a process group of its own: when the command's
// context ends (the first interrupt), the whole group receives SIGINT, as
// a terminal's Ctrl-C would deliver it, and SIGKILL if it is still
// running after a grace period; Set.KillAll kills every group at once
// (the second interrupt, just before plankit exits). Killing the group,
// not just the shell, also stops the commands the shell started, which
// would otherwise hold the output pipe open.
package procgroup

import (
	"os/exec"
	"sync"
	"time"
)

// Grace is how long a child may take to exit after SIGINT before its group
// is killed.
const Grace = 10 * time.Second

// TermDelay is how long a child has after SIGINT before its group also
// gets SIGTERM.
const TermDelay = 2 * time.Second

// Set is the process groups of the children that are running. The zero
// value is ready; a nil *Set tracks nothing. Safe for concurrent use.
type Set struct {
	mu     sync.Mutex
	groups map[int]bool
}

func (s *Set) add(pgid int) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.groups == nil {
		s.groups = map[int]bool{}
	}
	s.groups[pgid] = true
}

func (s *Set) remove(pgid int) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.groups, pgid)
}

// KillAll sends SIGKILL to the process group of every running child and
// returns when the signals are sent. O(children).
func (s *Set) KillAll() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for pgid := range s.groups {
		killGroup(pgid)
	}
}

// Run starts cmd (built with exec.CommandContext) in a process group of
// its own, tracked by s while it runs, and waits for it. When the
// context ends, the group gets SIGINT, SIGTERM after TermDelay (a
// process that cannot see SIGINT, such as a shell started with it
// ignored, still stops promptly) and SIGKILL after Grace.
func (s *Set) Run(cmd *exec.Cmd) error {
	var mu sync.Mutex
	finished := false
	setGroup(cmd)
	cmd.Cancel = func() error {
		pid := cmd.Process.Pid
		err := interruptGroup(pid)
		time.AfterFunc(TermDelay, func() {
			mu.Lock()
			defer mu.Unlock()
			if !finished { // never signal a group id that may have been reused
				terminateGroup(pid)
			}
		})
		time.AfterFunc(Grace, func() {
			mu.Lock()
			defer mu.Unlock()
			if !finished { // never signal a group id that may have been reused
				killGroup(pid)
			}
		})
		return err
	}
	// After SIGINT, Wait stops waiting for output a little after the
	// group is killed, even if a stray process kept the pipe open.
	cmd.WaitDelay = Grace + 2*time.Second
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	s.add(pid)
	err := cmd.Wait()
	mu.Lock()
	finished = true
	mu.Unlock()
	s.remove(pid)
	return err
}
