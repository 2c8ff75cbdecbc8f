package console

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// pageFS is a minimal template set: the tests check handlers, not markup
// (the real templates have their own tests in package static).
var pageFS = func() fstest.MapFS {
	fs := fstest.MapFS{
		"templates/layout.html": {Data: []byte(`{{define "layout"}}<html><head><title>{{.Title}}</title></head><body>{{template "content" .}}<script type="application/json" id="page-data">{{.Data}}</script></body></html>{{end}}`)},
		"templates/error.html":  {Data: []byte(`{{define "content"}}<p class="error-message">{{.Data.Message}}</p>{{end}}`)},
		"js/app.js":             {Data: []byte(`console.log(1)`)},
	}
	for _, p := range []string{"index", "jobinfo", "joblog", "joblog_detail", "jobgroup", "jobcode", "user", "help", "login"} {
		fs["templates/"+p+".html"] = &fstest.MapFile{Data: []byte(`{{define "content"}}<div id="` + p + `"></div>{{end}}`)}
	}
	return fs
}()

// submits records the trigger door's requests.
type submits struct {
	mu   sync.Mutex
	reqs []trigger.Request
}

func (s *submits) Submit(r trigger.Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, r)
	return nil
}

// fakeExecutor answers /log and /kill like the recordings' fake executor.
type fakeExecutor struct {
	logAnswer  api.ReturnT[api.LogResult]
	killAnswer api.ReturnT[string]
	mu         sync.Mutex
	logCalls   []api.LogParam
	killCalls  []api.KillParam
}

func (f *fakeExecutor) Log(_ context.Context, _ string, p api.LogParam) api.ReturnT[api.LogResult] {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.logCalls = append(f.logCalls, p)
	return f.logAnswer
}

func (f *fakeExecutor) Kill(_ context.Context, _ string, p api.KillParam) api.ReturnT[string] {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.killCalls = append(f.killCalls, p)
	return f.killAnswer
}

type overwriter struct{ s *schema.Store }

func (o overwriter) Overwrite(ctx context.Context, l schema.JobLog) error {
	return o.s.LogUpdateHandleInfo(ctx, l)
}

// env is a console on a real store behind an httptest server.
type env struct {
	t     testing.TB
	store *schema.Store
	srv   *httptest.Server
	trig  *submits
	exec  *fakeExecutor
	now   time.Time
}

const ctxPath = "/xxl-job-admin"

func newEnv(t testing.TB, s *schema.Store, lang string, legacy bool, opts ...func(*Config)) *env {
	t.Helper()
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 23, 7, 2, 28, 0, shanghai) // the recordings' clock
	e := &env{t: t, store: s, trig: &submits{}, exec: &fakeExecutor{}, now: now}
	texts := i18n.Load(lang)
	cfg := Config{
		Store: s, Jobs: jobs.New(jobs.Config{Store: s, Texts: texts, Loc: shanghai, Now: func() time.Time { return now }}),
		Trigger: e.trig, Executor: e.exec, Results: overwriter{s}, Texts: texts, Files: pageFS,
		ContextPath: ctxPath, Secret: []byte("0123456789abcdef0123456789abcdef"), LegacyCookie: legacy,
		Loc: shanghai, Now: func() time.Time { return now }, Log: zerolog.Nop(),
	}
	for _, o := range opts {
		o(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.srv = httptest.NewServer(c.Handler())
	t.Cleanup(e.srv.Close)
	return e
}

// client is a browser-like session: a cookie jar, redirects not followed.
type client struct {
	e    *env
	http *http.Client
}

func (e *env) anonymous() *client {
	jar, _ := cookiejar.New(nil)
	return &client{e: e, http: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

// login logs in through POST /login and fails the test otherwise.
func (e *env) login(user, password string) *client {
	e.t.Helper()
	c := e.anonymous()
	r := c.post("/login", "userName", user, "password", password)
	if r.json()["code"] != float64(200) {
		e.t.Fatalf("login %s: %s", user, r.body)
	}
	return c
}

type answer struct {
	t      testing.TB
	status int
	header http.Header
	body   string
}

func (a answer) json() map[string]any {
	a.t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(a.body), &m); err != nil {
		a.t.Fatalf("not JSON (%d): %q", a.status, a.body)
	}
	return m
}

// msg is the ReturnT msg ("<nil>" for null).
func (a answer) msg() string {
	v := a.json()["msg"]
	if v == nil {
		return "<nil>"
	}
	return v.(string)
}

func (c *client) do(req *http.Request) answer {
	c.e.t.Helper()
	resp, err := c.http.Do(req)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{t: c.e.t, status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// post sends a form POST the way the console's scripts do.
func (c *client) post(path string, kv ...string) answer {
	c.e.t.Helper()
	return c.postWith(path, nil, kv...)
}

func (c *client) postWith(path string, headers map[string]string, kv ...string) answer {
	c.e.t.Helper()
	vals := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		vals.Add(kv[i], kv[i+1])
	}
	req, _ := http.NewRequest(http.MethodPost, c.e.srv.URL+ctxPath+path, strings.NewReader(vals.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	return c.do(req)
}

func (c *client) get(path string) answer {
	c.e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, c.e.srv.URL+ctxPath+path, nil)
	req.Header.Set("Accept", "text/html")
	return c.do(req)
}

// fixture is the recordings' fixture in small (README of
// recordings/java-admin-2.4.2): groups 2 and 3 with a job each, users
// normal1 (permission "2") and victim1 (permission "3"), and log rows.
type fixture struct {
	g2, g3   schema.Group
	j2, j3   schema.JobInfo
	log2     schema.JobLog
	log3     schema.JobLog
	normal1  schema.User
	spaceusr schema.User
}

func seed(t *testing.T, s *schema.Store) fixture {
	t.Helper()
	var f fixture
	f.g2 = testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
	f.g3 = testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
	f.j2 = testfactory.Job(t, s, testfactory.JobOpts{Group: f.g2.ID, ScheduleType: "CRON", ScheduleConf: "0 0 3 * * ?"})
	f.j3 = testfactory.Job(t, s, testfactory.JobOpts{Group: f.g3.ID, ScheduleType: "CRON", ScheduleConf: "0 0 3 * * ?", GlueType: "GLUE_SHELL"})
	addr := "http://127.0.0.1:19991/"
	f.log2 = testfactory.Log(t, s, testfactory.LogOpts{Group: f.g2.ID, Job: f.j2.ID, TriggerCode: 200, Address: &addr,
		HandleCode: 200, HandleMsg: schema.Ptr("ok")})
	f.log3 = testfactory.Log(t, s, testfactory.LogOpts{Group: f.g3.ID, Job: f.j3.ID, TriggerCode: 200, Address: &addr})
	f.normal1 = testfactory.User(t, s, testfactory.UserOpts{Username: "normal1", Permission: schema.Ptr(itoa(f.g2.ID))})
	f.spaceusr = testfactory.User(t, s, testfactory.UserOpts{Username: "spaceuser", Permission: schema.Ptr(" " + itoa(f.g2.ID))})
	return f
}

type timeT = time.Time

var testNow = time.Date(2026, 11, 23, 7, 2, 28, 0, time.UTC)

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

// getAJAX is a GET as a script sends it (no HTML wanted).
func (c *client) getAJAX(path string) answer {
	c.e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, c.e.srv.URL+ctxPath+path, nil)
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	return c.do(req)
}
