package javaexec

import (
	"fmt"
	"net"
)

// FreePort asks the kernel for an unused loopback TCP port. The port is released before returning,
// so another process could take it in between; that race is accepted for tests.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("javaexec: find free port: %w", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		return 0, fmt.Errorf("javaexec: release free port %d: %w", port, err)
	}
	return port, nil
}
