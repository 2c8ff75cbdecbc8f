package cluster

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Fire is one /run the fake executor received (or one log row).
type Fire struct {
	JobID int
	LogID int64
	At    time.Time // receipt, before the body is read
	// Trigger is the admin's trigger time (TriggerParam.logDateTime, the
	// log row's trigger_time with milliseconds); zero when unknown.
	Trigger time.Time
	// Admin is who sent it: "java" or "ours", told apart by the HTTP
	// client's User-Agent (Java's HttpURLConnection sends "Java/…").
	Admin string
}

// Second is the whole second the admin fired it in: the second of its
// trigger time, or of its receipt when that is unknown.
func (f Fire) Second() int64 {
	if !f.Trigger.IsZero() {
		return f.Trigger.Unix()
	}
	return f.At.Unix()
}

// AdminOf names the admin behind a request by its User-Agent.
func AdminOf(userAgent string) string {
	if strings.HasPrefix(userAgent, "Java/") {
		return "java"
	}
	return "ours"
}

// Executor is a fake xxl-job executor on 127.0.0.1 that answers every call
// with success and records each /run (executor-protocol.md §3). It does not
// call back: the log rows stay "running", which no monitor acts on within a
// test's few minutes.
type Executor struct {
	srv   *httptest.Server
	mu    sync.Mutex
	fires []Fire
}

// ok is the ReturnT success body the Java executor sends.
const ok = `{"code":200,"msg":null}`

// StartExecutor starts the fake executor; Close stops it.
func StartExecutor() *Executor {
	e := &Executor{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /run", e.run)
	answer := func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json;charset=UTF-8")
		_, _ = io.WriteString(w, ok)
	}
	mux.HandleFunc("POST /beat", answer)
	mux.HandleFunc("POST /idleBeat", answer)
	mux.HandleFunc("POST /kill", answer)
	e.srv = httptest.NewServer(mux)
	return e
}

func (e *Executor) run(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	var p struct {
		JobID       int   `json:"jobId"`
		LogID       int64 `json:"logId"`
		LogDateTime int64 `json:"logDateTime"`
	}
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	e.mu.Lock()
	e.fires = append(e.fires, Fire{JobID: p.JobID, LogID: p.LogID, At: at, Trigger: time.UnixMilli(p.LogDateTime),
		Admin: AdminOf(r.UserAgent())})
	e.mu.Unlock()
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	_, _ = io.WriteString(w, ok)
}

// Address is the executor address as stored in a group's address_list.
func (e *Executor) Address() string { return e.srv.URL + "/" }

// Fires returns a copy of the fires received so far.
func (e *Executor) Fires() []Fire {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Fire(nil), e.fires...)
}

// Count is the number of fires received so far.
func (e *Executor) Count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.fires)
}

// Close stops the server.
func (e *Executor) Close() { e.srv.Close() }
