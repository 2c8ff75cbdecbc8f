package trigger

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

const (
	testZone = "Asia/Shanghai"
)

// forEachBackend runs fn on a freshly prepared database per backend:
// "sqlite" always, "mysql" when XXL_TEST_MYSQL_DSN is set.
func forEachBackend(t *testing.T, fn func(t *testing.T, s *schema.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		fn(t, openSQLite(t))
	})
	t.Run("mysql", func(t *testing.T) {
		url, user, pass := storetest.MySQLURLZone(t, testZone)
		t.Parallel()
		fn(t, storetest.Open(t, url, user, pass))
	})
}

func openSQLite(tb testing.TB) *schema.Store {
	tb.Helper()
	return storetest.Open(tb, storetest.SQLiteURL(tb, "serverTimezone="+testZone), "", "")
}

// fakeExecutor speaks the executor side of executor-protocol.md §3 on
// loopback and records every /run body.
type fakeExecutor struct {
	srv *httptest.Server
	// runReply and beatReply are the bodies answered; default {"code":200}.
	runReply, beatReply string

	mu   sync.Mutex
	runs []api.TriggerParam
}

func newFakeExecutor(tb testing.TB) *fakeExecutor {
	tb.Helper()
	f := &fakeExecutor{runReply: `{"code":200}`, beatReply: `{"code":200}`}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /run", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var p api.TriggerParam
		if err := json.Unmarshal(body, &p); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.runs = append(f.runs, p)
		reply := f.runReply
		f.mu.Unlock()
		_, _ = io.WriteString(w, reply)
	})
	mux.HandleFunc("POST /beat", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, f.beatReply) })
	mux.HandleFunc("POST /idleBeat", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, f.beatReply) })
	f.srv = httptest.NewServer(mux)
	tb.Cleanup(f.srv.Close)
	return f
}

// address is the executor's registry address, in the form executors
// register (trailing slash).
func (f *fakeExecutor) address() string { return f.srv.URL + "/" }

// answerRuns sets the /run answer of the calls to come.
func (f *fakeExecutor) answerRuns(reply string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.runReply = reply
}

func (f *fakeExecutor) received() []api.TriggerParam {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.runs)
}

// deadAddress is a loopback address nobody listens on.
func deadAddress(tb testing.TB) string {
	tb.Helper()
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.URL + "/"
	srv.Close()
	return addr
}

// testNow is the fixed trigger clock: a wall time with milliseconds, so
// that logDateTime (ms) and the stored trigger_time (whole seconds) differ.
func testNow(s *schema.Store) time.Time {
	return time.Date(2026, 11, 22, 10, 30, 15, 123_000_000, s.Location())
}

type flowOpts struct {
	lang    string
	layout  Layout   // Layout342 also takes the 3.4.2 bundle
	durable *Durable // the leases of durable triggers (nil: the defaults)
}

func newTestFlow(tb testing.TB, s *schema.Store, o flowOpts) (*Flow, *api.Client) {
	tb.Helper()
	if o.lang == "" {
		o.lang = "zh_CN"
	}
	client := api.NewClient(api.ClientConfig{})
	tb.Cleanup(client.CloseIdleConnections)
	now := testNow(s)
	texts := i18n.Load(o.lang)
	if o.layout == Layout342 {
		texts = i18n.LoadFor(3, o.lang)
	}
	f := NewFlow(FlowConfig{
		Store: s, Client: client, Texts: texts, Layout: o.layout, AdminAddress: "10.0.0.2",
		Now: func() time.Time { return now }, Log: zerolog.Nop(), Durable: o.durable,
	})
	return f, client
}

// jobSpec is the part of a job and its group a test varies.
type jobSpec struct {
	addressType int
	addressList *string
	route       string
	block       string
	param       *string
	retry       int
	timeout     int
}

// seedJob writes a group and a job and returns the job.
func seedJob(t testing.TB, s *schema.Store, js jobSpec) schema.JobInfo {
	t.Helper()
	ctx := context.Background()
	gid, err := s.GroupSave(ctx, schema.Group{AppName: "xxl-job-test", Title: "test", AddressType: js.addressType, AddressList: js.addressList})
	if err != nil {
		t.Fatal(err)
	}
	if js.route == "" {
		js.route = "FIRST"
	}
	if js.block == "" {
		js.block = "SERIAL_EXECUTION"
	}
	glueTime := time.Date(2026, 1, 2, 3, 4, 5, 0, s.Location())
	job := schema.JobInfo{
		JobGroup: gid, JobDesc: "test job", ScheduleType: "NONE", MisfireStrategy: "DO_NOTHING",
		ExecutorRouteStrategy: &js.route, ExecutorHandler: schema.Ptr("demoJobHandler"), ExecutorParam: js.param,
		ExecutorBlockStrategy: &js.block, ExecutorTimeout: js.timeout, ExecutorFailRetryCount: js.retry,
		GlueType: "BEAN", GlueSource: schema.Ptr(""), GlueUpdatetime: &glueTime, Author: schema.Ptr("t"),
	}
	id, err := s.JobSave(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	job, err = s.JobLoad(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return job
}

// logsOf returns a job's log rows in id order.
func logsOf(t testing.TB, s *schema.Store, jobID int) []schema.JobLog {
	t.Helper()
	rows, _, err := s.LogPageList(context.Background(), 0, 10000, schema.LogFilter{JobID: jobID})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(rows, func(a, b schema.JobLog) int { return int(a.ID - b.ID) })
	return rows
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}
