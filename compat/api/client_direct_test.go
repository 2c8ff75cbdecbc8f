package api

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// rawExecutor answers every request on a connection with the reply given
// for the request's number (counted over all connections), then does what
// after says: "close" closes the connection; "reset" waits for the next
// request and resets the connection without reading it (the executor
// closing it just as the admin reuses it), or, with an empty answer,
// resets it at once, unanswered; anything else keeps it.
func rawExecutor(t *testing.T, reply func(n int) (answer string, after string)) (addr string, conns *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	conns = new(atomic.Int32)
	var reqs atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					_, _ = io.Copy(io.Discard, req.Body)
					answer, after := reply(int(reqs.Add(1)))
					if answer == "" && after == "reset" {
						_ = c.(*net.TCPConn).SetLinger(0)
						return
					}
					if _, err := io.WriteString(c, answer); err != nil || after == "close" {
						return
					}
					if after == "reset" {
						_, _ = br.Peek(1)
						_ = c.(*net.TCPConn).SetLinger(0)
						return
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String(), conns
}

// The direct path reads every answer form executors send: a length, a
// chunked body, a body ended by closing, an interim 100 first; a
// connection the answer says to close is not reused, and one the executor
// closed while idle, or as the call reused it, is replaced without failing
// the call.
func TestClientDirectAnswers(t *testing.T) {
	replies := []struct{ answer, after string }{
		{"HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n{\"code\":200}", ""},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"cod\r\n7\r\ne\":200}\r\n0\r\n\r\n", ""},
		{"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n{\"code\":200}", ""},
		{"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 12\r\n\r\n{\"code\":200}", "close"},
		{"HTTP/1.0 200 OK\r\n\r\n{\"code\":200}", "close"},
		{"HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n{\"code\":200}", "close"}, // closed while idle
		{"HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n{\"code\":200}", "reset"}, // reset as reused
		{"HTTP/1.1 200 OK\r\nContent-Length: 23\r\n\r\n{\"code\":500,\"msg\":\"no\"}", ""},
		{"HTTP/1.1 503 Busy\r\nContent-Length: 4\r\n\r\nbusy", ""},
	}
	addr, conns := rawExecutor(t, func(n int) (string, string) {
		r := replies[min(n, len(replies))-1]
		return r.answer, r.after
	})
	c := newTestClient(t, ClientConfig{})
	ctx := context.Background()
	for i := range 7 {
		if got := c.Beat(ctx, addr); !got.OK() {
			t.Fatalf("answer %d: %+v %s", i+1, got, got.MsgText())
		}
	}
	if got := c.Beat(ctx, addr); got.Code != 500 || got.MsgText() != "no" {
		t.Errorf("a failed ReturnT: %+v %s", got, got.MsgText())
	}
	want := "xxl-job remoting fail, StatusCode(503) invalid. for url : " + addr + "/beat"
	if got := c.Beat(ctx, addr); got.MsgText() != want {
		t.Errorf("503: %q", got.MsgText())
	}
	// 1–4 share a connection, closed by answer 4; 5 has one of its own
	// (HTTP/1.0); 6 is closed by the executor after answering, which 7
	// notices before sending or by the missing answer: it opens the
	// fourth, which 8 reuses and finds reset: 8 is sent again on the
	// fifth, which 9 shares.
	if n := conns.Load(); n != 5 {
		t.Errorf("%d connections, want 5", n)
	}
}

// A connection reset before any answer is sent again only when it was a
// reused one: on a new connection the executor itself refused the call.
func TestClientDirectResetNotResent(t *testing.T) {
	addr, conns := rawExecutor(t, func(int) (string, string) {
		return "HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n{\"code\":200}", "reset"
	})
	c := newTestClient(t, ClientConfig{})
	ctx := context.Background()
	if got := c.Beat(ctx, addr); !got.OK() {
		t.Fatalf("first: %+v %s", got, got.MsgText())
	}
	if got := c.Beat(ctx, addr); !got.OK() {
		t.Fatalf("after a reset of the reused connection: %+v %s", got, got.MsgText())
	}
	// An executor that resets every connection, unanswered.
	resetting, resets := rawExecutor(t, func(int) (string, string) { return "", "reset" })
	got := c.Beat(ctx, resetting)
	want := "xxl-job remoting error(read tcp "
	if got.OK() || !strings.HasPrefix(got.MsgText(), want) || !strings.Contains(got.MsgText(), "connection reset by peer") {
		t.Errorf("a new connection reset: %q", got.MsgText())
	}
	if n := resets.Load(); n != 1 {
		t.Errorf("%d connections to the resetting executor, want 1 (not sent again)", n)
	}
	if n := conns.Load(); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
}

// The direct path writes the request net/http would, byte for byte in the
// parts executors read (§3.1).
func TestClientDirectRequest(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	got := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		br := bufio.NewReader(c)
		req, err := http.ReadRequest(br)
		if err != nil {
			got <- err.Error()
			return
		}
		body, _ := io.ReadAll(req.Body)
		var b strings.Builder
		b.WriteString(req.Method + " " + req.RequestURI + " " + req.Proto + "\n")
		_ = req.Header.WriteSubset(&b, nil)
		b.WriteString("host=" + req.Host + " length=" + req.Header.Get("Content-Length") + "\n" + string(body))
		got <- b.String()
		_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n{\"code\":200}")
	}()
	c := newTestClient(t, ClientConfig{AccessToken: testToken})
	addr := "http://" + ln.Addr().String() + "/xxl-job-executor/"
	if r := c.Kill(context.Background(), addr, KillParam{JobID: 7}); !r.OK() {
		t.Fatalf("%+v %s", r, r.MsgText())
	}
	want := "POST /xxl-job-executor/kill HTTP/1.1\n" +
		"Accept-Charset: application/json;charset=UTF-8\r\nContent-Length: 11\r\nContent-Type: application/json;charset=UTF-8\r\n" +
		"User-Agent: Go-http-client/1.1\r\nXxl-Job-Access-Token: " + testToken + "\r\n" +
		"host=" + strings.TrimPrefix(addr[:len(addr)-len("/xxl-job-executor/")], "http://") + " length=11\n{\"jobId\":7}"
	if g := <-got; g != want {
		t.Errorf("request\n got %q\nwant %q", g, want)
	}
}

// The plain successes DecodeReturnT answers without parsing decode the
// same as parsed.
func TestDecodeReturnTPlainSuccess(t *testing.T) {
	for _, s := range []string{`{"code":200}`, `{"code":200,"msg":null}`, `{"code":200,"msg":null,"content":null}`} {
		fast, err := DecodeReturnT[LogResult]([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		slow, present, err := decodeReturnT[LogResult]([]byte(s))
		if err != nil || !present || fast.Code != slow.Code || fast.Msg != slow.Msg || fast.Content != slow.Content {
			t.Errorf("%s: fast %+v, parsed %+v (%v)", s, fast, slow, err)
		}
	}
}
