package api

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// §3.1 URL join.
func TestExecutorURL(t *testing.T) {
	tests := []struct{ address, word, want string }{
		{"http://10.0.0.5:9999", "run", "http://10.0.0.5:9999/run"},
		{"http://10.0.0.5:9999/", "beat", "http://10.0.0.5:9999/beat"},
		{"http://h/exec/", "run", "http://h/exec/run"},
		{"http://h/exec", "idleBeat", "http://h/exec/idleBeat"},
		{" \thttp://h:1/ \n", "log", "http://h:1/log"},
	}
	for _, tt := range tests {
		if got := ExecutorURL(tt.address, tt.word); got != tt.want {
			t.Errorf("ExecutorURL(%q, %q) = %q, want %q", tt.address, tt.word, got, tt.want)
		}
	}
}

// captured is one request as the fake executor saw it.
type captured struct {
	method, path, contentType, body string
	token                           []string
}

// fakeExecutor answers every request with a fixed status and body and
// records the requests.
type fakeExecutor struct {
	mu       sync.Mutex
	requests []captured
	status   int
	body     string
}

func (f *fakeExecutor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.requests = append(f.requests, captured{
		method: r.Method, path: r.URL.RequestURI(), contentType: r.Header.Get("Content-Type"),
		body: string(b), token: r.Header.Values(TokenHeader),
	})
	status, body := f.status, f.body
	f.mu.Unlock()
	w.Header().Set("content-type", "text/html;charset=UTF-8")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func newFakeExecutor(t *testing.T, status int, body string) (*fakeExecutor, *httptest.Server) {
	t.Helper()
	f := &fakeExecutor{status: status, body: body}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func newTestClient(t *testing.T, cfg ClientConfig) *Client {
	t.Helper()
	c := NewClient(cfg)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// §3.1 request shape, checked against admin_client_probe's recorded bodies.
func TestClientRequestShape(t *testing.T) {
	f, srv := newFakeExecutor(t, 200, `{"code":200}`)
	ctx := context.Background()
	c := newTestClient(t, ClientConfig{AccessToken: testToken})
	c.Beat(ctx, srv.URL)
	c.IdleBeat(ctx, srv.URL, IdleBeatParam{JobID: 401})
	c.Run(ctx, srv.URL+"/", TriggerParam{JobID: 402, ExecutorHandler: ptr("demoJobHandler"), LogID: 1052, LogDateTime: 1795328526855, GlueType: "BEAN"})
	c.Log(ctx, " "+srv.URL, LogParam{LogDateTim: 1795328526855, LogID: 1051, FromLineNum: 1})
	c.Kill(ctx, srv.URL, KillParam{JobID: 401})
	open := newTestClient(t, ClientConfig{AccessToken: " \t"})
	open.Beat(ctx, srv.URL)

	want := []captured{
		{path: "/beat", body: `""`, token: []string{testToken}},
		{path: "/idleBeat", body: `{"jobId":401}`, token: []string{testToken}},
		{path: "/run", body: `{"jobId":402,"executorHandler":"demoJobHandler","executorTimeout":0,"logId":1052,"logDateTime":1795328526855,"glueType":"BEAN","glueUpdatetime":0,"broadcastIndex":0,"broadcastTotal":0}`, token: []string{testToken}},
		{path: "/log", body: `{"logDateTim":1795328526855,"logId":1051,"fromLineNum":1}`, token: []string{testToken}},
		{path: "/kill", body: `{"jobId":401}`, token: []string{testToken}},
		{path: "/beat", body: `""`}, // blank token: no header (§4)
	}
	if len(f.requests) != len(want) {
		t.Fatalf("%d requests, want %d", len(f.requests), len(want))
	}
	for i, w := range want {
		w.method, w.contentType = "POST", "application/json;charset=UTF-8"
		if !reflect.DeepEqual(f.requests[i], w) {
			t.Errorf("request %d: %+v\nwant %+v", i, f.requests[i], w)
		}
	}
}

// §3.1 status check and body parse, §5.2 newer executors.
func TestClientInterpretsAnswers(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   ReturnT[string]
		// invalid: the expected msg is the "response content invalid" text
		// with this body; badStatus: the StatusCode text.
		invalid   string
		badStatus bool
	}{
		{name: "success", status: 200, body: `{"code":200}`, want: Success[string]()},
		{name: "failure", status: 200, body: `{"code":500,"msg":"job handler [x] not found."}`, want: Fail[string]("job handler [x] not found.")},
		{name: "full-width colon", status: 200, body: `{"code":500,"msg":"block strategy effect：Discard Later"}`, want: Fail[string]("block strategy effect：Discard Later")},
		{name: "gson escapes", status: 200, body: `{"code":500,"msg":"\u003e\u003e x \u0027y\u0027"}`, want: Fail[string](">> x 'y'")},
		{name: "3.2 Success msg", status: 200, body: `{"code":200,"msg":"Success"}`, want: ReturnT[string]{Code: 200, Msg: ptr("Success")}},
		{name: "3.3 data", status: 200, body: `{"code":200,"msg":"Success","data":"job thread already killed."}`, want: ReturnT[string]{Code: 200, Msg: ptr("Success"), Content: ptr("job thread already killed.")}},
		{name: "lines joined", status: 200, body: "{\"code\":\r\n500,\n\"msg\":\"a\"}\n", want: Fail[string]("a")},
		{name: "http 500", status: 500, body: `{"code":200}`, badStatus: true},
		{name: "http 413", status: 413, badStatus: true},
		{name: "http 204", status: 204, badStatus: true},
		{name: "empty body", status: 200, body: ``, invalid: ``},
		{name: "whitespace body", status: 200, body: " \r\n ", invalid: "  "},
		{name: "null body", status: 200, body: `null`, invalid: `null`},
		{name: "html", status: 200, body: "<html>\n<body>x</body>\n</html>", invalid: "<html><body>x</body></html>"},
		{name: "invalid utf-8", status: 200, body: "\xff{", invalid: "\uFFFD{"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, srv := newFakeExecutor(t, tt.status, tt.body)
			c := newTestClient(t, ClientConfig{AccessToken: testToken})
			got := c.Kill(context.Background(), srv.URL, KillParam{JobID: 1})
			url := srv.URL + "/kill"
			want := tt.want
			switch {
			case tt.badStatus:
				want = Fail[string]("xxl-job remoting fail, StatusCode(" + strconv.Itoa(tt.status) + ") invalid. for url : " + url)
			case tt.want.Code == 0:
				want = Fail[string]("xxl-job remoting (url=" + url + ") response content invalid(" + tt.invalid + ").")
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v (%s)\nwant %+v (%s)", got, got.MsgText(), want, want.MsgText())
			}
		})
	}
}

// §3.6 LogResult, including the 3.3+ data envelope.
func TestClientLog(t *testing.T) {
	for _, body := range []string{
		`{"code":200,"content":{"fromLineNum":1,"toLineNum":0,"logContent":"readLog fail, logFile not exists","isEnd":true}}`,
		`{"code":200,"msg":"Success","data":{"fromLineNum":1,"toLineNum":0,"logContent":"readLog fail, logFile not exists","isEnd":true}}`,
	} {
		_, srv := newFakeExecutor(t, 200, body)
		c := newTestClient(t, ClientConfig{})
		got := c.Log(context.Background(), srv.URL, LogParam{LogID: 1, FromLineNum: 1})
		want := LogResult{FromLineNum: 1, LogContent: "readLog fail, logFile not exists", IsEnd: true}
		if got.Code != 200 || got.Content == nil || *got.Content != want {
			t.Errorf("%s: got %+v", body, got)
		}
	}
}

func TestClientTransportErrors(t *testing.T) {
	ctx := context.Background()
	c := newTestClient(t, ClientConfig{})
	t.Run("connection refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := "http://" + ln.Addr().String()
		_ = ln.Close()
		got := c.Run(ctx, addr, TriggerParam{})
		assertRemotingError(t, got, "", addr+"/run")
	})
	t.Run("no scheme", func(t *testing.T) {
		got := c.Run(ctx, "10.0.0.5:9999", TriggerParam{})
		assertRemotingError(t, got, "", "10.0.0.5:9999/run")
	})
	t.Run("blank address", func(t *testing.T) {
		got := c.Run(ctx, "  ", TriggerParam{})
		assertRemotingError(t, got, "executor address is blank", "/run")
	})
	t.Run("cancelled context", func(t *testing.T) {
		_, srv := newFakeExecutor(t, 200, `{"code":200}`)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		assertRemotingError(t, c.Beat(cctx, srv.URL), "", srv.URL+"/beat")
	})
}

// §3.1 timeouts: a silent executor is given up after Timeout, both before
// the headers and in the middle of the body.
func TestClientReadTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/kill" { // headers and half a body, then silence
			w.WriteHeader(200)
			_, _ = io.WriteString(w, `{"code":`)
			w.(http.Flusher).Flush()
		}
		<-release
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs before srv.Close
	c := newTestClient(t, ClientConfig{Timeout: 50 * time.Millisecond})
	assertRemotingError(t, c.Beat(context.Background(), srv.URL), "Read timed out", srv.URL+"/beat")
	assertRemotingError(t, c.Kill(context.Background(), srv.URL, KillParam{}), "Read timed out", srv.URL+"/kill")
}

func TestClientResponseLimit(t *testing.T) {
	_, srv := newFakeExecutor(t, 200, `{"code":200,"msg":"0123456789"}`)
	c := newTestClient(t, ClientConfig{MaxResponseBytes: 16})
	assertRemotingError(t, c.Beat(context.Background(), srv.URL), "response body larger than 16 bytes", srv.URL+"/beat")
}

func TestClientDoesNotFollowRedirects(t *testing.T) {
	srv := httptest.NewServer(http.RedirectHandler("/elsewhere", http.StatusFound))
	t.Cleanup(srv.Close)
	c := newTestClient(t, ClientConfig{})
	got := c.Beat(context.Background(), srv.URL)
	if want := "xxl-job remoting fail, StatusCode(302) invalid. for url : " + srv.URL + "/beat"; got.MsgText() != want {
		t.Errorf("got %q", got.MsgText())
	}
}

// Keep-alive: sequential calls to one executor share a connection.
func TestClientReusesConnections(t *testing.T) {
	var mu sync.Mutex
	conns := 0
	f := &fakeExecutor{status: 200, body: `{"code":200}`}
	srv := httptest.NewUnstartedServer(f)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			mu.Lock()
			conns++
			mu.Unlock()
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	c := newTestClient(t, ClientConfig{})
	for range 5 {
		if got := c.IdleBeat(context.Background(), srv.URL, IdleBeatParam{JobID: 1}); !got.OK() {
			t.Fatalf("got %+v", got)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if conns != 1 {
		t.Errorf("%d connections for 5 calls", conns)
	}
}

// §3.1 TLS: any certificate is accepted unless VerifyTLS is set.
func TestClientTLS(t *testing.T) {
	srv := httptest.NewTLSServer(&fakeExecutor{status: 200, body: `{"code":200}`})
	t.Cleanup(srv.Close)
	if got := newTestClient(t, ClientConfig{}).Beat(context.Background(), srv.URL); !got.OK() {
		t.Errorf("self-signed refused: %+v %s", got, got.MsgText())
	}
	got := newTestClient(t, ClientConfig{VerifyTLS: true}).Beat(context.Background(), srv.URL)
	assertRemotingError(t, got, "", srv.URL+"/beat")
}

// assertRemotingError checks the §3.1 transport error text; an empty
// detail accepts any (JDK-specific) exception message.
func assertRemotingError[T any](t *testing.T, got ReturnT[T], detail, url string) {
	t.Helper()
	msg := got.MsgText()
	prefix, suffix := "xxl-job remoting error(", "), for url : "+url
	if got.Code != CodeFail || !strings.HasPrefix(msg, prefix) || !strings.HasSuffix(msg, suffix) {
		t.Errorf("got %d %q, want remoting error for %s", got.Code, msg, url)
		return
	}
	if detail != "" && msg != prefix+detail+suffix {
		t.Errorf("got %q, want detail %q", msg, detail)
	}
}

// Attack 2 (slow drip): an executor that answers a 200 header and then one
// byte at a time, each within the read timeout, is given up after the call
// limit; Java's per-read timeout restarts with every byte and never ends.
func TestAttackSlowDripExecutor(t *testing.T) {
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-r.Context().Done():
				return
			case <-tick.C:
				if _, err := io.WriteString(w, " "); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) })
	c := newTestClient(t, ClientConfig{Timeout: time.Second, CallLimit: 200 * time.Millisecond})
	want := "Read timed out (no complete answer within 200ms)"
	assertRemotingError(t, c.Run(context.Background(), srv.URL, TriggerParam{JobID: 1}), want, srv.URL+"/run")
	assertRemotingError(t, c.Beat(context.Background(), srv.URL), want, srv.URL+"/beat")
	assertRemotingError(t, c.Log(context.Background(), srv.URL, LogParam{LogID: 1}), want, srv.URL+"/log")
}

// Attack 3 (huge answers): /run, /beat, /idleBeat and /kill answers are
// capped at MaxResponseBytes — streamed or announced — and /log has its own
// larger cap.
func TestAttackHugeExecutorAnswer(t *testing.T) {
	page := `{"code":200,"content":{"fromLineNum":1,"toLineNum":1,"logContent":"` + strings.Repeat("x", 200<<10) + `","isEnd":true}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/log":
			_, _ = io.WriteString(w, page)
		case "/kill": // announced: refused before a byte is read
			w.Header().Set("Content-Length", strconv.Itoa(50<<20))
			w.WriteHeader(200)
		default: // streamed without a length: abandoned at the cap
			w.WriteHeader(200)
			chunk := strings.Repeat("y", 32<<10)
			for range 50 << 20 / len(chunk) {
				if _, err := io.WriteString(w, chunk); err != nil {
					return
				}
			}
		}
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, ClientConfig{})
	want := "response body larger than 65536 bytes"
	assertRemotingError(t, c.Run(context.Background(), srv.URL, TriggerParam{}), want, srv.URL+"/run")
	assertRemotingError(t, c.Beat(context.Background(), srv.URL), want, srv.URL+"/beat")
	assertRemotingError(t, c.IdleBeat(context.Background(), srv.URL, IdleBeatParam{}), want, srv.URL+"/idleBeat")
	assertRemotingError(t, c.Kill(context.Background(), srv.URL, KillParam{}), want, srv.URL+"/kill")
	got := c.Log(context.Background(), srv.URL, LogParam{LogID: 1})
	if !got.OK() || got.Content == nil || len(got.Content.LogContent) != 200<<10 {
		t.Fatalf("log page refused: %d %.200s", got.Code, got.MsgText())
	}
	small := newTestClient(t, ClientConfig{MaxLogResponseBytes: 100 << 10})
	assertRemotingError(t, small.Log(context.Background(), srv.URL, LogParam{LogID: 1}), "response body larger than 102400 bytes", srv.URL+"/log")
}
