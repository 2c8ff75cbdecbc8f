package api

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

// direct calls executors at plain http:// addresses over its own pool of
// keep-alive HTTP/1.1 connections: the request goes out in one write and
// the answer is read by the calling goroutine — a plain one (readPlain)
// straight from the connection's buffer, any other by net/http's own
// response reader. net/http's Transport runs two goroutines per connection
// and hands every request and answer between them; at thousands of
// triggers a second that hand-off cost about as much admin CPU as the
// whole rest of a trigger (issue 11). Every behaviour of the Transport
// path holds here too — timeouts and their texts, the call limit, answer
// caps, no redirects, no proxy — and https addresses still use it.
type direct struct {
	dialer  *net.Dialer
	maxIdle int
	idleFor time.Duration

	mu   sync.Mutex
	idle map[string][]*dconn // host:port → idle connections, oldest first
}

// dconn is one pooled connection.
type dconn struct {
	net.Conn
	br     *bufio.Reader
	since  time.Time // idle since
	reused bool
	probe  openProbe // stillOpen's state, made once per connection
}

// target is where and what one direct call sends.
type target struct {
	hostport string
	head     string // request line and headers, up to Content-Length's value
}

func newDirect(dialer *net.Dialer, maxIdle int, idleFor time.Duration) *direct {
	return &direct{dialer: dialer, maxIdle: maxIdle, idleFor: idleFor, idle: map[string][]*dconn{}}
}

// target prepares a direct call to u, or reports that u is not a plain
// http:// URL the direct path takes (the caller then uses net/http, which
// also produces the error texts of malformed addresses).
func (d *direct) target(u, token string) (target, bool) {
	if len(u) < 7 || u[:7] != "http://" {
		return target{}, false
	}
	p, err := url.Parse(u)
	if err != nil || p.Scheme != "http" || p.User != nil || p.Host == "" || !validHeader(p.Host) {
		return target{}, false
	}
	hostport := p.Host
	if p.Port() == "" {
		hostport = net.JoinHostPort(p.Hostname(), "80")
	}
	var b bytes.Buffer
	b.Grow(256)
	// The headers net/http sends for the same request, in its order.
	b.WriteString("POST " + p.RequestURI() + " HTTP/1.1\r\nHost: " + p.Host + "\r\nUser-Agent: Go-http-client/1.1\r\n")
	b.WriteString("Accept-Charset: application/json;charset=UTF-8\r\nContent-Type: application/json;charset=UTF-8\r\n")
	if !isTrimBlank(token) {
		if !validHeader(token) {
			return target{}, false // net/http refuses it with its own error
		}
		b.WriteString(TokenHeader + ": " + token + "\r\n")
	}
	b.WriteString("Content-Length: ")
	return target{hostport: hostport, head: b.String()}, true
}

// validHeader reports whether v can be sent as a header value as is.
func validHeader(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// aLongTimeAgo is a deadline in the past: it aborts a blocked read or write.
var aLongTimeAgo = time.Unix(1, 0)

// exchange sends one POST, the body in buf[start:] after headRoom(t)
// bytes of room for the head, and reads its answer: the status, the answer
// of a 200, or the failure text (as the net/http path words it). Each wait
// for data may last idle; the whole call at most limit.
func (d *direct) exchange(ctx context.Context, t target, buf []byte, start int, idle, limit time.Duration, maxBody int64) (int, []byte, string) {
	if err := ctx.Err(); err != nil {
		return 0, nil, err.Error()
	}
	deadline := time.Now().Add(limit)
	req := frame(t, buf, start)
	for attempt := 0; ; attempt++ {
		c, err := d.get(ctx, t.hostport, deadline)
		if err != nil {
			return 0, nil, failureText(ctx, err, deadline, limit, false)
		}
		stop := context.AfterFunc(ctx, func() { _ = c.SetDeadline(aLongTimeAgo) })
		_ = c.SetWriteDeadline(deadline)
		n, err := c.Write(req)
		if err != nil {
			stop()
			_ = c.Close()
			// Nothing left on a connection the executor had closed while
			// idle: safe to send again, as net/http does.
			if n == 0 && c.reused && attempt == 0 && ctx.Err() == nil {
				continue
			}
			return 0, nil, failureText(ctx, err, deadline, limit, false)
		}
		// The wait for the answer's first byte is here, not in readDirect:
		// the executor may close a keep-alive connection just as it is
		// reused — the request goes out, then EOF or a reset comes back
		// before a byte of answer. Executors close only between requests,
		// so it was not taken; send it once more on a new connection, as
		// Java's HttpURLConnection does with a POST on a cached connection.
		_ = c.SetReadDeadline(earliest(time.Now().Add(idle), deadline))
		if _, err := c.br.Peek(1); err != nil {
			stop()
			_ = c.Close()
			if closedUnanswered(err) && c.reused && attempt == 0 && ctx.Err() == nil {
				continue
			}
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF // as http.ReadResponse words an answer that never began
			}
			return 0, nil, failureText(ctx, err, deadline, limit, true)
		}
		status, answer, reuse, err := readDirect(c, idle, deadline, maxBody)
		if !stop() { // the context ended meanwhile: the deadlines are spoilt
			reuse = false
		}
		if reuse {
			_ = c.SetDeadline(time.Time{})
			d.put(t.hostport, c)
		} else {
			_ = c.Close()
		}
		if err != nil {
			return 0, nil, failureText(ctx, err, deadline, limit, true)
		}
		return status, answer, ""
	}
}

// closedUnanswered tells whether err ended a connection before any
// answer: the executor's FIN or reset, not a timeout.
func closedUnanswered(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)
}

// failureText words a transport error as the net/http path does: the
// call limit's text when it was reached, the context's when it ended, else
// transportErrorText.
func failureText(ctx context.Context, err error, deadline time.Time, limit time.Duration, reading bool) string {
	var big errTooLarge
	switch {
	case errors.As(err, &big):
		return big.Error()
	case !time.Now().Before(deadline):
		return "Read timed out (no complete answer within " + limit.String() + ")"
	case ctx.Err() != nil:
		return ctx.Err().Error()
	}
	return transportErrorText(err, reading)
}

// errTooLarge is an answer over its cap.
type errTooLarge int64

func (e errTooLarge) Error() string {
	return fmt.Sprintf("response body larger than %d bytes", int64(e))
}

// readDirect reads one answer from c, whose first byte the caller waited
// for under the read deadline it set: its status and, for a 200, its body
// (at most maxBody bytes, line breaks removed, invalid UTF-8 replaced, as
// readAnswer does). reuse tells whether the connection may serve another
// call.
func readDirect(c *dconn, idle time.Duration, deadline time.Time, maxBody int64) (status int, answer []byte, reuse bool, err error) {
	if answer, reuse, ok, err := readPlain(c.br, maxBody); err != nil {
		return 0, nil, false, err
	} else if ok {
		return http.StatusOK, answer, reuse, nil
	}
	arm := func() { _ = c.SetReadDeadline(earliest(time.Now().Add(idle), deadline)) }
	var resp *http.Response
	for {
		if resp, err = http.ReadResponse(c.br, nil); err != nil {
			return 0, nil, false, err
		}
		// An interim answer (100 Continue, 103 Early Hints) precedes the
		// real one.
		if resp.StatusCode < 100 || resp.StatusCode >= 200 || resp.StatusCode == http.StatusSwitchingProtocols {
			break
		}
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		n, err := io.Copy(io.Discard, &rearmReader{r: io.LimitReader(resp.Body, 64<<10), arm: arm})
		return resp.StatusCode, nil, err == nil && n < 64<<10 && !resp.Close, nil
	}
	if resp.ContentLength > maxBody {
		return 0, nil, false, errTooLarge(maxBody)
	}
	size := 512
	if resp.ContentLength > 0 {
		size = int(resp.ContentLength) + 1 // +1: EOF is seen without growing
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	if _, err := buf.ReadFrom(&rearmReader{r: io.LimitReader(resp.Body, maxBody+1), arm: arm}); err != nil {
		return 0, nil, false, err
	}
	if int64(buf.Len()) > maxBody {
		return 0, nil, false, errTooLarge(maxBody)
	}
	b := dropLineBreaks(buf.Bytes())
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	return resp.StatusCode, b, !resp.Close, nil
}

func earliest(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// rearmReader moves the read deadline before every read, so each wait for
// data may last the idle timeout (Java's socket read timeout).
type rearmReader struct {
	r   io.Reader
	arm func()
}

func (r *rearmReader) Read(p []byte) (int, error) {
	r.arm()
	return r.r.Read(p)
}

// get returns an idle connection to hostport that is still open, or dials
// a new one.
func (d *direct) get(ctx context.Context, hostport string, deadline time.Time) (*dconn, error) {
	now := time.Now()
	for {
		d.mu.Lock()
		list := d.idle[hostport]
		if len(list) == 0 {
			d.mu.Unlock()
			break
		}
		c := list[len(list)-1] // the newest: the likeliest to be open
		d.idle[hostport] = list[:len(list)-1]
		d.mu.Unlock()
		if now.Sub(c.since) < d.idleFor && stillOpen(c) {
			c.reused = true
			return c, nil
		}
		_ = c.Close()
	}
	dctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	nc, err := d.dialer.DialContext(dctx, "tcp", hostport)
	if err != nil {
		return nil, err
	}
	return &dconn{Conn: nc, br: bufio.NewReaderSize(nc, 4<<10)}, nil
}

// put keeps a connection for the next call to hostport, closing those idle
// too long and the oldest beyond maxIdle.
func (d *direct) put(hostport string, c *dconn) {
	now := time.Now()
	c.since = now
	var drop []*dconn
	d.mu.Lock()
	list := append(d.idle[hostport], c)
	for len(list) > 0 && (len(list) > d.maxIdle || now.Sub(list[0].since) >= d.idleFor) {
		drop = append(drop, list[0])
		list = list[1:]
	}
	d.idle[hostport] = list
	d.mu.Unlock()
	for _, c := range drop {
		_ = c.Close()
	}
}

// closeIdle closes every pooled connection.
func (d *direct) closeIdle() {
	d.mu.Lock()
	all := d.idle
	d.idle = map[string][]*dconn{}
	d.mu.Unlock()
	for _, list := range all {
		for _, c := range list {
			_ = c.Close()
		}
	}
}
