package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// wireResponse is an answer as it came over the wire: the header lines in
// their order and case, the body decoded from its transfer encoding.
type wireResponse struct {
	Status  int
	Reason  string
	Headers [][2]string
	Body    []byte
}

// roundTrip sends one HTTP/1.1 request with exactly the given header lines
// (in order; Host and Content-Length are the caller's) on a new
// connection and reads the answer. Go's client would reorder and add
// headers (User-Agent, Accept-Encoding) and keeps answers' headers in a
// map; the recordings keep both sides in wire order.
func roundTrip(ctx context.Context, addr, method, target string, headers [][2]string, body string) (*wireResponse, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	defer conn.Close()
	deadline := time.Now().Add(60 * time.Second)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	if err := conn.SetDeadline(deadline); err != nil {
		return nil, err
	}
	var req bytes.Buffer
	fmt.Fprintf(&req, "%s %s HTTP/1.1\r\n", method, target)
	for _, h := range headers {
		fmt.Fprintf(&req, "%s: %s\r\n", h[0], h[1])
	}
	req.WriteString("\r\n")
	req.WriteString(body)
	if _, err := conn.Write(req.Bytes()); err != nil {
		return nil, fmt.Errorf("write %s %s: %w", method, target, err)
	}
	var raw bytes.Buffer
	br := bufio.NewReader(io.TeeReader(conn, &raw))
	resp, err := http.ReadResponse(br, &http.Request{Method: method})
	if err != nil {
		return nil, fmt.Errorf("read answer of %s %s: %w", method, target, err)
	}
	payload, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("read body of %s %s: %w", method, target, err)
	}
	head, _, ok := bytes.Cut(raw.Bytes(), []byte("\r\n\r\n"))
	if !ok {
		return nil, fmt.Errorf("answer of %s %s: no end of header", method, target)
	}
	out := &wireResponse{Status: resp.StatusCode, Body: payload}
	lines := strings.Split(string(head), "\r\n")
	// Status line: "HTTP/1.1 200 " (Tomcat sends no reason phrase).
	parts := strings.SplitN(lines[0], " ", 3)
	if len(parts) < 2 {
		return nil, fmt.Errorf("answer of %s %s: bad status line %q", method, target, lines[0])
	}
	if code, err := strconv.Atoi(parts[1]); err != nil || code != resp.StatusCode {
		return nil, fmt.Errorf("answer of %s %s: bad status line %q", method, target, lines[0])
	}
	if len(parts) == 3 {
		out.Reason = parts[2]
	}
	for _, l := range lines[1:] {
		name, value, ok := strings.Cut(l, ":")
		if !ok {
			return nil, fmt.Errorf("answer of %s %s: bad header line %q", method, target, l)
		}
		out.Headers = append(out.Headers, [2]string{name, strings.TrimSpace(value)})
	}
	return out, nil
}
