//go:build unix && !linux

package plugin

import (
	"os/exec"
	"syscall"
)

// setProcAttr gives the provider its own process group (so a terminal's
// Ctrl-C reaches plankit, which stops providers in order). There is no
// Pdeathsig outside Linux: CleanupClients is what stops providers.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills what is left of the provider's process group.
func killGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

func lockThread()   {}
func unlockThread() {}
