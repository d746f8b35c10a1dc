//go:build !unix

package plugin

import "os/exec"

// setProcAttr does nothing outside Unix: there are no process groups or
// Pdeathsig, and CleanupClients is what stops providers.
func setProcAttr(*exec.Cmd) {}

func killGroup(int) {}

func lockThread()   {}
func unlockThread() {}
