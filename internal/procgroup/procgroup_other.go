//go:build !unix

package procgroup

import (
	"os"
	"os/exec"
)

// Without process groups, only the child itself is stopped.

func setGroup(*exec.Cmd) {}

func interruptGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

func terminateGroup(pid int) { killGroup(pid) }

func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
