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
	// The body: the client was given the recorded request's parameters,
	// so it must send them back member by member, in order, as a Java
	// admin would (Gson: null members left out); only the clock-derived
	// members the recording lists as volatile may differ.
	if known {
		assertSentBody(t, word, r.body, ex.Request.Body, clockMembers(rec.VolatileFields))
	}
	return 3
}

// assertSentBody compares what the client sent for word with the recorded
// request body. A beat is always the JSON string "" (the Java admin client
// posts GsonTool.toJson(""), recording admin_client_probe), whatever the
// recording's harness sent. A recorded body that is not a JSON object of
// the word's parameter class as Gson writes it (the malformed or partial
// bodies of the executor scenarios, written by the recording's harness)
// cannot be sent by any admin: there only the answer is checked. Otherwise the members,
// recorded nulls left out, must come in the recorded order with equal
// values.
func assertSentBody(t *testing.T, word, got, recorded string, clock map[string]bool) {
	t.Helper()
	if word == "beat" {
		if got != `""` {
			t.Errorf("beat body %s, want \"\" as the Java admin client sends", got)
		}
		return
	}
	if !decodesStrictly(word, recorded) {
		t.Logf("recorded body %s is no %s parameter an admin could send: body not compared", abbreviate(recorded), word)
		return
	}
	wk, wv := members(t, recorded)
	gk, gv := members(t, got)
	var want []string
	for _, k := range wk {
		if string(wv[k]) != "null" {
			want = append(want, k)
		}
	}
	if !reflect.DeepEqual(gk, want) {
		t.Errorf("members %v, recorded (nulls left out) %v", gk, want)
		return
	}
	for _, k := range want {
		if clock[k] {
			continue
		}
		var a, b any
		_ = json.Unmarshal(gv[k], &a)
		_ = json.Unmarshal(wv[k], &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("member %s = %s, recorded %s", k, gv[k], wv[k])
		}
	}
}

// wireMembers are the members of each word's parameter in the Java
// admin's classes (executor-protocol.md §3): true for those an admin
// always sends — the primitives (int, long), which Gson always writes, and
// glueType, read from a NOT NULL column — false for Strings Gson leaves
// out when null.
var wireMembers = map[string]map[string]bool{
	"run": {"jobId": true, "executorHandler": false, "executorParams": false, "executorBlockStrategy": false,
		"executorTimeout": true, "logId": true, "logDateTime": true, "glueType": true, "glueSource": false,
		"glueUpdatetime": true, "broadcastIndex": true, "broadcastTotal": true},
	"idleBeat": {"jobId": true},
	"kill":     {"jobId": true},
	"log":      {"logDateTim": true, "logId": true, "fromLineNum": true},
}

// decodesStrictly reports whether body is one a Java admin could have sent
// for word: a JSON object with every primitive member as a number, every
// other member a string or null, and no member its class lacks.
func decodesStrictly(word, body string) bool {
	want, ok := wireMembers[word]
	if !ok {
		return false
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		return false
	}
	for k, v := range m {
		primitive, known := want[k]
		if !known {
			return false
		}
		switch x := v.(type) {
		case float64:
			if !primitive || k == "glueType" || x != float64(int64(x)) {
				return false
			}
		case string:
			if primitive && k != "glueType" {
				return false
			}
		case nil:
			if primitive {
				return false
			}
		default:
			return false
		}
	}
	for k, primitive := range want {
		if _, present := m[k]; primitive && !present {
			return false
		}
	}
	return true
}

// clockMembers are the volatile request members that come from a clock
// (logDateTime, logDateTim, glueUpdatetime): the only ones a replayed
// request may send with other values.
func clockMembers(volatile []string) map[string]bool {
	out := map[string]bool{}
	for k := range volatileBodyKeys(volatile) {
		switch k {
		case "logDateTime", "logDateTim", "glueUpdatetime":
			out[k] = true
		}
	}
	return out
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
