package consolereplay

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
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
	srv     *httptest.Server
	dialect ExecutorDialect
	mu      sync.Mutex
	calls   []ReceivedCall
}

// ExecutorDialect is the answer envelope of an executor generation: 2.4.2
// executors answer ReturnT {code, msg, content}, 3.4.2 executors xxl-tool's
// Response {code, msg, data}, serialised by Gson without null members, with
// msg "Success" on success (and the kill message as data).
type ExecutorDialect struct {
	DataKey    string // "content" or "data"
	SuccessMsg any    // nil (2.4.2) or "Success"
	// KillInData: the "already killed" text travels in data, msg stays
	// SuccessMsg (3.4.2's Response.ofSuccess(text)).
	KillInData bool
}

var (
	// Executor242 answers like the 2.4.2 recorder's fake executor.
	Executor242 = ExecutorDialect{DataKey: "content"}
	// Executor342 answers like a 3.4.2 executor (ExecutorBizImpl).
	Executor342 = ExecutorDialect{DataKey: "data", SuccessMsg: "Success", KillInData: true}
)

// ReceivedCall is one request the admin made to the fake executor.
type ReceivedCall struct {
	Path  string
	Token string // XXL-JOB-ACCESS-TOKEN header
	Body  []byte
}

// StartFakeExecutor listens on a free loopback port and answers like the
// 2.4.2 recorder's fake executor.
func StartFakeExecutor() *FakeExecutor {
	f, _ := StartFakeExecutorAt(Executor242, "")
	return f
}

// StartFakeExecutorAt listens on addr ("host:port"; "" for a free loopback
// port) and answers in the given dialect.
func StartFakeExecutorAt(d ExecutorDialect, addr string) (*FakeExecutor, error) {
	f := &FakeExecutor{dialect: d}
	if addr == "" {
		f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
		return f, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("fake executor: %w", err)
	}
	f.srv = &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(f.serve)}}
	f.srv.Start()
	return f, nil
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
	d := f.dialect
	switch r.URL.Path {
	case "/run", "/beat", "/idleBeat":
		answer = d.answer(nil)
	case "/kill":
		if d.KillInData {
			answer = d.answer("job thread already killed.")
		} else {
			answer = map[string]any{"code": 200, "msg": "job thread already killed."}
		}
	case "/log":
		answer = logAnswer(body, d)
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	_ = json.NewEncoder(w).Encode(answer)
}

// answer is a success answer carrying data (members that are nil are left
// out, as Gson does; 2.4.2's recorder sent {"code":200} alone).
func (d ExecutorDialect) answer(data any) map[string]any {
	out := map[string]any{"code": 200}
	if d.SuccessMsg != nil {
		out["msg"] = d.SuccessMsg
	}
	if data != nil {
		out[d.DataKey] = data
	}
	return out
}

// logAnswer is the /log reply: lines "line1" and "line2 <b>&'\"" from line
// 1, nothing after line 2; isEnd true except for log 3 (running) and for
// the empty tail. Log 5 answers with the key "end" instead of "isEnd" and
// plain lines, to show the admin ignores that key.
func logAnswer(body []byte, d ExecutorDialect) map[string]any {
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
	if d.SuccessMsg != nil {
		return d.answer(result)
	}
	return map[string]any{"code": 200, "msg": nil, "content": result}
}
