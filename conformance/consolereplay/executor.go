package consolereplay

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
)

// RecordedExecutorAddress is the fake executor's address in the recordings;
// responses and rows are compared after our executor's real address is
// replaced by it, and requests carry ours instead of it.
const RecordedExecutorAddress = "http://127.0.0.1:19991/"

// FakeExecutor answers the admin like the recorder's fake executor
// (README "How the capture was set up") and keeps what it receives.
type FakeExecutor struct {
	srv   *httptest.Server
	mu    sync.Mutex
	calls []ReceivedCall
}

// ReceivedCall is one request the admin made to the fake executor.
type ReceivedCall struct {
	Path  string
	Token string // XXL-JOB-ACCESS-TOKEN header
	Body  []byte
}

// StartFakeExecutor listens on a free loopback port.
func StartFakeExecutor() *FakeExecutor {
	f := &FakeExecutor{}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	return f
}

// Address is the executor address to register, "http://127.0.0.1:PORT/".
func (f *FakeExecutor) Address() string { return f.srv.URL + "/" }

// Close stops the listener.
func (f *FakeExecutor) Close() { f.srv.Close() }

// TakeCalls returns the calls received since the last TakeCalls.
func (f *FakeExecutor) TakeCalls() []ReceivedCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.calls
	f.calls = nil
	return out
}

func (f *FakeExecutor) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	f.mu.Lock()
	f.calls = append(f.calls, ReceivedCall{Path: r.URL.Path, Token: r.Header.Get("XXL-JOB-ACCESS-TOKEN"), Body: body})
	f.mu.Unlock()
	var answer any
	switch r.URL.Path {
	case "/run", "/beat", "/idleBeat":
		answer = map[string]any{"code": 200}
	case "/kill":
		answer = map[string]any{"code": 200, "msg": "job thread already killed."}
	case "/log":
		answer = logAnswer(body)
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	_ = json.NewEncoder(w).Encode(answer)
}

// logAnswer is the /log reply: lines "line1" and "line2 <b>&'\"" from line
// 1, nothing after line 2; isEnd true except for log 3 (running) and for
// the empty tail. Log 5 answers with the key "end" instead of "isEnd" and
// plain lines, to show the admin ignores that key.
func logAnswer(body []byte) map[string]any {
	var req struct {
		LogID       int64 `json:"logId"`
		FromLineNum int   `json:"fromLineNum"`
	}
	_ = json.Unmarshal(body, &req)
	content, end := "", false
	if req.FromLineNum <= 1 {
		content, end = "line1\nline2 <b>&'\"\n", req.LogID != 3
	}
	result := map[string]any{"fromLineNum": req.FromLineNum, "toLineNum": 2, "logContent": content}
	if req.LogID == 5 {
		if req.FromLineNum <= 1 {
			result["logContent"] = "line1\nline2\n"
		}
		result["end"] = true
	} else {
		result["isEnd"] = end
	}
	return map[string]any{"code": 200, "msg": nil, "content": result}
}
