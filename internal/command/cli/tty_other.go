//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package cli

import "os"

// isTerminal reports whether f is a character device, the best guess
// without a terminal ioctl; TERM=dumb counts as no terminal.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb"
}
