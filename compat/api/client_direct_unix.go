//go:build unix

package api

import "syscall"

// stillOpen reports whether a pooled connection can take a request: the
// executor has not closed it (or sent anything unasked) while it idled.
// It peeks without waiting, which net/http's per-connection reader
// goroutine learns by blocking on every idle connection.
func stillOpen(c *dconn) bool {
	if c.br.Buffered() > 0 {
		return false
	}
	sc, ok := c.Conn.(syscall.Conn)
	if !ok {
		return true
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	open := false
	var b [1]byte
	err = raw.Read(func(fd uintptr) bool {
		n, _, rerr := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		open = n < 0 || (n == 0 && rerr != nil) // nothing to read yet: open
		open = open && (rerr == syscall.EAGAIN || rerr == syscall.EWOULDBLOCK)
		return true
	})
	return err == nil && open
}
