// Package fakeexec is an executor for tests of durable triggers: it
// behaves as the Java executor (xxl-job-core 2.4.2 and 3.4.2) where an
// admin taking over another's trigger depends on it, and it keeps a ledger
// of what ran, per log id, which is the truth such tests count from.
//
// As in Java's ExecutorBizImpl and JobThread: a /run is queued on its
// job's thread and answered at once; a /run whose log id is still in the
// job's queue is refused ("repeat trigger job, logId:…", 3.4.2's
// spelling); the runs of a job start one after another; a run's log file
// exists from the moment it starts, and /log answers "readLog fail,
// logFile not exists" before; /idleBeat answers "job thread is running or
// has trigger queue." while a run of the job runs or waits. A finished run
// is called back to the admins
// (one at a time in turn, retried until one accepts), as Java's callback
// thread does.
package fakeexec

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
)

// Endpoint is an admin callbacks go to: its base URL with the context
// path, and the access token.
type Endpoint struct{ URL, Token string }

// Config shapes the runs.
type Config struct {
	// RunTime is how long a run of the job takes; nil: none.
	RunTime func(jobID int) time.Duration
	// Result is the handle code a run of the job calls back; nil: 200.
	Result func(jobID int) int
	// Delay is how long a /run of the job takes to be answered (after it
	// was queued); nil: none.
	Delay func(jobID int) time.Duration
	// Admins receive the callbacks; none: runs are not called back.
	Admins []Endpoint
	// KeepCallbacks keeps a result while no admin is listed (every admin
	// down for a moment) and calls it back once one is, as Java's
	// executor keeps a callback that failed in its callback file and
	// retries it; false drops it.
	KeepCallbacks bool
}

// Entry is the ledger line of one log id.
type Entry struct {
	JobID int
	// Received counts the /run calls accepted for it, Refused those
	// refused as repeats, Started the runs started (more than one: it ran
	// twice).
	Received, Refused, Started int
	// Acknowledged is set once an admin accepted its callback; AckedBy
	// names that admin (its URL and token).
	Acknowledged bool
	AckedBy      string
}

// Executor is one fake executor on loopback.
type Executor struct {
	cfg Config
	srv *httptest.Server
	ctx context.Context
	end context.CancelFunc
	wg  sync.WaitGroup

	mu      sync.Mutex
	ledger  map[int64]*Entry
	jobs    map[int]*jobThread
	held    map[int]bool // jobs whose runs do not start (tests)
	turn    int          // callback rotation over the admins
	waiting int          // runs queued, running, or waiting for their callback's acceptance
	changed chan struct{}
}

// jobThread is a job's queue: log ids waiting to start, with their trigger
// times (the log file's day).
type jobThread struct {
	queue   []api.TriggerParam
	wake    chan struct{}
	running bool // a run started and not yet finished
}

// Start starts the executor; Close stops it.
func Start(cfg Config) *Executor {
	ctx, end := context.WithCancel(context.Background())
	e := &Executor{cfg: cfg, ctx: ctx, end: end, ledger: map[int64]*Entry{}, jobs: map[int]*jobThread{},
		held: map[int]bool{}, changed: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /run", e.run)
	mux.HandleFunc("POST /log", e.log)
	ok := func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		writeJSON(w, `{"code":200,"msg":null}`)
	}
	mux.HandleFunc("POST /beat", ok)
	mux.HandleFunc("POST /idleBeat", e.idleBeat)
	mux.HandleFunc("POST /kill", ok)
	e.srv = httptest.NewServer(mux)
	return e
}

// Address is the executor's address as a group lists it.
func (e *Executor) Address() string { return e.srv.URL + "/" }

// Configure replaces how runs are shaped (RunTime, Result, Delay); the
// admins stay.
func (e *Executor) Configure(cfg Config) {
	e.mu.Lock()
	defer e.mu.Unlock()
	cfg.Admins = e.cfg.Admins
	e.cfg = cfg
}

// SetAdmins replaces the admins callbacks go to.
func (e *Executor) SetAdmins(admins []Endpoint) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cfg.Admins = append([]Endpoint(nil), admins...)
}

// Hold keeps the job's runs from starting (they stay queued) until
// Release: the state of a run queued behind a long one.
func (e *Executor) Hold(jobID int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.held[jobID] = true
}

// Release lets the job's runs start again.
func (e *Executor) Release(jobID int) {
	e.mu.Lock()
	t := e.jobs[jobID]
	delete(e.held, jobID)
	e.mu.Unlock()
	if t != nil {
		select {
		case t.wake <- struct{}{}:
		default:
		}
	}
}

// Ledger returns a copy of the ledger.
func (e *Executor) Ledger() map[int64]Entry {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[int64]Entry, len(e.ledger))
	for id, en := range e.ledger {
		out[id] = *en
	}
	return out
}

// Entry is one log id's ledger line.
func (e *Executor) Entry(logID int64) Entry {
	e.mu.Lock()
	defer e.mu.Unlock()
	if en := e.ledger[logID]; en != nil {
		return *en
	}
	return Entry{}
}

// WaitIdle returns once no run is queued, running or waiting for its
// callback to be accepted, or when ctx ends (false).
func (e *Executor) WaitIdle(ctx context.Context) bool {
	for {
		e.mu.Lock()
		idle, changed := e.waiting == 0, e.changed
		e.mu.Unlock()
		if idle {
			return true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		}
	}
}

// Close stops the runs and callbacks and the server.
func (e *Executor) Close() {
	e.end()
	e.srv.Close()
	e.wg.Wait()
}

// signal wakes WaitIdle; called with e.mu held.
func (e *Executor) signal() {
	close(e.changed)
	e.changed = make(chan struct{})
}

func writeJSON(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	_, _ = io.WriteString(w, body)
}

func (e *Executor) run(w http.ResponseWriter, r *http.Request) {
	var p api.TriggerParam
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	e.mu.Lock()
	en := e.ledger[p.LogID]
	if en == nil {
		en = &Entry{JobID: p.JobID}
		e.ledger[p.LogID] = en
	}
	t := e.jobs[p.JobID]
	if t == nil {
		t = &jobThread{wake: make(chan struct{}, 1)}
		e.jobs[p.JobID] = t
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			e.work(p.JobID, t)
		}()
	}
	for _, q := range t.queue {
		if q.LogID == p.LogID {
			en.Refused++
			e.mu.Unlock()
			writeJSON(w, fmt.Sprintf(`{"code":500,"msg":"repeat trigger job, logId:%d"}`, p.LogID))
			return
		}
	}
	en.Received++
	t.queue = append(t.queue, p)
	e.waiting++
	delay := e.cfg.Delay
	e.mu.Unlock()
	select {
	case t.wake <- struct{}{}:
	default:
	}
	if delay != nil {
		select {
		case <-time.After(delay(p.JobID)):
		case <-r.Context().Done():
		}
	}
	writeJSON(w, `{"code":200,"msg":null}`)
}

// work starts the job's runs one after another.
func (e *Executor) work(jobID int, t *jobThread) {
	for {
		e.mu.Lock()
		var p api.TriggerParam
		ready := len(t.queue) > 0 && !e.held[jobID]
		runTime, result := e.cfg.RunTime, e.cfg.Result
		if ready {
			// Leaving the queue and the log file's creation are one step:
			// Java's window between them is a few statements.
			p, t.queue = t.queue[0], t.queue[1:]
			e.ledger[p.LogID].Started++
			t.running = true
		}
		e.mu.Unlock()
		if !ready {
			select {
			case <-t.wake:
				continue
			case <-e.ctx.Done():
				return
			}
		}
		if runTime != nil {
			select {
			case <-time.After(runTime(jobID)):
			case <-e.ctx.Done():
				return
			}
		}
		code := 200
		if result != nil {
			code = result(jobID)
		}
		e.mu.Lock()
		t.running = false
		e.mu.Unlock()
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			e.callback(p, code)
		}()
	}
}

// Callback retry pauses: Java's executor tries every admin once, then
// keeps a failed callback in its callback file, which its retry thread
// sends again about every 30 s. The fake keeps the shape with a shorter,
// growing pause that suits a test's time: an overloaded admin refusing
// callbacks gets fewer and fewer repeats instead of one every 200 ms.
const (
	firstRetryPause = 250 * time.Millisecond
	maxRetryPause   = 4 * time.Second
	noAdminPause    = 200 * time.Millisecond // waiting for an admin to be listed
)

// callback delivers one result as Java's callback thread does: to each
// admin in turn until one accepts; when a round of every admin failed, the
// next round waits a growing pause (nextRetryPause).
func (e *Executor) callback(p api.TriggerParam, code int) {
	msg := "fake executor run"
	body, _ := json.Marshal([]api.HandleCallbackParam{{LogID: p.LogID, LogDateTim: p.LogDateTime, HandleCode: code, HandleMsg: &msg}})
	var pause, retry time.Duration
	tried := 0 // admins tried since the last pause
	for {
		select {
		case <-e.ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = 0
		e.mu.Lock()
		if len(e.cfg.Admins) == 0 && e.cfg.KeepCallbacks {
			e.mu.Unlock()
			pause = noAdminPause
			continue
		}
		if len(e.cfg.Admins) == 0 {
			e.waiting--
			e.signal()
			e.mu.Unlock()
			return
		}
		admins := len(e.cfg.Admins)
		a := e.cfg.Admins[e.turn%admins]
		e.turn++
		e.mu.Unlock()
		if PostCallback(e.ctx, a, body) == nil {
			e.mu.Lock()
			e.ledger[p.LogID].Acknowledged = true
			e.ledger[p.LogID].AckedBy = a.URL + " " + a.Token
			e.waiting--
			e.signal()
			e.mu.Unlock()
			return
		}
		if tried++; tried >= admins {
			tried, retry = 0, nextRetryPause(retry)
			pause = retry
		}
	}
}

// nextRetryPause is the pause after prev (0: none yet): firstRetryPause,
// then doubling up to maxRetryPause.
func nextRetryPause(prev time.Duration) time.Duration {
	if prev == 0 {
		return firstRetryPause
	}
	return min(2*prev, maxRetryPause)
}

// PostCallback posts one /api/callback body to admin a as an executor does
// (its token header, a 3 s limit) and fails unless the admin answers code
// 200; the fake executors of the process-cluster tests share it.
func PostCallback(ctx context.Context, a Endpoint, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.URL+"/api/callback", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json;charset=UTF-8")
	req.Header.Set("XXL-JOB-ACCESS-TOKEN", a.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var ret struct{ Code int }
	if err := json.NewDecoder(resp.Body).Decode(&ret); err != nil {
		return err
	}
	if ret.Code != 200 {
		return fmt.Errorf("callback to %s: code %d", a.URL, ret.Code)
	}
	return nil
}

// idleBeat answers as Java's ExecutorBizImpl.idleBeat: busy while the
// job's thread runs a run or has runs queued.
func (e *Executor) idleBeat(w http.ResponseWriter, r *http.Request) {
	var p api.IdleBeatParam
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	e.mu.Lock()
	t := e.jobs[p.JobID]
	busy := t != nil && (t.running || len(t.queue) > 0)
	e.mu.Unlock()
	if busy {
		writeJSON(w, `{"code":500,"msg":"job thread is running or has trigger queue."}`)
		return
	}
	writeJSON(w, `{"code":200,"msg":null}`)
}

func (e *Executor) log(w http.ResponseWriter, r *http.Request) {
	var p api.LogParam
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	e.mu.Lock()
	en := e.ledger[p.LogID]
	started := en != nil && en.Started > 0
	e.mu.Unlock()
	content := api.LogResult{FromLineNum: p.FromLineNum, LogContent: "readLog fail, logFile not exists", IsEnd: true}
	if started {
		content = api.LogResult{FromLineNum: p.FromLineNum, ToLineNum: 1,
			LogContent: "<br>----------- xxl-job job execute start -----------<br>----------- Param:\n"}
	}
	body, _ := json.Marshal(api.ReturnT[api.LogResult]{Code: 200, Content: &content})
	writeJSON(w, string(body))
}
