package replay_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
)

// clientRequest is a request as a fake executor saw it.
type clientRequest struct {
	method, path, contentType, body string
	token                           []string
}

// recordedExecutor answers every request with the recorded response —
// status, headers except the framing ones Go writes itself, body — and
// keeps the requests.
type recordedExecutor struct {
	resp message
	mu   sync.Mutex
	seen []clientRequest
}

func (e *recordedExecutor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	e.mu.Lock()
	e.seen = append(e.seen, clientRequest{
		method: r.Method, path: r.URL.RequestURI(), contentType: r.Header.Get("Content-Type"),
		body: string(b), token: r.Header.Values(api.TokenHeader),
	})
	e.mu.Unlock()
	for _, h := range e.resp.Headers {
		switch strings.ToLower(h[0]) {
		case "content-length", "connection":
		default:
			w.Header()[h[0]] = append(w.Header()[h[0]], h[1])
		}
	}
	w.WriteHeader(e.resp.Status)
	_, _ = io.WriteString(w, e.resp.Body)
}

func (e *recordedExecutor) requests() []clientRequest {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.seen
}

// executorWords are the five paths of §3; any other recorded path (the
// unknown_uri and method scenarios) is replayed as a beat, since only
// the recorded answer is being interpreted.
var executorWords = map[string]string{"/beat": "beat", "/idleBeat": "idleBeat", "/run": "run", "/kill": "kill", "/log": "log"}

// replayToExecutor asserts one admin->executor exchange: how the Go client
// reads the recorded answer (§3.1) and what it sent. It returns the number
// of checks made.
func replayToExecutor(t *testing.T, rec recording, ex exchange) int {
	t.Helper()
	fake := &recordedExecutor{resp: ex.Response}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	token := rec.token(t)
	client := api.NewClient(api.ClientConfig{AccessToken: token})
	t.Cleanup(client.CloseIdleConnections)

	word, known := executorWords[ex.Request.Path]
	if !known {
		word = "beat"
	}
	url := srv.URL + "/" + word
	got := callClient(t, client, srv.URL, word, ex.Request)
	want := expectedInterpretation(t, ex.Response, word, url)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("client read %s as\n  %s\nwant\n  %s", abbreviate(ex.Response.Body), show(got), show(want))
	}

	seen := fake.requests()
	if len(seen) != 1 {
		t.Fatalf("fake executor saw %d requests", len(seen))
	}
	var wantToken []string
	if token != "" {
		wantToken = []string{token}
	}
	r := seen[0]
	if r.method != http.MethodPost || r.path != "/"+word || r.contentType != "application/json;charset=UTF-8" || !reflect.DeepEqual(r.token, wantToken) {
		t.Errorf("client sent %s %s content-type %q token %q", r.method, r.path, r.contentType, r.token)
	}
	return 2
}

// replyView is a client result reduced to what callers use.
type replyView struct {
	Code    int
	Msg     *string
	Content any
}

func show(v replyView) string {
	b, _ := json.Marshal(v)
	return abbreviate(string(b))
}

func abbreviate(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// callClient calls the client method for word; the parameters are the
// recorded request's when it decodes, since only the answer matters here.
func callClient(t *testing.T, c *api.Client, address, word string, req message) replyView {
	t.Helper()
	ctx := context.Background()
	body := []byte(req.Body)
	switch word {
	case "run":
		var p api.TriggerParam
		_ = json.Unmarshal(body, &p)
		return view(c.Run(ctx, address, p))
	case "idleBeat":
		var p api.IdleBeatParam
		_ = json.Unmarshal(body, &p)
		return view(c.IdleBeat(ctx, address, p))
	case "kill":
		var p api.KillParam
		_ = json.Unmarshal(body, &p)
		return view(c.Kill(ctx, address, p))
	case "log":
		var p api.LogParam
		_ = json.Unmarshal(body, &p)
		return view(c.Log(ctx, address, p))
	default:
		return view(c.Beat(ctx, address))
	}
}

func view[T any](r api.ReturnT[T]) replyView {
	v := replyView{Code: r.Code, Msg: r.Msg}
	if r.Content != nil {
		v.Content = *r.Content
	}
	return v
}

// expectedInterpretation derives, from the recorded answer alone, what
// §3.1 says the admin makes of it: the StatusCode failure for a non-200
// status, the content-invalid failure for a body that is not a JSON
// object, else the object's code, msg and (for /log) LogResult.
func expectedInterpretation(t *testing.T, resp message, word, url string) replyView {
	t.Helper()
	if resp.Status != http.StatusOK {
		return failView("xxl-job remoting fail, StatusCode(" + strconv.Itoa(resp.Status) + ") invalid. for url : " + url)
	}
	var obj map[string]any
	if len(resp.BodyJSON) > 0 {
		obj, _ = decodeJSON(t, resp.BodyJSON).(map[string]any)
	}
	if obj == nil {
		return failView("xxl-job remoting (url=" + url + ") response content invalid(" + resp.Body + ").")
	}
	v := replyView{}
	if c, ok := obj["code"]; ok {
		v.Code = int(num(t, c))
	}
	if m, ok := obj["msg"].(string); ok {
		v.Msg = &m
	}
	if c, ok := obj["content"].(map[string]any); ok && word == "log" {
		v.Content = api.LogResult{
			FromLineNum: int(num(t, c["fromLineNum"])),
			ToLineNum:   int(num(t, c["toLineNum"])),
			LogContent:  c["logContent"].(string),
			IsEnd:       c["isEnd"].(bool),
		}
	} else if s, ok := obj["content"].(string); ok {
		v.Content = s
	}
	return v
}

func failView(msg string) replyView { return replyView{Code: api.CodeFail, Msg: &msg} }
