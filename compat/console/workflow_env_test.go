package console

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
	"github.com/xxl-admin-go/xxl-admin-go/static"
)

// wfEnv is a console of either generation with its real templates on a
// SQLite database with the workflow tables, and the workflow engine
// behind a trigger door that records (a node triggered stays TRIGGERED:
// no executor answers).
type wfEnv struct {
	t      testing.TB
	gen3   bool
	store  *schema.Store
	srv    *httptest.Server
	engine *workflow.Engine
	g2, g3 schema.Group
	// j2a, j2b are jobs of g2 (j2a with a CRON schedule of its own); j3 of g3.
	j2a, j2b, j3 schema.JobInfo
}

func newWfEnv(t testing.TB, gen3, on bool) *wfEnv {
	t.Helper()
	e := &wfEnv{t: t, gen3: gen3}
	gen, texts := 2, i18n.Load("en")
	if gen3 {
		gen, texts = 3, i18n.LoadFor(3, "en")
		e.store = storetest.OpenGen(t, schema.Gen3, storetest.SQLiteURL(t, ""), "", "")
	} else {
		e.store = storetest.SQLite(t)
	}
	if _, err := e.store.EnsureWorkflowTables(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.g2 = testfactory.ManualGroup(t, e.store, "http://127.0.0.1:19991/")
	e.g3 = testfactory.ManualGroup(t, e.store, "http://127.0.0.1:19991/")
	e.j2a = testfactory.Job(t, e.store, testfactory.JobOpts{Group: e.g2.ID, Desc: "extract <img src=x onerror=alert(1)>",
		ScheduleType: "CRON", ScheduleConf: "0 0 3 * * ?"})
	e.j2b = testfactory.Job(t, e.store, testfactory.JobOpts{Group: e.g2.ID, Desc: "load"})
	e.j3 = testfactory.Job(t, e.store, testfactory.JobOpts{Group: e.g3.ID, Desc: "other team"})
	u := testfactory.User(t, e.store, testfactory.UserOpts{Username: "normal1", Permission: schema.Ptr(itoa(e.g2.ID))})
	if gen3 { // 3.x logins take the SHA-256 of the password
		sum := sha256.Sum256([]byte("123456"))
		u.Password = hex.EncodeToString(sum[:])
		if _, err := e.store.UserUpdate(context.Background(), u); err != nil {
			t.Fatal(err)
		}
	}
	cfg := Config{Store: e.store, Jobs: jobs.New(jobs.Config{Store: e.store, Texts: texts, Loc: time.UTC, Now: time.Now}),
		Trigger: &submits{}, Executor: &fakeExecutor{}, Results: overwriter{e.store}, Texts: texts, Files: static.Files(),
		ContextPath: ctxPath, Secret: []byte("0123456789abcdef0123456789abcdef"), Generation: gen,
		Loc: time.UTC, Now: time.Now, Log: zerolog.Nop()}
	if on {
		d := &trigger.Durable{Owner: "console-test", Lease: time.Minute, SendLease: 2 * time.Minute}
		e.engine = workflow.New(workflow.Config{Store: e.store, Trigger: &submits{}, Durable: d, Loc: time.UTC, Log: zerolog.Nop()})
		cfg.Workflows = e.engine
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.srv = httptest.NewServer(c.Handler())
	t.Cleanup(e.srv.Close)
	return e
}

// wf is the workflow pages' path.
func (e *wfEnv) wf() string {
	if e.gen3 {
		return ctxPath + "/xxl-admin-go/workflow"
	}
	return ctxPath + "/workflow"
}

// wfClient is a logged-in session; redirects are not followed.
type wfClient struct {
	e    *wfEnv
	http *http.Client
}

func (e *wfEnv) login(user string) *wfClient {
	e.t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &wfClient{e: e, http: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
	path := "/login"
	if e.gen3 {
		path = "/auth/doLogin"
	}
	status, _, body := c.post(ctxPath+path, url.Values{"userName": {user}, "password": {"123456"}})
	if status != 200 || !strings.Contains(body, `"code":200`) {
		e.t.Fatalf("login %s: %d %s", user, status, body)
	}
	return c
}

// Cookies are the session's cookies, for a browser.
func (c *wfClient) cookies() []*http.Cookie {
	u, _ := url.Parse(c.e.srv.URL + ctxPath + "/")
	return c.http.Jar.Cookies(u)
}

func (c *wfClient) get(path string) (int, string) {
	c.e.t.Helper()
	resp, err := c.http.Get(c.e.srv.URL + path)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// post sends a form; it returns the status, the Location and the body.
func (c *wfClient) post(path string, form url.Values) (int, string, string) {
	c.e.t.Helper()
	resp, err := c.http.PostForm(c.e.srv.URL+path, form)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

// save stores a workflow of nodes ("id:job:label" each) and edges
// ("1 -> 2" lines) through the editor and returns its id.
func (c *wfClient) save(group int, name string, nodes []string, edges string) (int, string) {
	c.e.t.Helper()
	f := url.Values{"id": {"0"}, "jobGroup": {itoa(group)}, "name": {name}, "scheduleType": {"NONE"}, "misfire": {"DO_NOTHING"},
		"policy": {"PARALLEL"}, "maxParallel": {"3"}, "edges": {edges}}
	for _, n := range nodes {
		parts := strings.SplitN(n, ":", 3)
		f.Add("node_id", parts[0])
		f.Add("node_job", parts[1])
		f.Add("node_label", parts[2])
		f.Add("node_rule", "all_success")
		f.Add("node_param", "")
	}
	status, loc, body := c.post(c.e.wf()+"/save", f)
	if status != http.StatusSeeOther {
		return 0, body
	}
	u, err := url.Parse(loc)
	if err != nil {
		c.e.t.Fatal(err)
	}
	id, err := springInt(u.Query().Get("id"))
	if err != nil {
		c.e.t.Fatalf("save redirected to %s", loc)
	}
	return id, ""
}
