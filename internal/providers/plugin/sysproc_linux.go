package plugin

import (
	"os/exec"
	"runtime"
	"syscall"
)

// setProcAttr gives the provider its own process group (so a terminal's
// Ctrl-C reaches plankit, which stops providers in order, rather than the
// providers directly) and makes the kernel SIGKILL it when plankit dies.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills what is left of the provider's process group.
func killGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

func lockThread()   { runtime.LockOSThread() }
func unlockThread() { runtime.UnlockOSThread() }
