// Package live runs real Java executors (xxl-job-core from Maven Central)
// against the Go admin: registration, /beat, /idleBeat, /run with callbacks,
// /log, /kill, registryRemove, and token mismatches on both sides
// (executor-protocol.md §2-§3). Enabled with XXL_TEST_JAVA=1 after
// `make java`; skipped otherwise.
package live

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaexec"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/admintest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

const token = "default_token"

// backend is one database the admin under test runs on.
type backend struct {
	name string
	url  func(t *testing.T) (url, user, pass string)
}

var backends = []backend{
	{"sqlite", func(t *testing.T) (string, string, string) {
		return "jdbc:sqlite:" + filepath.Join(t.TempDir(), "xxl-job.db"), "", ""
	}},
	{"mysql", func(t *testing.T) (string, string, string) { return storetest.MySQLURL(t) }},
}

func requireJava(t *testing.T) {
	t.Helper()
	if os.Getenv(javaexec.EnvEnabled) != "1" {
		t.Skip("[suite-off] java: " + javaexec.EnvEnabled + "=1 not set (build the executors with make java)")
	}
}

// adminKind is how the admin under test serves executors: the context
// path of its executor API (an executor is given base+contextPath as its
// admin address and appends "/api/<method>") and the settings it needs.
type adminKind struct {
	name        string
	contextPath string
	args        []string
}

// admin2x is our admin on the xxl-job 2.4.2 tables (it creates them on an
// empty database) under the context path of the Java admin 2.4.2.
var admin2x = adminKind{name: "2.x", contextPath: "/xxl-job-admin"}

// pairing is one executor version and the admin it is pointed at.
type pairing struct {
	version string
	admin   adminKind
}

// admin3x is our admin on the xxl-job 3.4.2 tables (it creates them on an
// empty database with xxl.job.schema=3.4), served at the root as the Java
// admin 3.4.2 is: executors are given the admin's address without a
// context path.
var admin3x = adminKind{name: "3.x", contextPath: "", args: []string{"--xxl.job.schema=3.4"}}

// pairings are the executors of the live scenario and the admins they
// talk to: every executor version against an admin on a 2.x database
// (under /xxl-job-admin) and against one on a 3.x database (at the root,
// where 3.4.1+ executors are configured without a context path; older
// ones are given the same root address). The library calls
// {admin}/api/<method> in every version.
func pairings() []pairing {
	var out []pairing
	for _, kind := range []adminKind{admin2x, admin3x} {
		for _, v := range javaexec.Versions() {
			out = append(out, pairing{v, kind})
		}
	}
	return out
}

func (p pairing) String() string {
	if p.admin.name == admin2x.name {
		return p.version
	}
	return p.version + "@" + p.admin.name
}

func TestLiveExecutors(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			requireJava(t)
			// Each pairing has its own admin, database and executor JVM;
			// nothing counts fires to the second here, so they overlap
			// (most of a pairing is a JVM starting).
			for _, p := range pairings() {
				t.Run(p.String(), func(t *testing.T) {
					t.Parallel()
					liveScenario(t, b, p)
				})
			}
		})
	}
}

// fixture is one admin with its own store handle and client.
type fixture struct {
	t      *testing.T
	base   string // http://127.0.0.1:port
	admin  string // what executors are given: base and the context path
	store  *schema.Store
	client *api.Client
}

func newFixture(t *testing.T, b backend) *fixture {
	return newFixtureFor(t, b, admin2x)
}

// newFixtureFor starts an admin of kind on b, with the extra settings
// given.
func newFixtureFor(t *testing.T, b backend, kind adminKind, extra ...string) *fixture {
	url, user, pass := b.url(t)
	args := append([]string{"--spring.datasource.url=" + url, "--spring.datasource.username=" + user,
		"--spring.datasource.password=" + pass, "--xxl.job.accessToken=" + token}, kind.args...)
	base := admintest.Start(t, append(args, extra...)...)
	target, err := schema.ParseJDBC(url, user, pass)
	if err != nil {
		t.Fatal(err)
	}
	store, err := schema.Open(context.Background(), target, schema.PoolSettings{MaxOpen: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	client := api.NewClient(api.ClientConfig{AccessToken: token})
	t.Cleanup(client.CloseIdleConnections)
	return &fixture{t: t, base: base, admin: base + kind.contextPath, store: store, client: client}
}

// eventually polls cond until it holds or the deadline passes. The other
// side is a separate JVM, so there is no in-process signal to wait on.
func (f *fixture) eventually(what string, within time.Duration, cond func() (bool, string)) {
	f.t.Helper()
	deadline := time.Now().Add(within)
	var last string
	for {
		ok, state := cond()
		if ok {
			return
		}
		last = state
		if time.Now().After(deadline) {
			f.t.Fatalf("%s: not within %s (last: %s)", what, within, last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (f *fixture) addressList() string {
	g, err := f.store.GroupLoad(context.Background(), 1)
	if err != nil {
		f.t.Fatal(err)
	}
	if g.AddressList == nil {
		return "<null>"
	}
	return *g.AddressList
}

func (f *fixture) registrations() []schema.Registry {
	rows, err := f.store.RegistryFindAll(context.Background(), time.Hour, time.Now())
	if err != nil {
		f.t.Fatal(err)
	}
	return rows
}

// run inserts a log row as the trigger flow does, sends /run and waits for
// the executor's callback to finish the row.
func (f *fixture) run(exec *javaexec.Executor, jobID int, handler, param string) (schema.JobLog, api.ReturnT[string]) {
	f.t.Helper()
	ctx := context.Background()
	now := time.Now()
	id, err := f.store.LogSave(ctx, schema.JobLog{JobGroup: 1, JobID: jobID, TriggerTime: &now})
	if err != nil {
		f.t.Fatal(err)
	}
	ret := f.client.Run(ctx, exec.Address(), api.TriggerParam{
		JobID: jobID, ExecutorHandler: &handler, ExecutorParams: &param,
		ExecutorBlockStrategy: schema.Ptr("SERIAL_EXECUTION"), LogID: id, LogDateTime: now.UnixMilli(),
		GlueType: "BEAN", BroadcastIndex: 0, BroadcastTotal: 1,
	})
	if err := f.store.LogUpdateTriggerInfo(ctx, schema.JobLog{ID: id, TriggerTime: &now, TriggerCode: ret.Code,
		ExecutorAddress: schema.Ptr(exec.Address())}); err != nil {
		f.t.Fatal(err)
	}
	l, err := f.store.LogLoad(ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return l, ret
}

func (f *fixture) waitHandled(id int64, within time.Duration) schema.JobLog {
	f.t.Helper()
	var l schema.JobLog
	f.eventually(fmt.Sprintf("callback of log %d", id), within, func() (bool, string) {
		var err error
		l, err = f.store.LogLoad(context.Background(), id)
		if err != nil {
			f.t.Fatal(err)
		}
		return l.HandleCode != 0, fmt.Sprintf("handle_code %d", l.HandleCode)
	})
	return l
}

func liveScenario(t *testing.T, b backend, p pairing) {
	var extra []string
	if runsWorkflow(b, p) {
		extra = workflowArgs
	}
	f := newFixtureFor(t, b, p.admin, extra...)
	port, err := javaexec.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	exec, err := javaexec.Start(ctx, javaexec.Options{Version: p.version, AdminAddress: f.admin,
		AccessToken: token, Port: port, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_ = exec.Kill()
		}
		if t.Failed() {
			t.Logf("executor output:\n%s", exec.Output())
		}
	})

	// Registration arrives at once and, with our early refresh, the executor
	// is in the group's address list within one beat (§2.4; docs/differences.md).
	f.eventually("registration in address_list", 5*time.Second, func() (bool, string) {
		l := f.addressList()
		return l == exec.Address(), l
	})

	if r := f.client.Beat(ctx, exec.Address()); r.Code != 200 {
		t.Fatalf("beat: %+v %s", r, r.MsgText())
	}
	if r := f.client.IdleBeat(ctx, exec.Address(), api.IdleBeatParam{JobID: 1}); r.Code != 200 {
		t.Fatalf("idleBeat: %+v %s", r, r.MsgText())
	}

	// /run success: the callback finishes the row (§2.5).
	l, ret := f.run(exec, 1, "successHandler", "p1")
	if ret.Code != 200 {
		t.Fatalf("run: %d %s", ret.Code, ret.MsgText())
	}
	l = f.waitHandled(l.ID, 10*time.Second)
	success := l.ID
	if l.HandleCode != 200 || l.HandleMsg == nil || !strings.Contains(*l.HandleMsg, "success param=p1") {
		t.Fatalf("success callback: %d %v", l.HandleCode, l.HandleMsg)
	}

	// /log returns the run's log (§3.6).
	lr := f.client.Log(ctx, exec.Address(), api.LogParam{LogDateTim: l.TriggerTime.UnixMilli(), LogID: l.ID, FromLineNum: 1})
	if lr.Code != 200 || lr.Content == nil || lr.Content.FromLineNum != 1 || lr.Content.ToLineNum < 1 || lr.Content.LogContent == "" {
		t.Fatalf("log: %+v %+v", lr, lr.Content)
	}

	// /run failure: handleFail("boom") gives 500 / boom.
	l, _ = f.run(exec, 1, "failHandler", "")
	l = f.waitHandled(l.ID, 10*time.Second)
	fail := l.ID
	if l.HandleCode != 500 || l.HandleMsg == nil || *l.HandleMsg != "boom" {
		t.Fatalf("fail callback: %d %v", l.HandleCode, l.HandleMsg)
	}

	// /kill stops the slow job; its callback says so (recording kill_running).
	slow, ret := f.run(exec, 2, "slowHandler", "30")
	if ret.Code != 200 {
		t.Fatalf("run slow: %d %s", ret.Code, ret.MsgText())
	}
	f.eventually("slow job running", 5*time.Second, func() (bool, string) {
		r := f.client.IdleBeat(ctx, exec.Address(), api.IdleBeatParam{JobID: 2})
		return r.Code == 500, r.MsgText()
	})
	if r := f.client.Kill(ctx, exec.Address(), api.KillParam{JobID: 2}); r.Code != 200 {
		t.Fatalf("kill: %d %s", r.Code, r.MsgText())
	}
	slow = f.waitHandled(slow.ID, 10*time.Second)
	if slow.HandleCode != 500 || slow.HandleMsg == nil || !strings.Contains(*slow.HandleMsg, "scheduling center kill job.") {
		t.Fatalf("kill callback: %d %v", slow.HandleCode, slow.HandleMsg)
	}

	// Each /run was executed once: not lost, not doubled.
	f.checkRanOnce(exec.Address(), exec.Runs, []int{1, 2}, success, fail, slow.ID)

	// This executor also runs a workflow's nodes (workflow_test.go).
	if runsWorkflow(b, p) {
		f.workflowScenario(javaWorkflowExecutor(exec.Address(), exec.Runs))
	}

	// A wrong token on the admin side is refused by the executor with the
	// Java message (recording auth_wrong_token).
	wrong := api.NewClient(api.ClientConfig{AccessToken: "wrong"})
	defer wrong.CloseIdleConnections()
	if r := wrong.Beat(ctx, exec.Address()); r.Code != 500 || r.MsgText() != "The access token is wrong." {
		t.Fatalf("wrong token beat: %d %q", r.Code, r.MsgText())
	}

	// Shutdown sends registryRemove, which deletes the row (§2.3, §2.4).
	if err := exec.Stop(); err != nil {
		t.Fatal(err)
	}
	stopped = true
	f.eventually("registration removed", 5*time.Second, func() (bool, string) {
		rows := f.registrations()
		return len(rows) == 0 && f.addressList() == "<null>", fmt.Sprintf("%d rows, list %s", len(rows), f.addressList())
	})
}

// TestLiveExecutorWrongToken: an executor with a different token is refused
// by the admin with the Java message, which the executor logs (§2.2 step 3).
func TestLiveExecutorWrongToken(t *testing.T) {
	requireJava(t)
	f := newFixture(t, backends[0])
	port, err := javaexec.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	exec, err := javaexec.Start(ctx, javaexec.Options{Version: "2.4.2", AdminAddress: f.admin,
		AccessToken: "not-the-admin-token", Port: port, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = exec.Kill() }()
	f.eventually("executor reports the refusal", 10*time.Second, func() (bool, string) {
		return strings.Contains(exec.Output(), "The access token is wrong."), "no refusal in output yet"
	})
	if rows := f.registrations(); len(rows) != 0 {
		t.Fatalf("refused executor registered: %+v", rows)
	}
}
