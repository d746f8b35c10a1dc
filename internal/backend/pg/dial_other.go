//go:build !unix

package pg

import "syscall"

func setSendBuffer(network, address string, c syscall.RawConn) error { return nil }
