//go:build !linux

package plugin

import "os/exec"

// setProcAttr does nothing outside Linux: there is no Pdeathsig, and
// CleanupClients is what stops providers.
func setProcAttr(*exec.Cmd) {}

func killGroup(int) {}

func lockThread()   {}
func unlockThread() {}
