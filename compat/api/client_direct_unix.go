//go:build unix

package api

import "syscall"

// openProbe is what stillOpen needs of a connection, set up on its first
// use and kept: the raw connection and the peek function, which cost two
// allocations when made anew for every call.
type openProbe struct {
	raw  syscall.RawConn
	peek func(fd uintptr) bool
	open bool
	b    [1]byte
}

// stillOpen reports whether a pooled connection can take a request: the
// executor has not closed it (or sent anything unasked) while it idled.
// It peeks without waiting, which net/http's per-connection reader
// goroutine learns by blocking on every idle connection.
func stillOpen(c *dconn) bool {
	if c.br.Buffered() > 0 {
		return false
	}
	p := &c.probe
	if p.raw == nil {
		sc, ok := c.Conn.(syscall.Conn)
		if !ok {
			return true
		}
		raw, err := sc.SyscallConn()
		if err != nil {
			return false
		}
		p.raw = raw
		p.peek = func(fd uintptr) bool {
			n, _, rerr := syscall.Recvfrom(int(fd), p.b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
			p.open = n < 0 || (n == 0 && rerr != nil) // nothing to read yet: open
			p.open = p.open && (rerr == syscall.EAGAIN || rerr == syscall.EWOULDBLOCK)
			return true
		}
	}
	p.open = false
	err := p.raw.Read(p.peek)
	return err == nil && p.open
}
