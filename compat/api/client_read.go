package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// readAnswer reads an executor's answer the way Java's client does (§3.1):
// line by line, joined without the line breaks, decoded as UTF-8. Invalid
// UTF-8 becomes U+FFFD as in Java's decoder, which also keeps the text
// storable in a utf8mb4 column when it lands in trigger_msg. Each read may
// wait at most idle for data, like a socket read timeout; cancel aborts the
// request when it expires. A non-empty failure is the transport error text.
//
// The body is read once into one buffer of at most limit bytes (sized from
// Content-Length when the executor sent one) and the line breaks are
// removed in place, so an answer costs its own size in memory, not a
// multiple of it; a body over the limit is abandoned at limit+1 bytes.
func readAnswer(resp *http.Response, idle time.Duration, cancel func(), limit int64) (answer []byte, failure string) {
	if resp.ContentLength > limit {
		return nil, fmt.Sprintf("response body larger than %d bytes", limit)
	}
	var expired atomic.Bool
	timer := time.AfterFunc(idle, func() {
		expired.Store(true)
		cancel()
	})
	defer timer.Stop()
	size := 512
	if resp.ContentLength > 0 {
		size = int(resp.ContentLength) + 1 // +1: EOF is seen without growing
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	r := &idleReader{r: io.LimitReader(resp.Body, limit+1), timer: timer, idle: idle}
	_, err := buf.ReadFrom(r)
	switch {
	case err != nil && expired.Load():
		return nil, readTimedOut
	case err != nil:
		return nil, transportErrorText(err, true)
	case int64(buf.Len()) > limit:
		return nil, fmt.Sprintf("response body larger than %d bytes", limit)
	}
	b := dropLineBreaks(buf.Bytes())
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	return b, ""
}

// dropLineBreaks removes every CR and LF in place.
func dropLineBreaks(b []byte) []byte {
	if !bytes.ContainsAny(b, "\r\n") {
		return b
	}
	out := b[:0]
	for _, c := range b {
		if c != '\r' && c != '\n' {
			out = append(out, c)
		}
	}
	return out
}

// readTimedOut is the JDK's SocketTimeoutException text.
const readTimedOut = "Read timed out"

// idleReader re-arms the read timeout after every successful read.
type idleReader struct {
	r     io.Reader
	timer *time.Timer
	idle  time.Duration
}

func (i *idleReader) Read(p []byte) (int, error) {
	n, err := i.r.Read(p)
	if n > 0 {
		i.timer.Reset(i.idle)
	}
	return n, err
}

// discard drains a little of an unwanted body so that the connection can
// be reused; a large one is abandoned and the connection closed.
func discard(body io.Reader) {
	_, _ = io.Copy(io.Discard, io.LimitReader(body, 64<<10))
}

// transportErrorText is the "<exception message>" part of the remoting
// error. Timeouts use the JDK's wording ("connect timed out", "Read timed
// out"), which operators know from Java trigger logs; other errors keep
// Go's text without the repeated URL. The spec fixes only the surrounding
// text (§3.1).
func transportErrorText(err error, reading bool) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		var op *net.OpError
		if !reading && errors.As(err, &op) && op.Op == "dial" {
			return "connect timed out"
		}
		return readTimedOut
	}
	return err.Error()
}
