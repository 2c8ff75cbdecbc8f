package browser_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// executor is a fake xxl-job executor: it keeps every request the admin
// sends and answers /run, /kill and /log with what the test set, as a
// 2.4.2 executor (ReturnT: content) or a 3.4.2 one (Response: data).
type executor struct {
	srv  *httptest.Server
	gen3 bool

	mu      sync.Mutex
	calls   []executorCall
	arrived chan struct{} // closed and replaced on every call
	runCode int           // /run answer code (200 unless set)
	runMsg  *string       // /run answer msg
	logText string        // /log content from line 1 (isEnd true)
}

// executorCall is one request, its JSON body decoded.
type executorCall struct {
	Path string
	Body map[string]any
}

func startExecutor(t *testing.T) *executor {
	e := &executor{arrived: make(chan struct{}), runCode: 200, logText: "line1\nline2\n"}
	e.srv = httptest.NewServer(http.HandlerFunc(e.serve))
	t.Cleanup(e.srv.Close)
	return e
}

// startExecutor34 is a fake executor answering as xxl-job-core 3.4.2 does.
func startExecutor34(t *testing.T) *executor {
	e := startExecutor(t)
	e.gen3 = true
	return e
}

// address is the executor address to register, "http://127.0.0.1:PORT/".
func (e *executor) address() string { return e.srv.URL + "/" }

func (e *executor) answerRun(code int, msg *string) {
	e.mu.Lock()
	e.runCode, e.runMsg = code, msg
	e.mu.Unlock()
}

func (e *executor) answerLog(text string) {
	e.mu.Lock()
	e.logText = text
	e.mu.Unlock()
}

func (e *executor) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	e.mu.Lock()
	e.calls = append(e.calls, executorCall{Path: r.URL.Path, Body: body})
	close(e.arrived)
	e.arrived = make(chan struct{})
	runCode, runMsg, logText := e.runCode, e.runMsg, e.logText
	e.mu.Unlock()
	payload := "content"
	if e.gen3 {
		payload = "data"
	}

	var answer any
	switch r.URL.Path {
	case "/beat", "/idleBeat":
		answer = map[string]any{"code": 200}
	case "/run":
		answer = map[string]any{"code": runCode, "msg": runMsg}
	case "/kill":
		answer = map[string]any{"code": 200, "msg": "job thread already killed."}
		if e.gen3 { // 3.x puts the text in data
			answer = map[string]any{"code": 200, "msg": "Success", "data": "job thread already killed."}
		}
	case "/log":
		from, _ := body["fromLineNum"].(float64)
		content := ""
		if from <= 1 {
			content = logText
		}
		answer = map[string]any{"code": 200, payload: map[string]any{
			"fromLineNum": from, "toLineNum": 2, "logContent": content, "isEnd": true}}
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	_ = json.NewEncoder(w).Encode(answer)
}

// callsTo returns the calls to path so far.
func (e *executor) callsTo(path string) []executorCall {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []executorCall
	for _, c := range e.calls {
		if c.Path == path {
			out = append(out, c)
		}
	}
	return out
}

// wait waits until the n-th call (1-based) to path arrived.
func (e *executor) wait(ctx context.Context, path string, n int) (executorCall, error) {
	for {
		e.mu.Lock()
		arrived := e.arrived
		e.mu.Unlock()
		if c := e.callsTo(path); len(c) >= n {
			return c[n-1], nil
		}
		select {
		case <-arrived:
		case <-ctx.Done():
			return executorCall{}, fmt.Errorf("executor: no call %d to %s: %w", n, path, ctx.Err())
		}
	}
}
