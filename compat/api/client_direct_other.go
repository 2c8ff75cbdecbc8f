//go:build !unix

package api

// openProbe holds nothing here: stillOpen cannot peek.
type openProbe struct{}

// stillOpen cannot peek without waiting here: a connection the executor
// closed while it idled is found out by the call that uses it (sent again
// when nothing was written or it ended before any answer, else failed like
// any broken connection).
func stillOpen(c *dconn) bool { return c.br.Buffered() == 0 }
