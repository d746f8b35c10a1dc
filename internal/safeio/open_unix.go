//go:build unix

package safeio

import (
	"os"
	"syscall"
)

// openNonBlocking opens path read-only with O_NONBLOCK, so opening a FIFO
// with no writer returns at once instead of waiting for one. The flag
// changes nothing for the regular files that Open goes on to read.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
