package monitors

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
)

// failMode is how the fake executor makes a job fail.
type failMode int

const (
	// failByCallback accepts /run and then reports handleCode 500 "boom"
	// through /api/callback (executor-protocol.md §2.5), as a job that
	// throws does.
	failByCallback failMode = iota
	// failAtRun answers /run with code 500: a trigger failure.
	failAtRun
	// failBeforeRunReply delivers the failing callback first and answers
	// /run (code 200) only earlyReply later: a job that fails at once while
	// the /run reply is slow to reach the admin, so the result is stored
	// before the admin has written the trigger info.
	failBeforeRunReply
)

// earlyReply is how long failBeforeRunReply holds the /run reply after the
// admin accepted the callback.
const earlyReply = 600 * time.Millisecond

const (
	accessToken      = "default_token"
	callbackRetry    = 300 * time.Millisecond
	defaultCbDelay   = 100 * time.Millisecond
	failMsgByHandler = "boom"
)

// runSeen is one /run the executor received.
type runSeen struct {
	JobID int
	LogID int64
	At    time.Time
}

// callbackSent is one callback the admin accepted (code 200).
type callbackSent struct {
	LogID    int64
	Attempts int // POSTs it took; > 1 when the admin could not store it at once
	At       time.Time
}

// fakeExecutor speaks the executor side of the protocol over HTTP. Like the
// Java executor it keeps re-sending a callback the admin did not accept
// (its retry file), so a result is never lost while the admin's database
// is away.
type fakeExecutor struct {
	t      testing.TB
	srv    *httptest.Server
	client *http.Client

	mu    sync.Mutex
	admin string           // admin base URL, for callbacks
	modes map[int]failMode // by job id; failByCallback when absent
	// cbDelay is the time between answering /run and the first callback:
	// the job's run time plus the executor's callback thread hand-over.
	cbDelay time.Duration

	runs        *feed[runSeen]
	callbacks   *feed[callbackSent]
	rejectedCbs atomic.Int64 // callback POSTs the admin did not accept

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// startExecutor serves until the test ends; it is stopped after the admins
// that call it (cleanups run last-registered first).
func startExecutor(t testing.TB) *fakeExecutor {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	e := &fakeExecutor{
		t:         t,
		client:    &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}},
		modes:     map[int]failMode{},
		cbDelay:   defaultCbDelay,
		runs:      newFeed[runSeen](),
		callbacks: newFeed[callbackSent](),
		ctx:       ctx,
		cancel:    cancel,
	}
	e.srv = httptest.NewServer(http.HandlerFunc(e.serve))
	t.Cleanup(func() {
		e.cancel()
		e.wg.Wait()
		e.srv.Close()
	})
	return e
}

// address is the executor address as registered (with trailing slash, as
// the Java executor registers itself).
func (e *fakeExecutor) address() string { return e.srv.URL + "/" }

func (e *fakeExecutor) setAdmin(base string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.admin = base
}

func (e *fakeExecutor) setMode(jobID int, m failMode) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.modes[jobID] = m
}

// setCallbackDelay models a job that runs for d before it fails.
func (e *fakeExecutor) setCallbackDelay(d time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cbDelay = d
}

func (e *fakeExecutor) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	switch strings.TrimPrefix(r.URL.Path, "/") {
	case "run":
		e.run(w, body)
	case "beat", "idleBeat", "kill":
		_, _ = io.WriteString(w, `{"code":200,"msg":null}`)
	default:
		http.NotFound(w, r)
	}
}

func (e *fakeExecutor) run(w http.ResponseWriter, body []byte) {
	var p api.TriggerParam
	if err := json.Unmarshal(body, &p); err != nil {
		_, _ = fmt.Fprintf(w, `{"code":500,"msg":%q}`, err.Error())
		return
	}
	e.mu.Lock()
	mode, admin, delay := e.modes[p.JobID], e.admin, e.cbDelay
	e.mu.Unlock()
	e.runs.add(runSeen{JobID: p.JobID, LogID: p.LogID, At: time.Now()})
	switch mode {
	case failAtRun:
		_, _ = io.WriteString(w, `{"code":500,"msg":"run refused"}`)
		return
	case failBeforeRunReply:
		e.sendCallback(admin, p.LogID, 0)
		e.sleep(earlyReply)
		_, _ = io.WriteString(w, `{"code":200,"msg":null}`)
		return
	}
	_, _ = io.WriteString(w, `{"code":200,"msg":null}`)
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		e.sendCallback(admin, p.LogID, delay)
	}()
}

// sendCallback posts handleCode 500 after delay, until the admin accepts it
// or the test ends.
func (e *fakeExecutor) sendCallback(admin string, logID int64, delay time.Duration) {
	if !e.sleep(delay) {
		return
	}
	body := fmt.Sprintf(`[{"logId":%d,"logDateTim":%d,"handleCode":500,"handleMsg":%q}]`,
		logID, time.Now().UnixMilli(), failMsgByHandler)
	for attempt := 1; ; attempt++ {
		if e.postCallback(admin, body) {
			e.callbacks.add(callbackSent{LogID: logID, Attempts: attempt, At: time.Now()})
			return
		}
		e.rejectedCbs.Add(1)
		if !e.sleep(callbackRetry) {
			return
		}
	}
}

func (e *fakeExecutor) postCallback(admin, body string) bool {
	req, err := http.NewRequestWithContext(e.ctx, http.MethodPost, admin+"/xxl-job-admin/api/callback", bytes.NewBufferString(body))
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("XXL-JOB-ACCESS-TOKEN", accessToken)
	resp, err := e.client.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	var rt struct {
		Code int `json:"code"`
	}
	b, _ := io.ReadAll(resp.Body)
	return json.Unmarshal(b, &rt) == nil && rt.Code == 200
}

func (e *fakeExecutor) sleep(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-e.ctx.Done():
		return false
	}
}
