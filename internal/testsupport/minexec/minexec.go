// Package minexec is the cheapest executor a benchmark can call: every
// request of every connection gets the same answer, each read by its
// Content-Length into a reused buffer, so the executor's own allocations
// stay out of what the benchmark measures of the admin's side. It imports
// nothing of the project, so compat/api's own tests can use it.
package minexec

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"testing"
)

// Success is the Java executor's whole HTTP answer to a successful /run.
const Success = "HTTP/1.1 200 OK\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: 23\r\n\r\n{\"code\":200,\"msg\":null}"

// Start listens on loopback until the test ends, answers every request with
// answer (a whole HTTP response) and returns the executor's address
// (http://127.0.0.1:port/).
func Start(tb testing.TB, answer string) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	out := []byte(answer)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serve(c, out)
		}
	}()
	return "http://" + ln.Addr().String() + "/"
}

func serve(c net.Conn, answer []byte) {
	defer c.Close()
	br := bufio.NewReaderSize(c, 8<<10)
	var body []byte
	for {
		length := 0
		for first := true; ; first = false {
			line, err := br.ReadSlice('\n')
			if err != nil {
				return
			}
			if !first && len(bytes.TrimSpace(line)) == 0 {
				break
			}
			if k, v, ok := bytes.Cut(line, []byte(":")); ok && bytes.EqualFold(k, []byte("Content-Length")) {
				for _, d := range bytes.TrimSpace(v) {
					length = length*10 + int(d-'0')
				}
			}
		}
		if cap(body) < length {
			body = make([]byte, length)
		}
		if _, err := io.ReadFull(br, body[:length]); err != nil {
			return
		}
		if _, err := c.Write(answer); err != nil {
			return
		}
	}
}
