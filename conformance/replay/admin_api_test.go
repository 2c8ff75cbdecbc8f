package replay_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/apidiff"
)

// javaAnswers is what the Java 2.4.2 admin answers its executor API
// (executor-protocol.md §2.1, §2.4, §2.5), as conformance/apidiff recorded
// it from the real jar and checks it on every CI run. The recorded
// response of these exchanges is the recording admin's canned answer
// (README), so it is not the reference; in callback_failure_retry it is
// even a refusal.
const javaAnswers = "../testdata/java-admin-api.json"

// javaAnswer is the Java admin's answer to one apidiff request.
func javaAnswer(t *testing.T, name string) apidiff.Answer {
	t.Helper()
	all, err := apidiff.LoadGolden(javaAnswers)
	if err != nil {
		t.Fatal(err)
	}
	a, ok := all[name]
	if !ok {
		t.Fatalf("%s has no answer %q", javaAnswers, name)
	}
	return a
}

// assertJavaAnswer compares an answer of ours with the Java admin's:
// status, Content-Type (known deviations reported) and body.
func assertJavaAnswer(t *testing.T, name string, status int, contentType, body string) {
	t.Helper()
	want := javaAnswer(t, name)
	got := apidiff.Answer{Status: status, Headers: map[string]string{"Content-Type": contentType}, Body: body}
	want.Headers = map[string]string{"Content-Type": want.Headers["Content-Type"]}
	diffs, known := apidiff.Diff(want, got, false)
	for _, d := range diffs {
		t.Errorf("answer differs from the Java admin's %q: %s", name, d)
	}
	for _, k := range known {
		t.Logf("known deviation: %s", k)
	}
}

// fakeStore records what reached the Registry and Callbacks interfaces.
type fakeStore struct {
	mu        sync.Mutex
	registry  []api.RegistryParam
	removed   []api.RegistryParam
	callbacks [][]api.HandleCallbackParam
}

func (f *fakeStore) Registry(_ context.Context, p api.RegistryParam) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.registry = append(f.registry, p)
	return nil
}

func (f *fakeStore) RegistryRemove(_ context.Context, p api.RegistryParam) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removed = append(f.removed, p)
	return nil
}

func (f *fakeStore) Callback(_ context.Context, items []api.HandleCallbackParam) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.callbacks = append(f.callbacks, items)
	return nil
}

func (f *fakeStore) snapshot() (reg, rem []api.RegistryParam, cb [][]api.HandleCallbackParam) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.registry, f.removed, f.callbacks
}

// adminServer runs the API handler mounted under the context path the way
// the admin mounts it (http.StripPrefix).
func adminServer(t *testing.T, contextPath, token string) (*httptest.Server, *fakeStore) {
	t.Helper()
	store := &fakeStore{}
	h := api.NewHandler(api.HandlerConfig{AccessToken: token, Registry: store, Callbacks: store, Log: zerolog.Nop()})
	mux := http.NewServeMux()
	mux.Handle(contextPath+"/", http.StripPrefix(contextPath, h))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, store
}

// sendRaw writes the recorded request to the server byte for byte —
// request line, headers in their recorded order and case, body — and
// reads the answer.
func sendRaw(t *testing.T, srv *httptest.Server, req message) (status int, contentType, body string) {
	t.Helper()
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s %s\r\n", req.Method, req.Path, req.HTTPVersion)
	for _, h := range req.Headers {
		if strings.EqualFold(h[0], "Content-Length") && h[1] != strconv.Itoa(len(req.Body)) {
			t.Fatalf("recorded Content-Length %s for a %d-byte body", h[1], len(req.Body))
		}
		fmt.Fprintf(&b, "%s: %s\r\n", h[0], h[1])
	}
	b.WriteString("\r\n")
	b.WriteString(req.Body)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := conn.Write(b.Bytes()); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = res.Body.Close() }()
	got, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header.Get("Content-Type"), string(got)
}

// replayToAdmin asserts one executor->admin exchange (spec §2); it returns
// the number of checks made.
func replayToAdmin(t *testing.T, rec recording, ex exchange) int {
	t.Helper()
	ctxPath := rec.contextPath(t)
	uri, ok := strings.CutPrefix(ex.Request.Path, ctxPath+"/api/")
	if !ok {
		t.Fatalf("path %s is not under %s/api/", ex.Request.Path, ctxPath)
	}
	srv, store := adminServer(t, ctxPath, rec.token(t))
	status, ct, body := sendRaw(t, srv, ex.Request)
	assertJavaAnswer(t, uri+" ok", status, ct, body)
	reg, rem, cbs := store.snapshot()
	switch uri {
	case "registry", "registryRemove":
		got := reg
		if uri == "registryRemove" {
			got = rem
		}
		if len(got) != 1 || len(reg)+len(rem) != 1 || len(cbs) != 0 {
			t.Fatalf("%s reached the store as registry=%v remove=%v callbacks=%v", uri, reg, rem, cbs)
		}
		assertRegistry(t, ex.Request.BodyJSON, got[0])
	case "callback":
		if len(cbs) != 1 || len(reg)+len(rem) != 0 {
			t.Fatalf("callback reached the store as registry=%v remove=%v callbacks=%v", reg, rem, cbs)
		}
		assertCallbacks(t, ex.Request.BodyJSON, cbs[0])
	default:
		t.Fatalf("unexpected uri %q", uri)
	}

	// §4: the same request against an admin with another token is
	// refused, and a request without the header is refused by an admin
	// that has one; neither reaches the store.
	other := "other_token"
	if _, sent := ex.Request.header(api.TokenHeader); !sent {
		other = "default_token"
	}
	srv2, store2 := adminServer(t, ctxPath, other)
	status, ct, body = sendRaw(t, srv2, ex.Request)
	assertJavaAnswer(t, uri+" wrong token", status, ct, body)
	reg, rem, cbs = store2.snapshot()
	if n := len(reg) + len(rem) + len(cbs); n != 0 {
		t.Errorf("admin token %q: the store was reached %d times", other, n)
	}
	return 2
}

// decodeJSON parses recorded JSON independently of the code under test.
func decodeJSON(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("recorded body_json %s: %v", raw, err)
	}
	return v
}

func assertRegistry(t *testing.T, raw json.RawMessage, got api.RegistryParam) {
	t.Helper()
	m, ok := decodeJSON(t, raw).(map[string]any)
	if !ok || len(m) != 3 {
		t.Fatalf("recorded registry body %s", raw)
	}
	want := api.RegistryParam{
		RegistryGroup: m["registryGroup"].(string),
		RegistryKey:   m["registryKey"].(string),
		RegistryValue: m["registryValue"].(string),
	}
	if got != want {
		t.Errorf("store got %+v, recorded %+v", got, want)
	}
}

func assertCallbacks(t *testing.T, raw json.RawMessage, got []api.HandleCallbackParam) {
	t.Helper()
	list, ok := decodeJSON(t, raw).([]any)
	if !ok || len(list) == 0 {
		t.Fatalf("recorded callback body %s", raw)
	}
	if len(got) != len(list) {
		t.Fatalf("store got %d items, recorded %d", len(got), len(list))
	}
	for i, item := range list {
		m := item.(map[string]any)
		g := got[i]
		if num(t, m["logId"]) != g.LogID || num(t, m["logDateTim"]) != g.LogDateTim || num(t, m["handleCode"]) != int64(g.HandleCode) {
			t.Errorf("item %d: store got %+v, recorded %v", i, g, m)
		}
		msg, present := m["handleMsg"]
		switch {
		case present != (g.HandleMsg != nil):
			t.Errorf("item %d: handleMsg presence %v, recorded %v", i, g.HandleMsg != nil, present)
		case present && msg.(string) != *g.HandleMsg:
			t.Errorf("item %d: handleMsg %q, recorded %q", i, *g.HandleMsg, msg)
		}
	}
}

func num(t *testing.T, v any) int64 {
	t.Helper()
	n, ok := v.(json.Number)
	if !ok {
		t.Fatalf("recorded %v is not a number", v)
	}
	i, err := n.Int64()
	if err != nil {
		t.Fatal(err)
	}
	return i
}
