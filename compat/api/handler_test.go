package api

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

const (
	testToken = "default_token"
	regBody   = `{"registryGroup":"EXECUTOR","registryKey":"xxl-job-executor-sample","registryValue":"http://127.0.0.1:19999/"}`
)

func failBody(msg string) string {
	return `{"code":500,"msg":` + jacksonString(msg) + `,"content":null}`
}

// serve sends one request through NewHandler mounted as in production
// (StripPrefix of the context path) and checks the always-200 JSON answer.
func serve(t *testing.T, h http.Handler, method, path string, header map[string]string, body string) (status int, got string) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	http.StripPrefix("/xxl-job-admin", h).ServeHTTP(rec, req)
	res := rec.Result()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode == http.StatusOK {
		// Plain for the controller's answers; with the charset where Java
		// answers from its exception resolver (an undecodable body).
		want := contentTypeJSON
		if strings.Contains(string(b), "invalid request body") && !strings.Contains(string(b), msgInvokeError) {
			want = contentTypeJSONException
		}
		if ct := res.Header.Get("Content-Type"); ct != want {
			t.Errorf("Content-Type %q, want %q", ct, want)
		}
	}
	return res.StatusCode, string(b)
}

// §2.2: validation order and exact messages; §2.1 routing.
func TestHandlerValidation(t *testing.T) {
	tok := map[string]string{TokenHeader: testToken}
	tests := []struct {
		name       string
		method     string
		path       string
		header     map[string]string
		body       string
		wantStatus int
		want       string
		wantCalls  int
	}{
		{name: "registry", method: "POST", path: "/xxl-job-admin/api/registry", header: tok, body: regBody, want: successBody, wantCalls: 1},
		{name: "registryRemove", method: "POST", path: "/xxl-job-admin/api/registryRemove", header: tok, body: regBody, want: successBody, wantCalls: 1},
		{name: "callback", method: "POST", path: "/xxl-job-admin/api/callback", header: tok, body: `[{"logId":1,"logDateTim":2,"handleCode":200}]`, want: successBody, wantCalls: 1},
		{name: "method before token and uri", method: "GET", path: "/xxl-job-admin/api/nope", header: map[string]string{TokenHeader: "wrong"}, want: failBody(msgMethod)},
		{name: "PUT", method: "PUT", path: "/xxl-job-admin/api/registry", header: tok, body: regBody, want: failBody(msgMethod)},
		{name: "method case-insensitive", method: "post", path: "/xxl-job-admin/api/registry", header: tok, body: regBody, want: successBody, wantCalls: 1},
		{name: "blank uri before token", method: "POST", path: "/xxl-job-admin/api/%20", want: failBody(msgURIEmpty)},
		{name: "token before uri", method: "POST", path: "/xxl-job-admin/api/nope", want: failBody(msgToken)},
		{name: "wrong token", method: "POST", path: "/xxl-job-admin/api/registry", header: map[string]string{TokenHeader: "DEFAULT_TOKEN"}, body: regBody, want: failBody(msgToken)},
		{name: "token header any case", method: "POST", path: "/xxl-job-admin/api/registry", header: map[string]string{"xxl-job-access-token": testToken}, body: regBody, want: successBody, wantCalls: 1},
		{name: "unknown uri", method: "POST", path: "/xxl-job-admin/api/foo", header: tok, want: failBody("invalid request, uri-mapping(foo) not found.")},
		{name: "uri case-sensitive", method: "POST", path: "/xxl-job-admin/api/Registry", header: tok, body: regBody, want: failBody("invalid request, uri-mapping(Registry) not found.")},
		{name: "suffix kept", method: "POST", path: "/xxl-job-admin/api/registry.json", header: tok, body: regBody, want: failBody("invalid request, uri-mapping(registry.json) not found.")},
		{name: "trailing slash", method: "POST", path: "/xxl-job-admin/api/registry/", header: tok, body: regBody, want: successBody, wantCalls: 1},
		{name: "path parameter dropped", method: "POST", path: "/xxl-job-admin/api/registry;jsessionid=1", header: tok, body: regBody, want: successBody, wantCalls: 1},
		{name: "percent-decoded", method: "POST", path: "/xxl-job-admin/api/regi%73try", header: tok, body: regBody, want: successBody, wantCalls: 1},
		{name: "two segments not routed", method: "POST", path: "/xxl-job-admin/api/a/b", header: tok, wantStatus: http.StatusNotFound},
		{name: "encoded slash not routed", method: "POST", path: "/xxl-job-admin/api/a%2Fb", header: tok, wantStatus: http.StatusNotFound},
		{name: "empty segment not routed", method: "POST", path: "/xxl-job-admin/api/", header: tok, wantStatus: http.StatusNotFound},
		{name: "outside api not routed", method: "POST", path: "/xxl-job-admin/registry", header: tok, wantStatus: http.StatusNotFound},
		{name: "registry empty body", method: "POST", path: "/xxl-job-admin/api/registry", header: tok, want: failBody("invalid request body: request body is empty or null")},
		{name: "registry blank member", method: "POST", path: "/xxl-job-admin/api/registry", header: tok, body: `{"registryGroup":"EXECUTOR","registryKey":" ","registryValue":"v"}`, want: failBody(msgIllegalArg)},
		{name: "registry missing member", method: "POST", path: "/xxl-job-admin/api/registry", header: tok, body: `{"registryGroup":"EXECUTOR","registryKey":"k"}`, want: failBody(msgIllegalArg)},
		{name: "registry any group accepted (§2.4.4)", method: "POST", path: "/xxl-job-admin/api/registry", header: tok, body: `{"registryGroup":"foo","registryKey":"k","registryValue":"v"}`, want: successBody, wantCalls: 1},
		{name: "callback empty body", method: "POST", path: "/xxl-job-admin/api/callback", header: tok, want: successBody},
		{name: "callback null", method: "POST", path: "/xxl-job-admin/api/callback", header: tok, body: `null`, want: successBody},
		{name: "callback null element skipped", method: "POST", path: "/xxl-job-admin/api/callback", header: tok, body: `[null,{"logId":3}]`, want: successBody, wantCalls: 1},
		{name: "callback object", method: "POST", path: "/xxl-job-admin/api/callback", header: tok, body: `{"logId":3}`, want: failBody("invalid request body: expected a JSON array")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := &fakeStore{}
			h := NewHandler(HandlerConfig{AccessToken: testToken, Registry: store, Callbacks: store, Log: zerolog.Nop()})
			status, got := serve(t, h, tt.method, tt.path, tt.header, tt.body)
			wantStatus := tt.wantStatus
			if wantStatus == 0 {
				wantStatus = http.StatusOK
			}
			if status != wantStatus {
				t.Fatalf("status %d, want %d (%s)", status, wantStatus, got)
			}
			if wantStatus == http.StatusOK && got != tt.want {
				t.Errorf("body %s\nwant %s", got, tt.want)
			}
			if n := store.calls(); n != tt.wantCalls {
				t.Errorf("%d calls reached the store, want %d", n, tt.wantCalls)
			}
		})
	}
}

// §4: a blank admin token accepts any token or none.
func TestHandlerBlankTokenIsOpen(t *testing.T) {
	for _, configured := range []string{"", "  "} {
		store := &fakeStore{}
		h := NewHandler(HandlerConfig{AccessToken: configured, Registry: store, Callbacks: store, Log: zerolog.Nop()})
		for _, header := range []map[string]string{nil, {TokenHeader: "anything"}} {
			if _, got := serve(t, h, "POST", "/xxl-job-admin/api/registry", header, regBody); got != successBody {
				t.Errorf("token %q, header %v: %s", configured, header, got)
			}
		}
	}
}

// A path without the leading slash (StripPrefix of "/xxl-job-admin/") is
// routed too.
func TestHandlerRelativePathWithoutSlash(t *testing.T) {
	store := &fakeStore{}
	h := NewHandler(HandlerConfig{AccessToken: testToken, Registry: store, Callbacks: store, Log: zerolog.Nop()})
	req := httptest.NewRequest("POST", "/xxl-job-admin/api/registry", strings.NewReader(regBody))
	req.Header.Set(TokenHeader, testToken)
	rec := httptest.NewRecorder()
	http.StripPrefix("/xxl-job-admin/", h).ServeHTTP(rec, req)
	if rec.Body.String() != successBody || len(store.registered) != 1 {
		t.Errorf("got %s, %d registered", rec.Body.String(), len(store.registered))
	}
}

func TestHandlerPassesDecodedValues(t *testing.T) {
	store := &fakeStore{}
	h := NewHandler(HandlerConfig{AccessToken: testToken, Registry: store, Callbacks: store, Log: zerolog.Nop()})
	tok := map[string]string{TokenHeader: testToken}
	serve(t, h, "POST", "/xxl-job-admin/api/registry", tok, regBody)
	serve(t, h, "POST", "/xxl-job-admin/api/callback", tok, `[{"logId":1046,"logDateTim":1795328512775,"handleCode":500,"handleMsg":"boom"},{"logId":1047,"logDateTim":1795328512881,"handleCode":200}]`)
	want := RegistryParam{RegistryGroup: "EXECUTOR", RegistryKey: "xxl-job-executor-sample", RegistryValue: "http://127.0.0.1:19999/"}
	if len(store.registered) != 1 || store.registered[0] != want {
		t.Errorf("registered %+v", store.registered)
	}
	if len(store.callbacks) != 1 || len(store.callbacks[0]) != 2 ||
		store.callbacks[0][0].LogID != 1046 || *store.callbacks[0][0].HandleMsg != "boom" ||
		store.callbacks[0][1].HandleMsg != nil || store.callbacks[0][1].HandleCode != 200 {
		t.Errorf("callbacks %+v", store.callbacks)
	}
}

// Design decision: a failed or slow store answers code 500 so that the
// executor retries (§2.5 executor side).
func TestHandlerStoreFailures(t *testing.T) {
	tok := map[string]string{TokenHeader: testToken}
	t.Run("error", func(t *testing.T) {
		store := &fakeStore{err: errors.New("db down: dsn=secret")}
		h := NewHandler(HandlerConfig{AccessToken: testToken, Registry: store, Callbacks: store, Log: zerolog.Nop()})
		if _, got := serve(t, h, "POST", "/xxl-job-admin/api/callback", tok, `[{"logId":1}]`); got != failBody("callback not processed (internal error), please retry.") {
			t.Errorf("got %s", got)
		}
		if _, got := serve(t, h, "POST", "/xxl-job-admin/api/registryRemove", tok, regBody); got != failBody("registry not processed (internal error), please retry.") {
			t.Errorf("got %s", got)
		}
	})
	t.Run("panic", func(t *testing.T) {
		store := &fakeStore{panicMsg: "boom"}
		h := NewHandler(HandlerConfig{AccessToken: testToken, Registry: store, Callbacks: store, Log: zerolog.Nop()})
		if _, got := serve(t, h, "POST", "/xxl-job-admin/api/registry", tok, regBody); got != failBody("registry not processed (internal error), please retry.") {
			t.Errorf("got %s", got)
		}
	})
	t.Run("timeout even when the store ignores its context", func(t *testing.T) {
		store := &fakeStore{release: make(chan struct{}), finished: make(chan struct{})}
		h := NewHandler(HandlerConfig{AccessToken: testToken, CallTimeout: 20 * time.Millisecond, Registry: store, Callbacks: store, Log: zerolog.Nop()})
		_, got := serve(t, h, "POST", "/xxl-job-admin/api/callback", tok, `[{"logId":1}]`)
		close(store.release)
		<-store.finished // the abandoned call ends; goleak checks nothing is left
		if got != failBody("callback not processed within 20ms, please retry.") {
			t.Errorf("got %s", got)
		}
	})
}

// Body cap (design decision; Java has none): refused with code 500 and
// nothing reaches the store.
func TestHandlerBodyLimit(t *testing.T) {
	store := &fakeStore{}
	h := NewHandler(HandlerConfig{AccessToken: testToken, MaxBodyBytes: 16, Registry: store, Callbacks: store, Log: zerolog.Nop()})
	want := failBody("invalid request, request body larger than 16 bytes.")
	// Announced length.
	if _, got := serve(t, h, "POST", "/xxl-job-admin/api/callback", map[string]string{TokenHeader: testToken}, strings.Repeat(" ", 17)+"[]"); got != want {
		t.Errorf("announced: %s", got)
	}
	// Unknown length (chunked).
	req := httptest.NewRequest("POST", "/api/callback", io.MultiReader(strings.NewReader(strings.Repeat(" ", 17)), strings.NewReader("[]")))
	req.ContentLength = -1
	req.Header.Set(TokenHeader, testToken)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Body.String() != want {
		t.Errorf("chunked: %s", rec.Body.String())
	}
	// At the limit is fine.
	if _, got := serve(t, h, "POST", "/xxl-job-admin/api/callback", map[string]string{TokenHeader: testToken}, strings.Repeat(" ", 14)+"[]"); got != successBody {
		t.Errorf("at limit: %s", got)
	}
	if store.calls() != 0 {
		t.Errorf("store reached %d times", store.calls())
	}
}

func TestHandlerNotRoutedDelegates(t *testing.T) {
	store := &fakeStore{}
	login := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/xxl-job-admin/toLogin", http.StatusFound)
	})
	h := NewHandler(HandlerConfig{NotRouted: login, Registry: store, Callbacks: store, Log: zerolog.Nop()})
	if status, _ := serve(t, h, "POST", "/xxl-job-admin/api/a/b", nil, ""); status != http.StatusFound {
		t.Errorf("status %d", status)
	}
}

// Attack 1 (stalled request bodies): a client that announces a body and
// never sends it is answered and its connection closed at once when the
// request is refused before the body is read (wrong token, unknown uri,
// wrong method); net/http would otherwise wait for the body forever.
func TestAttackStalledBodyRefused(t *testing.T) {
	store := &fakeStore{}
	srv := httptest.NewServer(http.StripPrefix("/xxl-job-admin", NewHandler(HandlerConfig{AccessToken: testToken, Registry: store, Callbacks: store, Log: zerolog.Nop()})))
	t.Cleanup(srv.Close)
	for _, tt := range []struct{ name, request string }{
		{"wrong token", "POST /xxl-job-admin/api/registry HTTP/1.1\r\nHost: x\r\nXXL-JOB-ACCESS-TOKEN: wrong\r\nContent-Length: 100\r\n\r\n"},
		{"no token", "POST /xxl-job-admin/api/callback HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"},
		{"unknown uri", "POST /xxl-job-admin/api/nope HTTP/1.1\r\nHost: x\r\nXXL-JOB-ACCESS-TOKEN: " + testToken + "\r\nContent-Length: 100\r\n\r\n"},
		{"wrong method", "PUT /xxl-job-admin/api/registry HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"},
		{"chunked", "POST /xxl-job-admin/api/registry HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, tt.request); err != nil {
				t.Fatal(err)
			}
			// A guard only: the server closes at once when it works.
			_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			all, err := io.ReadAll(conn) // returns when the server closes
			if err != nil {
				t.Fatalf("connection held open: %v (read %q)", err, all)
			}
			if !strings.HasPrefix(string(all), "HTTP/1.1 200 OK\r\n") || !strings.Contains(string(all), `"code":500`) {
				t.Errorf("answer %q", all)
			}
		})
	}
	if store.calls() != 0 {
		t.Errorf("%d calls reached the store", store.calls())
	}
}

// Attack 9 (length checks depend on the backend): a registration longer
// than its column is refused up front with Java's Illegal Argument answer,
// before any store sees it, so SQLite and MariaDB answer alike.
func TestAttackOverlongRegistration(t *testing.T) {
	tok := map[string]string{TokenHeader: testToken}
	huge := strings.Repeat("x", 1<<20)
	for _, tt := range []struct{ name, body, want string }{
		{"1 MiB value", `{"registryGroup":"EXECUTOR","registryKey":"k","registryValue":"` + huge + `"}`, "Illegal Argument. registryValue is longer than 255 characters."},
		{"long key", `{"registryGroup":"EXECUTOR","registryKey":"` + strings.Repeat("k", 256) + `","registryValue":"v"}`, "Illegal Argument. registryKey is longer than 255 characters."},
		{"long group", `{"registryGroup":"` + strings.Repeat("g", 51) + `","registryKey":"k","registryValue":"v"}`, "Illegal Argument. registryGroup is longer than 50 characters."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			store := &fakeStore{}
			h := NewHandler(HandlerConfig{AccessToken: testToken, MaxBodyBytes: 20 << 20, Registry: store, Callbacks: store, Log: zerolog.Nop()})
			for _, uri := range []string{"registry", "registryRemove"} {
				if _, got := serve(t, h, "POST", "/xxl-job-admin/api/"+uri, tok, tt.body); got != failBody(tt.want) {
					t.Errorf("%s: %.200s", uri, got)
				}
			}
			if store.calls() != 0 {
				t.Errorf("%d calls reached the store", store.calls())
			}
		})
	}
	// 255 four-byte characters fit: the limit counts characters, as MySQL does.
	store := &fakeStore{}
	h := NewHandler(HandlerConfig{AccessToken: testToken, Registry: store, Callbacks: store, Log: zerolog.Nop()})
	body := `{"registryGroup":"EXECUTOR","registryKey":"k","registryValue":"` + strings.Repeat("😀", 255) + `"}`
	if _, got := serve(t, h, "POST", "/xxl-job-admin/api/registry", tok, body); got != successBody {
		t.Errorf("255 characters refused: %s", got)
	}
}

// Attack 10 (log amplification): wrong tokens are logged once a minute,
// and a refused registration's value is cut in the log.
func TestAttackLogAmplification(t *testing.T) {
	var buf strings.Builder
	store := &fakeStore{err: errors.New("database down")}
	h := NewHandler(HandlerConfig{AccessToken: testToken, Registry: store, Callbacks: store, Log: zerolog.New(&buf)})
	for range 1000 {
		serve(t, h, "POST", "/xxl-job-admin/api/registry", map[string]string{TokenHeader: "wrong"}, regBody)
	}
	big := `{"registryGroup":"EXECUTOR","registryKey":"k","registryValue":"` + strings.Repeat("😀", 255) + `"}`
	serve(t, h, "POST", "/xxl-job-admin/api/registry", map[string]string{TokenHeader: testToken}, big)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d log lines for 1000 wrong tokens and one failed registration:\n%s", len(lines), buf.String())
	}
	if len(lines[1]) > 1024 {
		t.Errorf("log line of %d bytes: %s", len(lines[1]), lines[1])
	}
}
