package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
)

// event is one thing the executor saw or did: a /run arriving (with the
// parameter it carried) or the moment it posted a run's callback.
type event struct {
	JobID int
	LogID int64
	Param string
	At    time.Time
}

// executor is the benchmark's fake executor: every /run is answered at
// once, recorded with its arrival time, and called back as a success
// after a fixed work time, one callback POST per run, posted the moment
// the work ends (Java's executor batches callbacks from a queue; posting
// each at once keeps the executor's own wait out of the latency). Runs of
// one job do not wait for each other: what is measured is the admin.
type executor struct {
	ln     net.Listener
	srv    *http.Server
	work   time.Duration
	retry  time.Duration
	client *http.Client
	ctx    context.Context
	end    context.CancelFunc
	wg     sync.WaitGroup

	mu        sync.Mutex
	admin     string // base URL with the context path
	token     string
	runs      []event
	callbacks []event
	refused   int // callback posts the admin did not accept (retried)
	// unaccepted counts the callbacks posted and not yet accepted.
	unaccepted int
	changed    chan struct{}
}

func startExecutor(work, retry time.Duration) (*executor, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	ctx, end := context.WithCancel(context.Background())
	e := &executor{ln: ln, work: work, retry: retry, ctx: ctx, end: end, changed: make(chan struct{}),
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, IdleConnTimeout: time.Minute}}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /run", e.run)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { // beat, idleBeat, kill, log
		_, _ = io.Copy(io.Discard, r.Body)
		writeOK(w)
	})
	e.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = e.srv.Serve(ln) }()
	return e, nil
}

// address is the executor as a group's address list names it.
func (e *executor) address() string { return "http://" + e.ln.Addr().String() + "/" }

// setAdmin names the admin callbacks go to.
func (e *executor) setAdmin(base, token string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.admin, e.token = base, token
}

func writeOK(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	_, _ = io.WriteString(w, `{"code":200,"msg":null}`)
}

func (e *executor) run(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	var p api.TriggerParam
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ev := event{JobID: p.JobID, LogID: p.LogID, At: at}
	if p.ExecutorParams != nil {
		ev.Param = *p.ExecutorParams
	}
	e.mu.Lock()
	e.runs = append(e.runs, ev)
	e.signal()
	e.mu.Unlock()
	writeOK(w)
	e.wg.Add(1)
	time.AfterFunc(e.work, func() {
		defer e.wg.Done()
		e.callback(ev, p.LogDateTime)
	})
}

// callback posts one run's success and, while the admin does not accept
// it, posts it again every e.retry, as Java's executor keeps a failed
// callback in its callback file and retries the file every 30 s (a retry
// every 200 ms, tried first, turned an overloaded admin's timeouts into a
// storm of repeats). Its time is that of the first post; every post not
// accepted is counted.
func (e *executor) callback(ev event, logDateTime int64) {
	msg := "benchworkflow"
	body, _ := json.Marshal([]api.HandleCallbackParam{{LogID: ev.LogID, LogDateTim: logDateTime, HandleCode: 200, HandleMsg: &msg}})
	ev.At = time.Now()
	e.mu.Lock()
	e.callbacks = append(e.callbacks, ev)
	e.unaccepted++
	admin, token := e.admin, e.token
	e.signal()
	e.mu.Unlock()
	for e.post(admin, token, body) != nil {
		e.mu.Lock()
		e.refused++
		e.mu.Unlock()
		select {
		case <-e.ctx.Done():
			return
		case <-time.After(e.retry):
		}
	}
	e.mu.Lock()
	e.unaccepted--
	e.signal()
	e.mu.Unlock()
}

func (e *executor) post(admin, token string, body []byte) error {
	ctx, cancel := context.WithTimeout(e.ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, admin+"/api/callback", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json;charset=UTF-8")
	req.Header.Set("XXL-JOB-ACCESS-TOKEN", token)
	resp, err := e.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var ret struct{ Code int }
	if err := json.NewDecoder(resp.Body).Decode(&ret); err != nil {
		return err
	}
	if ret.Code != 200 {
		return fmt.Errorf("callback: code %d", ret.Code)
	}
	return nil
}

// signal wakes waitFor; called with e.mu held.
func (e *executor) signal() {
	close(e.changed)
	e.changed = make(chan struct{})
}

// waitFor returns once cond, called with the events so far under the
// lock, holds (true), or when ctx ends (false).
func (e *executor) waitFor(ctx context.Context, cond func(runs, callbacks []event) bool) bool {
	for {
		e.mu.Lock()
		ok, changed := cond(e.runs, e.callbacks), e.changed
		e.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		}
	}
}

// snapshot returns copies of the events from the given offsets on.
func (e *executor) snapshot(runFrom, cbFrom int) (runs, callbacks []event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]event(nil), e.runs[runFrom:]...), append([]event(nil), e.callbacks[cbFrom:]...)
}

// counts are how many runs, callbacks and refused callback posts were
// recorded so far.
func (e *executor) counts() (runs, callbacks, refused int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.runs), len(e.callbacks), e.refused
}

// close stops the server and waits for the callbacks in flight.
func (e *executor) close() {
	_ = e.srv.Close()
	e.end()
	e.wg.Wait()
}

// waitAccepted returns once every callback posted so far was accepted, or
// when ctx ends (false).
func (e *executor) waitAccepted(ctx context.Context) bool {
	for {
		e.mu.Lock()
		done, changed := e.unaccepted == 0, e.changed
		e.mu.Unlock()
		if done {
			return true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		}
	}
}
