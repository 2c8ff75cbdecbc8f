package api

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// readAnswer reads an executor's answer the way Java's client does (§3.1):
// line by line, joined without the line breaks, decoded as UTF-8. Invalid
// UTF-8 becomes U+FFFD as in Java's decoder, which also keeps the text
// storable in a utf8mb4 column when it lands in trigger_msg. Each read may
// wait at most idle for data, like a socket read timeout; cancel aborts the
// request when it expires. A non-empty failure is the transport error text.
func readAnswer(body io.Reader, idle time.Duration, cancel func(), limit int64) (text, failure string) {
	var expired atomic.Bool
	timer := time.AfterFunc(idle, func() {
		expired.Store(true)
		cancel()
	})
	defer timer.Stop()
	r := &idleReader{r: io.LimitReader(body, limit+1), timer: timer, idle: idle}
	b, err := io.ReadAll(r)
	switch {
	case err != nil && expired.Load():
		return "", readTimedOut
	case err != nil:
		return "", transportErrorText(err, true)
	case int64(len(b)) > limit:
		return "", fmt.Sprintf("response body larger than %d bytes", limit)
	}
	text = strings.NewReplacer("\r", "", "\n", "").Replace(string(b))
	return strings.ToValidUTF8(text, "\uFFFD"), ""
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
