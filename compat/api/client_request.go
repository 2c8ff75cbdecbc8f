package api

import (
	"strconv"
	"sync"
)

// destination is where calls of one executor address and path word go:
// the URL (also the text of every failure) and, for a plain http://
// address, the direct path's target. Computing it parsed the URL and built
// the request head anew for every trigger.
type destination struct {
	url    string
	blank  bool // the address is blank: no call is made
	direct bool
	target target
}

type destKey struct{ address, word string }

// maxDestinations bounds the cache: addresses come from registrations and
// "run once" overrides, a few per executor, but nothing else limits them.
const maxDestinations = 4096

// destinations caches each (address, word)'s destination for one Client,
// whose token is fixed.
type destinations struct {
	mu sync.RWMutex
	m  map[destKey]destination
}

func (c *Client) destination(address, word string) destination {
	k := destKey{address, word}
	c.dests.mu.RLock()
	d, ok := c.dests.m[k]
	c.dests.mu.RUnlock()
	if ok {
		return d
	}
	d = destination{url: ExecutorURL(address, word), blank: isTrimBlank(address)}
	if !d.blank {
		d.target, d.direct = c.direct.target(d.url, c.token)
	}
	c.dests.mu.Lock()
	if len(c.dests.m) >= maxDestinations {
		clear(c.dests.m)
	}
	c.dests.m[k] = d
	c.dests.mu.Unlock()
	return d
}

// outgoing is one request being made: its destination and its bytes. For
// the direct path buf starts with room for the request head (start bytes),
// which exchange fills in once the body's length is known, so the head and
// the body go out in one write without being copied together.
type outgoing struct {
	dest  destination
	buf   []byte
	start int // where the body begins in buf
}

// maxPooledRequest is the largest request buffer kept for reuse: a GLUE
// source can make a /run body of megabytes, which should not stay pinned.
const maxPooledRequest = 64 << 10

var outgoingPool = sync.Pool{New: func() any { return &outgoing{buf: make([]byte, 0, 1024)} }}

// headRoom is the room a direct request's head needs before its body: the
// head up to Content-Length's value, the value (at most 20 digits) and the
// blank line.
func headRoom(t target) int { return len(t.head) + 20 + len("\r\n\r\n") }

// outgoing starts a request to address's word; the caller appends the body
// to buf and hands it to call, which releases it.
func (c *Client) outgoing(address, word string) *outgoing {
	r := outgoingPool.Get().(*outgoing)
	r.dest = c.destination(address, word)
	r.start = 0
	if r.dest.direct {
		r.start = headRoom(r.dest.target)
	}
	r.buf = append(r.buf[:0], make([]byte, r.start)...)
	return r
}

func release(r *outgoing) {
	if cap(r.buf) > maxPooledRequest {
		return
	}
	r.dest = destination{}
	outgoingPool.Put(r)
}

// frame writes the head before buf[start:], the body, and returns the
// request's bytes: head, Content-Length value, blank line, body.
func frame(t target, buf []byte, start int) []byte {
	var digits [20]byte
	n := strconv.AppendInt(digits[:0], int64(len(buf)-start), 10)
	at := start - len("\r\n\r\n") - len(n) - len(t.head)
	w := at
	w += copy(buf[w:], t.head)
	w += copy(buf[w:], n)
	copy(buf[w:], "\r\n\r\n")
	return buf[at:]
}
