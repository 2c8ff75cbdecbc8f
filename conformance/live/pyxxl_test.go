package live

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaexec"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

const (
	// envPyxxl is the python of a virtualenv with pyxxl 0.4.8
	// (.ci/setup.d/50-pyxxl.sh); it switches the pyxxl test on.
	envPyxxl = "XXL_TEST_PYXXL"
	// envPyxxlJava also runs the scenario against the Java admin 2.4.2, to
	// measure the pinned rows again.
	envPyxxlJava = "XXL_TEST_PYXXL_JAVA"
	pyxxlApp     = "pyxxl-app"
)

// pyxxlJob is one job of the scenario and the log row it must leave:
// every column but ids and times, with the executor's address written
// {executor} and the admin's {admin} in trigger_msg.
type pyxxlJob struct {
	desc, handler, param, route string
	timeout                     int
	want                        string
}

// pyxxlJobs pins the rows measured with the Java admin 2.4.2 and pyxxl
// 0.4.8 (XXL_TEST_PYXXL_JAVA=1 measures them again). Columns: handler,
// param, sharding param, retry count, trigger code, trigger_msg, handle
// code, handle_msg. pyxxl answers a /run it accepted with msg "Running",
// which both admins copy into trigger_msg.
var pyxxlJobs = []pyxxlJob{
	{desc: "succeeds", handler: "pySuccess", param: "p1", route: "FIRST", want: "pySuccess|p1|NULL|0|200|" +
		triggerMsg("第一个", "单机串行", 0, "200", "Running") + "|200|ok p1"},
	{desc: "raises", handler: "pyRaise", route: "FIRST", want: "pyRaise||NULL|0|200|" +
		triggerMsg("第一个", "单机串行", 0, "200", "Running") + "|500|boom from python"},
	{desc: "outlives its timeout", handler: "pySlow", route: "FIRST", timeout: 2, want: "pySlow||NULL|0|200|" +
		triggerMsg("第一个", "单机串行", 2, "200", "Running") + "|500|TimeoutError"},
	{desc: "reads its shard", handler: "pyShard", route: "SHARDING_BROADCAST", want: "pyShard||0/1|0|200|" +
		triggerMsg("分片广播(0/1)", "单机串行", 0, "200", "Running") + "|200|shard 0/1"},
	{desc: "names a handler it lacks", handler: "pyMissing", route: "FIRST", want: "pyMissing||NULL|0|500|" +
		triggerMsg("第一个", "单机串行", 0, "500", "handler pyMissing not found.") + "|0|NULL"},
}

// triggerMsg is the zh_CN trigger_msg of a run on the one executor
// (scheduler.md §6).
func triggerMsg(route, block string, timeout int, code, msg string) string {
	return "任务触发类型：手动触发<br>调度机器：{admin}<br>执行器-注册方式：自动注册<br>执行器-地址列表：[{executor}]<br>" +
		"路由策略：" + route + "<br>阻塞处理策略：" + block + "<br>任务超时时间：" + strconv.Itoa(timeout) + "<br>失败重试次数：0<br><br>" +
		`<span style="color:#00c0ef;" > >>>>>>>>>>>触发调度<<<<<<<<<<< </span><br>触发调度：<br>address：{executor}<br>code：` +
		code + "<br>msg：" + msg
}

// TestLivePyxxl: a third-party executor, pyxxl 0.4.8 (Python, PyPI),
// registers with our admin and runs jobs started from our console: a
// success, a raise, a run that outlives its timeout, a shard reader and a
// handler it lacks. The log rows must be the ones the Java admin writes
// for the same runs (pinned in pyxxlJobs). Against ours it then runs a
// workflow's nodes and has one killed by a stop (workflow_test.go).
func TestLivePyxxl(t *testing.T) {
	py := os.Getenv(envPyxxl)
	if py == "" {
		t.Skip("[suite-off] pyxxl: set " + envPyxxl + " to a python with pyxxl==0.4.8 (.ci/setup.d/50-pyxxl.sh)")
	}
	t.Run("ours", func(t *testing.T) {
		f := newFixtureFor(t, backends[0], admin2x, workflowArgs...)
		x := pyxxlScenario(t, py, f.admin, f.store)
		// pyxxl also runs a workflow's nodes (workflow_test.go).
		f.workflowScenario(x)
	})
	t.Run("java", func(t *testing.T) {
		if os.Getenv(envPyxxlJava) != "1" {
			t.Skip("measures the pinned rows against the Java admin: set " + envPyxxlJava + "=1")
		}
		jar := javaadmin.Require(t)
		url, user, pass := storetest.MySQLURLZone(t, javaadmin.Zone)
		url += "&useUnicode=true&characterEncoding=UTF-8"
		db, err := cluster.OpenDB(t.Context(), url, user, pass)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(db.Close)
		a, err := javaadmin.Start(t.Context(), javaadmin.Java{Jar: jar}, javaadmin.Settings{DatasourceURL: url, User: user,
			Password: pass, AccessToken: token, WorkDir: t.TempDir()}, &bytes.Buffer{}, 2*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(a.Kill)
		_ = pyxxlScenario(t, py, a.URL(), db.Store)
	})
}

// pyxxlScenario runs the pyxxl jobs; it returns the executor, still
// running until the test ends.
func pyxxlScenario(t *testing.T, py, admin string, store *schema.Store) wfExecutor {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	now := time.Now()
	group, err := store.GroupSave(ctx, schema.Group{AppName: pyxxlApp, Title: "pyxxl", AddressType: 0, UpdateTime: &now})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int, len(pyxxlJobs))
	for i, j := range pyxxlJobs {
		ids[i], err = store.JobSave(ctx, schema.JobInfo{JobGroup: group, JobDesc: j.desc, AddTime: &now, UpdateTime: &now,
			Author: schema.Ptr("live"), AlarmEmail: schema.Ptr(""), ScheduleType: "NONE", ScheduleConf: schema.Ptr(""),
			MisfireStrategy: "DO_NOTHING", ExecutorRouteStrategy: schema.Ptr(j.route), ExecutorHandler: schema.Ptr(j.handler),
			ExecutorParam: schema.Ptr(j.param), ExecutorBlockStrategy: schema.Ptr("SERIAL_EXECUTION"), ExecutorTimeout: j.timeout,
			GlueType: "BEAN", GlueSource: schema.Ptr(""), GlueRemark: schema.Ptr(""), GlueUpdatetime: &now, ChildJobID: schema.Ptr("")})
		if err != nil {
			t.Fatal(err)
		}
	}
	port, err := javaexec.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	py1 := startPyxxl(t, py, admin+"/api/", port, work)
	address := "http://127.0.0.1:" + strconv.Itoa(port)
	// Ours lists a new executor at once; Java at its next registry pass (≤ 30 s, §9).
	deadline := time.Now().Add(45 * time.Second)
	for {
		g, err := store.GroupLoad(ctx, group)
		if err != nil {
			t.Fatal(err)
		}
		if g.AddressList != nil && *g.AddressList == address {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pyxxl not in the group's address list (%v); its output:\n%s", g.AddressList, py1.output())
		}
		time.Sleep(100 * time.Millisecond)
	}
	con, err := javaadmin.Login(admin, "admin", "123456")
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range pyxxlJobs {
		if err := con.Trigger(ids[i], j.param); err != nil {
			t.Fatal(err)
		}
	}
	got := map[int]string{}
	logID := map[int]int64{}
	deadline = time.Now().Add(30 * time.Second)
	for len(got) < len(ids) && time.Now().Before(deadline) {
		for _, id := range ids {
			logs, _, err := store.LogPageList(ctx, 0, 10, schema.LogFilter{JobID: id, LogStatus: -1})
			if err != nil {
				t.Fatal(err)
			}
			if len(logs) == 1 && (logs[0].HandleCode != 0 || logs[0].TriggerCode == 500) {
				got[id] = pyxxlRow(logs[0], address)
				logID[id] = logs[0].ID
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	for i, j := range pyxxlJobs {
		if got[ids[i]] != j.want {
			t.Errorf("job %q: log row\n  %s\nwant\n  %s", j.desc, got[ids[i]], j.want)
		}
	}
	// Each job pyxxl accepted ran there once (the one it lacks never runs).
	var ran []int64
	for i, j := range pyxxlJobs {
		if j.handler != "pyMissing" {
			ran = append(ran, logID[ids[i]])
		}
	}
	f := &fixture{t: t, store: store}
	f.checkRanOnce(address, pyxxlLedger(work), ids, ran...)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("pyxxl output:\n%s", py1.output())
		}
	})
	return wfExecutor{group: group, address: address, runs: pyxxlLedger(work), success: "pySuccess",
		echo: func(p string) string { return "ok " + p }, fail: "pyRaise", failMsg: "boom from python", slow: "pySlow"}
}

// pyxxlRow renders the compared columns of a log row.
func pyxxlRow(l schema.JobLog, address string) string {
	s := func(p *string) string {
		if p == nil {
			return "NULL"
		}
		return *p
	}
	msg := s(l.TriggerMsg)
	msg = strings.ReplaceAll(msg, address, "{executor}")
	if i := strings.Index(msg, "调度机器："); i >= 0 {
		if j := strings.Index(msg[i:], "<br>"); j >= 0 {
			msg = msg[:i] + "调度机器：{admin}" + msg[i+j:]
		}
	}
	return strings.Join([]string{s(l.ExecutorHandler), s(l.ExecutorParam), s(l.ExecutorShardingParam),
		strconv.Itoa(l.ExecutorFailRetryCount), strconv.Itoa(l.TriggerCode), msg, strconv.Itoa(l.HandleCode), s(l.HandleMsg)}, "|")
}

// pyxxlProcess is a running pyxxl executor.
type pyxxlProcess struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

func (p *pyxxlProcess) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.Write(b)
}

func (p *pyxxlProcess) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// startPyxxl runs conformance/pyxxl/executor.py against the admin API at
// api, in work (its run ledger is work/runs.txt); the test's end stops it
// with SIGTERM (it deregisters), then kills.
func startPyxxl(t *testing.T, py, api string, port int, work string) *pyxxlProcess {
	t.Helper()
	root, err := javaadmin.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	p := &pyxxlProcess{done: make(chan struct{})}
	p.cmd = exec.Command(py, filepath.Join(root, "conformance", "pyxxl", "executor.py"), api, pyxxlApp, token,
		strconv.Itoa(port), work)
	p.cmd.Stdout, p.cmd.Stderr = p, p
	p.cmd.Env = append(os.Environ(), "PYTHONUNBUFFERED=1")
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start pyxxl: %v", err)
	}
	go func() {
		_ = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}
