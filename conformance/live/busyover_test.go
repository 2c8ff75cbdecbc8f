package live

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaexec"
)

// TestLiveBusyover runs BUSYOVER's real probe (routing.md §1.7): two Java
// executors 2.4.2 register for one group; while the first in the address
// list runs the job (a slow run sent to it directly), a "run once" from
// our console probes it with /idleBeat, gets the executor's 500 "job
// thread is running or has trigger queue.", and routes to the second,
// idle one; trigger_msg carries both probe reports. Once the first is idle
// again, the next trigger goes to it after one probe.
func TestLiveBusyover(t *testing.T) {
	requireJava(t)
	f := newFixture(t, backends[0])
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const app = "busyover-app"
	now := time.Now()
	group, err := f.store.GroupSave(ctx, schema.Group{AppName: app, Title: "busyover", AddressType: 0, UpdateTime: &now})
	if err != nil {
		t.Fatal(err)
	}
	job, err := f.store.JobSave(ctx, schema.JobInfo{JobGroup: group, JobDesc: "busyover", AddTime: &now, UpdateTime: &now,
		Author: schema.Ptr("live"), AlarmEmail: schema.Ptr(""), ScheduleType: "NONE", ScheduleConf: schema.Ptr(""),
		MisfireStrategy: "DO_NOTHING", ExecutorRouteStrategy: schema.Ptr("BUSYOVER"), ExecutorHandler: schema.Ptr("successHandler"),
		ExecutorParam: schema.Ptr(""), ExecutorBlockStrategy: schema.Ptr("SERIAL_EXECUTION"), GlueType: "BEAN",
		GlueSource: schema.Ptr(""), GlueRemark: schema.Ptr(""), GlueUpdatetime: &now, ChildJobID: schema.Ptr("")})
	if err != nil {
		t.Fatal(err)
	}
	var execs []*javaexec.Executor
	for range 2 {
		port, err := javaexec.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		e, err := javaexec.Start(ctx, javaexec.Options{Version: "2.4.2", AdminAddress: f.admin,
			AccessToken: token, AppName: app, Port: port, LogDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = e.Kill() })
		execs = append(execs, e)
	}
	// The registry keeps the list sorted (§9): the busy one is the first.
	sort.Slice(execs, func(i, j int) bool { return execs[i].Address() < execs[j].Address() })
	busy, idle := execs[0], execs[1]
	want := busy.Address() + "," + idle.Address()
	f.eventually("both executors in the group's address list", 10*time.Second, func() (bool, string) {
		g, err := f.store.GroupLoad(ctx, group)
		if err != nil {
			t.Fatal(err)
		}
		return g.AddressList != nil && *g.AddressList == want, fmt.Sprint(g.AddressList)
	})

	// The first executor runs the job for a while.
	at := time.Now()
	slowLog, err := f.store.LogSave(ctx, schema.JobLog{JobGroup: group, JobID: job, TriggerTime: &at})
	if err != nil {
		t.Fatal(err)
	}
	if r := f.client.Run(ctx, busy.Address(), api.TriggerParam{JobID: job, ExecutorHandler: schema.Ptr("slowHandler"),
		ExecutorParams: schema.Ptr("30"), ExecutorBlockStrategy: schema.Ptr("SERIAL_EXECUTION"), LogID: slowLog,
		LogDateTime: at.UnixMilli(), GlueType: "BEAN", BroadcastTotal: 1}); r.Code != 200 {
		t.Fatalf("slow run: %d %s", r.Code, r.MsgText())
	}
	f.eventually("the first executor busy with the job", 10*time.Second, func() (bool, string) {
		r := f.client.IdleBeat(ctx, busy.Address(), api.IdleBeatParam{JobID: job})
		return r.Code == 500, r.MsgText()
	})

	con, err := javaadmin.Login(f.admin, "admin", "123456")
	if err != nil {
		t.Fatal(err)
	}
	probe := func(addr string, code int, msg string) string {
		return "空闲检测：<br>address：" + addr + "<br>code：" + fmt.Sprint(code) + "<br>msg：" + msg
	}
	l := f.triggerOnce(con, job, slowLog)
	first := l.ID
	report := probe(busy.Address(), 500, "job thread is running or has trigger queue.") + "<br><br>" + probe(idle.Address(), 200, "null")
	if l.ExecutorAddress == nil || *l.ExecutorAddress != idle.Address() || l.TriggerMsg == nil || !strings.Contains(*l.TriggerMsg, report) {
		t.Errorf("busy first executor: routed to %v, trigger_msg %v; want %s and the report %q", l.ExecutorAddress, l.TriggerMsg, idle.Address(), report)
	}

	// Idle again: the first probe answers 200 and wins.
	if r := f.client.Kill(ctx, busy.Address(), api.KillParam{JobID: job}); r.Code != 200 {
		t.Fatalf("kill: %d %s", r.Code, r.MsgText())
	}
	f.eventually("the first executor idle again", 10*time.Second, func() (bool, string) {
		r := f.client.IdleBeat(ctx, busy.Address(), api.IdleBeatParam{JobID: job})
		return r.Code == 200, r.MsgText()
	})
	l = f.triggerOnce(con, job, l.ID)
	report = probe(busy.Address(), 200, "null") + "<br><br>"
	if l.ExecutorAddress == nil || *l.ExecutorAddress != busy.Address() || l.TriggerMsg == nil || !strings.Contains(*l.TriggerMsg, report) ||
		strings.Contains(*l.TriggerMsg, idle.Address()+"<br>code") {
		t.Errorf("idle first executor: routed to %v, trigger_msg %v; want %s after one probe %q", l.ExecutorAddress, l.TriggerMsg, busy.Address(), report)
	}
	// Each run was executed once, where it was routed.
	f.checkRanOnce(busy.Address(), busy.Runs, []int{job}, slowLog, l.ID)
	f.checkRanOnce(idle.Address(), idle.Runs, []int{job}, first)
}

// triggerOnce runs the job once through the console and returns its new
// log row (id above after) once the executor's callback finished it.
func (f *fixture) triggerOnce(con *javaadmin.Console, job int, after int64) schema.JobLog {
	f.t.Helper()
	if err := con.Trigger(job, "busyover"); err != nil {
		f.t.Fatal(err)
	}
	var got schema.JobLog
	f.eventually("the triggered run finished", 15*time.Second, func() (bool, string) {
		logs, _, err := f.store.LogPageList(context.Background(), 0, 10, schema.LogFilter{JobID: job, LogStatus: -1})
		if err != nil {
			f.t.Fatal(err)
		}
		for _, l := range logs {
			if l.ID > after && l.TriggerCode != 0 && l.HandleCode != 0 {
				got = l
				return true, ""
			}
		}
		return false, fmt.Sprintf("%d logs", len(logs))
	})
	return got
}
