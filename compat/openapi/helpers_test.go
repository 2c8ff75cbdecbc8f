package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

const (
	ctxPath   = "/xxl-job-admin"
	testToken = "test-token-0123456789"
)

// submits is the trigger door: it records each request and runs it
// through the real trigger flow before Submit returns, so the log row a
// "run once" writes is there for the next request of a test (the pools
// would run it a moment later).
type submits struct {
	mu   sync.Mutex
	reqs []trigger.Request
	flow *trigger.Flow
}

func (s *submits) Submit(r trigger.Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, r)
	return s.flow.Trigger(context.Background(), r)
}

// fakeExecutor is the executor at every address: it accepts /run, and
// answers /log and /kill as set.
type fakeExecutor struct {
	mu   sync.Mutex
	log  api.ReturnT[api.LogResult]
	kill api.ReturnT[string]
	runs []string // the addresses /run was sent to
}

func (f *fakeExecutor) Run(_ context.Context, address string, _ api.TriggerParam) api.ReturnT[string] {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.runs = append(f.runs, address)
	return api.ReturnT[string]{Code: 200}
}

func (f *fakeExecutor) Beat(context.Context, string) api.ReturnT[string] {
	return api.ReturnT[string]{Code: 200}
}

func (f *fakeExecutor) IdleBeat(context.Context, string, api.IdleBeatParam) api.ReturnT[string] {
	return api.ReturnT[string]{Code: 200}
}

func (f *fakeExecutor) Log(context.Context, string, api.LogParam) api.ReturnT[api.LogResult] {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.log
}

func (f *fakeExecutor) Kill(context.Context, string, api.KillParam) api.ReturnT[string] {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.kill
}

type overwriter struct{ s *schema.Store }

func (o overwriter) Overwrite(ctx context.Context, l schema.JobLog) error {
	return o.s.LogUpdateHandleInfo(ctx, l)
}

// env is the API on a real store behind an httptest server, with a clock
// that starts at the console recordings' 2026-11-23 07:02:28 in
// Asia/Shanghai and moves only when a test moves it.
// Every exchange is checked against the served document (contract).
type env struct {
	t        *testing.T
	store    *schema.Store
	api      *API
	srv      *httptest.Server
	trig     *submits
	exec     *fakeExecutor
	now      time.Time // the clock's start
	clock    *clock
	contract *contract
	engine   *workflow.Engine // nil without workflows
}

// clock is a test's time.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newEnv(t *testing.T, s *schema.Store, user string) *env {
	t.Helper()
	return newEnvWith(t, s, user, false)
}

// newEnvWith is newEnv, with the workflow engine and its routes when
// workflows is true (its node triggers durable, as app wires them).
func newEnvWith(t *testing.T, s *schema.Store, user string, workflows bool) *env {
	t.Helper()
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 23, 7, 2, 28, 0, shanghai)
	e := &env{t: t, store: s, trig: &submits{}, now: now, clock: &clock{t: now}, exec: &fakeExecutor{
		log:  api.ReturnT[api.LogResult]{Code: 200, Content: &api.LogResult{FromLineNum: 1, ToLineNum: 2, LogContent: "start <job>\ndone\n"}},
		kill: api.ReturnT[string]{Code: 200, Msg: schema.Ptr("job thread already killed.")},
	}}
	texts := i18n.Load("en")
	tick := e.clock.now
	var durable *trigger.Durable
	var engine *workflow.Engine
	if workflows {
		if _, err := s.EnsureWorkflowTables(t.Context()); err != nil {
			t.Fatal(err)
		}
		durable = &trigger.Durable{Owner: "test", Lease: time.Minute, SendLease: 2 * time.Minute}
		engine = workflow.New(workflow.Config{Store: s, Trigger: e.trig, Durable: durable, Loc: shanghai, Now: tick, Log: zerolog.Nop()})
		durable.Hook = engine
	}
	e.trig.flow = trigger.NewFlow(trigger.FlowConfig{Store: s, Client: e.exec, Texts: texts, AdminAddress: "127.0.0.1",
		Now: tick, Log: zerolog.Nop(), Durable: durable})
	a, err := New(Config{Workflows: engine,
		Store: s, Jobs: jobs.New(jobs.Config{Store: s, Texts: texts, Loc: shanghai, Now: tick}),
		Logs:    jobs.NewLogs(jobs.LogsConfig{Store: s, Executor: e.exec, Results: overwriter{s}, Texts: texts, Now: tick}),
		Trigger: e.trig, Token: testToken, User: user, ContextPath: ctxPath, Loc: shanghai, Now: tick, Log: zerolog.Nop(),
	})
	if err != nil {
		t.Fatal(err)
	}
	e.api, e.engine = a, engine
	if e.contract, err = loadContract(t.Context(), a.doc); err != nil {
		t.Fatal(err)
	}
	e.srv = httptest.NewServer(a.Handler())
	t.Cleanup(e.srv.Close)
	return e
}

type answer struct {
	t      *testing.T
	status int
	header http.Header
	body   []byte
}

// json decodes the body.
func (a answer) json() map[string]any {
	a.t.Helper()
	var m map[string]any
	if err := json.Unmarshal(a.body, &m); err != nil {
		a.t.Fatalf("not JSON (%d): %q", a.status, a.body)
	}
	return m
}

// data is the envelope's data as an object.
func (a answer) data() map[string]any {
	a.t.Helper()
	d, ok := a.json()["data"].(map[string]any)
	if !ok {
		a.t.Fatalf("no data object (%d): %s", a.status, a.body)
	}
	return d
}

// call sends a request with the test token; body is JSON-encoded unless
// it is a string or nil.
func (e *env) call(method, path string, body any) answer {
	e.t.Helper()
	return e.callToken(method, path, body, testToken)
}

func (e *env) callToken(method, path string, body any, token string) answer {
	e.t.Helper()
	return e.request(method, path, body, token, "application/json")
}

// callType sends a body with the given content type ("" for none).
func (e *env) callType(method, path string, body any, ctype string) answer {
	e.t.Helper()
	return e.request(method, path, body, testToken, ctype)
}

// request sends a request and checks the exchange against the document:
// a mismatch fails the test that made it.
func (e *env) request(method, path string, body any, token, ctype string) answer {
	e.t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			e.t.Fatal(err)
		}
	}
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, e.srv.URL+ctxPath+Base+path, r)
	if err != nil {
		e.t.Fatal(err)
	}
	if r != nil && ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	ex := exchange{method: method, path: req.URL.RequestURI(), header: req.Header.Clone(), body: string(raw)}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	ex.status, ex.respHeader, ex.respBody = resp.StatusCode, resp.Header, string(b)
	if err := e.contract.check(e.t.Context(), ex); err != nil {
		e.t.Errorf("%s %s: the document disagrees: %v\n request: %.300s\n  answer: %d %.300s", method, path, err, raw, resp.StatusCode, b)
	}
	return answer{t: e.t, status: resp.StatusCode, header: resp.Header, body: b}
}
