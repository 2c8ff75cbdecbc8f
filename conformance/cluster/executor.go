package cluster

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/fakeexec"
)

// Fire is one /run the fake executor received (or one log row).
type Fire struct {
	JobID int
	LogID int64
	At    time.Time // receipt, before the body is read
	// Trigger is the admin's trigger time (TriggerParam.logDateTime, the
	// log row's trigger_time with milliseconds); zero when unknown.
	Trigger time.Time
	// Admin is the access token the request carried: tests give every
	// admin process a token of its own to tell who sent a fire.
	Admin string
	// Planned is the planned epoch second the fire stands for when a test
	// knows it from the admin's own records (0: unknown).
	Planned int64
}

// Second is the planned second of the fire: Planned when known, else the
// second of its trigger time (the admin's ring fires each planned second
// at that whole second, §3.3), else of its receipt.
func (f Fire) Second() int64 {
	if f.Planned != 0 {
		return f.Planned
	}
	if !f.Trigger.IsZero() {
		return f.Trigger.Unix()
	}
	return f.At.Unix()
}

// Mode is how the fake executor answers one job's /run.
type Mode int

const (
	// Record answers success and never calls back: the log row stays
	// "running", which no monitor acts on within a test's few minutes.
	Record Mode = iota
	// CallbackSuccess answers success, then calls an admin back with
	// handle code 200.
	CallbackSuccess
	// CallbackFail answers success, then calls back with handle code 500.
	CallbackFail
	// RunFail answers the /run itself with code 500 (a failed trigger).
	RunFail
)

// Endpoint is an admin the executor calls back: its base URL with the
// context path, and its access token.
type Endpoint = fakeexec.Endpoint

// Executor is a fake xxl-job executor on 127.0.0.1 that records each /run
// (executor-protocol.md §3) and answers it as the job's Mode says; every
// other call gets success.
type Executor struct {
	srv *httptest.Server
	ctx context.Context
	end context.CancelFunc
	cbs sync.WaitGroup
	ok  string // the success body

	mu     sync.Mutex
	fires  []Fire
	owner  map[int64]string // trigger second → admin of its first fire
	modes  map[int]Mode
	admins []Endpoint
	next   int // rotation over admins for callbacks
	// Callbacks counts the callbacks an admin acknowledged, by token.
	callbacks map[string]int
}

// The success bodies of the Java executors: 2.4.2's ReturnT (msg null)
// and 3.4.2's Response (Gson leaves out null members, msg "Success"; the
// 3.4.2 recordings' README). Each admin generation reads only the code.
const (
	Success242 = `{"code":200,"msg":null}`
	Success342 = `{"code":200,"msg":"Success"}`
)

// CallbackMsg is the handle_msg of the fake executor's callbacks.
const CallbackMsg = "fake executor result"

// StartExecutor starts the fake executor answering like a 2.4.2 executor;
// Close stops it.
func StartExecutor() *Executor { return StartExecutorAnswering(Success242) }

// StartExecutorAnswering starts the fake executor with ok as its success
// body (Success242 or Success342).
func StartExecutorAnswering(ok string) *Executor {
	ctx, end := context.WithCancel(context.Background())
	e := &Executor{ctx: ctx, end: end, ok: ok, owner: map[int64]string{}, modes: map[int]Mode{}, callbacks: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /run", e.run)
	answer := func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json;charset=UTF-8")
		_, _ = io.WriteString(w, e.ok)
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
	f := Fire{JobID: p.JobID, LogID: p.LogID, At: at, Admin: r.Header.Get("XXL-JOB-ACCESS-TOKEN")}
	if p.LogDateTime > 0 {
		f.Trigger = time.UnixMilli(p.LogDateTime)
	}
	e.mu.Lock()
	e.fires = append(e.fires, f)
	if _, seen := e.owner[f.Second()]; !seen {
		e.owner[f.Second()] = f.Admin
	}
	mode := e.modes[p.JobID]
	e.mu.Unlock()
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	switch mode {
	case RunFail:
		_, _ = io.WriteString(w, `{"code":500,"msg":"fake executor refused the run"}`)
		return
	case CallbackSuccess, CallbackFail:
		code := 200
		if mode == CallbackFail {
			code = 500
		}
		e.cbs.Add(1)
		go func() {
			defer e.cbs.Done()
			e.callback(p.LogID, p.LogDateTime, code)
		}()
	}
	_, _ = io.WriteString(w, e.ok)
}

// SetMode sets how one job's runs are answered.
func (e *Executor) SetMode(jobID int, m Mode) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.modes[jobID] = m
}

// SetAdmins sets the admins callbacks go to, in rotation; an admin that
// does not answer is skipped for the next, as a real executor does with
// its admin address list.
func (e *Executor) SetAdmins(admins []Endpoint) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.admins = append([]Endpoint(nil), admins...)
}

// callback delivers one result as a real executor does: POST
// {admin}/api/callback with a one-element HandleCallbackParam list,
// retried on the next admin until one answers code 200 (for at most a
// minute).
func (e *Executor) callback(logID, logDateTime int64, code int) {
	body, _ := json.Marshal([]map[string]any{{"logId": logID, "logDateTim": logDateTime,
		"handleCode": code, "handleMsg": CallbackMsg}})
	deadline := time.Now().Add(time.Minute)
	// The trigger flow writes the trigger result after /run returns: give
	// it a moment, as a real job's run time would.
	wait := 200 * time.Millisecond
	for time.Now().Before(deadline) {
		select {
		case <-e.ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = 500 * time.Millisecond
		e.mu.Lock()
		if len(e.admins) == 0 {
			e.mu.Unlock()
			continue
		}
		a := e.admins[e.next%len(e.admins)]
		e.next++
		e.mu.Unlock()
		if fakeexec.PostCallback(e.ctx, a, body) == nil {
			e.mu.Lock()
			e.callbacks[a.Token]++
			e.mu.Unlock()
			return
		}
	}
}

// Callbacks returns how many callbacks each admin (by token) acknowledged.
func (e *Executor) Callbacks() map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]int, len(e.callbacks))
	for k, v := range e.callbacks {
		out[k] = v
	}
	return out
}

// Owner is the admin whose fire came first in a trigger second, "" when
// nothing fired in it (yet).
func (e *Executor) Owner(sec int64) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.owner[sec]
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

// Close stops pending callbacks and the server.
func (e *Executor) Close() {
	e.end()
	e.cbs.Wait()
	e.srv.Close()
}
