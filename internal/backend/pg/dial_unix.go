//go:build unix

package pg

import "syscall"

// setSendBuffer asks for a send buffer big enough for a whole state
// (capped by the kernel, net.core.wmem_max on Linux): the write of a
// multi-megabyte state then completes in one go instead of waiting for
// the server to drain a small buffer dozens of times, which costs two
// context switches each on a busy machine.
func setSendBuffer(network, address string, c syscall.RawConn) error {
	var serr error
	err := c.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF, sendBufferSize)
	})
	if err != nil {
		return err
	}
	_ = serr // a smaller buffer only costs time
	return nil
}
