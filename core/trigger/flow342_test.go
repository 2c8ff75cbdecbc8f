package trigger

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// zh342 is the 3.4.2 trigger_msg of a cron trigger of one auto-registered
// executor list (JobTrigger.java 3.4.2 lines 200–235): %[1]s the list,
// %[2]s the route title, %[3]s the address line, %[4]s the parameter,
// %[5]s the result.
const zh342 = "任务触发类型：Cron触发<br>调度机器：10.0.0.2<br>执行器-注册方式：自动注册<br>执行器-地址列表：[%[1]s]<br>路由策略：%[2]s<br>阻塞处理策略：单机串行<br>任务超时时间：0<br>失败重试次数：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>触发调度<<<<<<<<<<< </span><br><br>执行器地址：%[3]s<br>JobHandler：demoJobHandler<br>任务参数：%[4]s<br>调度备注：%[5]s"

// TestTriggerLayout342 runs whole triggers with Layout342 through the real
// executor client: the address, handler, parameter and result lines, the
// 3.4.2 client's exception texts for a refused /run and refused probes,
// and one trigger time for every shard of a broadcast.
func TestTriggerLayout342(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		flow, _ := newTestFlow(t, s, flowOpts{layout: Layout342})
		dead := deadAddress(t)
		run := func(t *testing.T, js jobSpec, req Request) []schema.JobLog {
			t.Helper()
			job := seedJob(t, s, js)
			req.JobID, req.Type, req.FailRetryCount = job.ID, TypeCron, -1
			if err := flow.Trigger(ctx, req); err != nil {
				t.Fatal(err)
			}
			return logsOf(t, s, job.ID)
		}
		check := func(t *testing.T, row schema.JobLog, code int, want string) {
			t.Helper()
			if row.TriggerCode != code || str(row.TriggerMsg) != want {
				t.Errorf("code %d, want %d; trigger_msg\n got: %s\nwant: %s", row.TriggerCode, code, str(row.TriggerMsg), want)
			}
		}

		t.Run("success with a parameter override", func(t *testing.T) {
			exec := newFakeExecutor(t)
			rows := run(t, jobSpec{addressList: schema.Ptr(exec.address()), param: schema.Ptr("p1")}, Request{ExecutorParam: schema.Ptr("a<b")})
			check(t, rows[0], 200, fmt.Sprintf(zh342, exec.address(), "第一个", exec.address(), "a&lt;b", "success"))
		})
		t.Run("executor answers an error", func(t *testing.T) {
			exec := newFakeExecutor(t)
			exec.runReply = `{"code":500,"msg":"job handler not found"}`
			rows := run(t, jobSpec{addressList: schema.Ptr(exec.address())}, Request{})
			check(t, rows[0], 500, fmt.Sprintf(zh342, exec.address(), "第一个", exec.address(), "null",
				"error, 触发调度：<br>address："+exec.address()+"<br>code：500<br>msg：job handler not found"))
		})
		t.Run("executor unreachable", func(t *testing.T) {
			rows := run(t, jobSpec{addressList: &dead, param: schema.Ptr("")}, Request{})
			msg := str(rows[0].TriggerMsg)
			head := fmt.Sprintf(zh342, dead, "第一个", dead, "", "error, java.lang.RuntimeException: Http Request Error (")
			if rows[0].TriggerCode != 500 || !strings.HasPrefix(msg, head) || !strings.HasSuffix(msg, "). for url : "+dead+"run") {
				t.Errorf("code %d trigger_msg %s", rows[0].TriggerCode, msg)
			}
		})
		t.Run("busyover, every idleBeat refused", func(t *testing.T) {
			rows := run(t, jobSpec{addressList: &dead, route: "BUSYOVER", param: schema.Ptr("")}, Request{})
			msg := str(rows[0].TriggerMsg)
			report := "<br>执行器地址：address route fail, 空闲检测：<br>address：" + dead + "<br>code：500<br>msg：java.lang.RuntimeException: Http Request Error ("
			tail := "). for url : " + dead + "idleBeat<br>JobHandler：demoJobHandler<br>任务参数：<br>调度备注：error, Address Router Fail."
			if rows[0].TriggerCode != 500 || rows[0].ExecutorAddress != nil || !strings.Contains(msg, report) || !strings.HasSuffix(msg, tail) {
				t.Errorf("code %d trigger_msg %s", rows[0].TriggerCode, msg)
			}
		})
		t.Run("failover, every beat refused", func(t *testing.T) {
			rows := run(t, jobSpec{addressList: &dead, route: "FAILOVER", param: schema.Ptr("")}, Request{})
			msg := str(rows[0].TriggerMsg)
			report := "<br>执行器地址：address route fail, 心跳检测：<br>address：" + dead + "<br>code：500<br>msg：Http Request Error ("
			if rows[0].TriggerCode != 500 || !strings.Contains(msg, report) || !strings.HasSuffix(msg, "). for url : "+dead+"beat<br>JobHandler：demoJobHandler<br>任务参数：<br>调度备注：error, Address Router Fail.") {
				t.Errorf("code %d trigger_msg %s", rows[0].TriggerCode, msg)
			}
		})
		t.Run("broadcast", func(t *testing.T) {
			a, b := newFakeExecutor(t), newFakeExecutor(t)
			list := a.address() + ", " + b.address()
			rows := run(t, jobSpec{addressList: schema.Ptr(a.address() + "," + b.address()), route: "SHARDING_BROADCAST", param: schema.Ptr("")}, Request{})
			if len(rows) != 2 {
				t.Fatalf("%d rows, want 2", len(rows))
			}
			for i, exec := range []*fakeExecutor{a, b} {
				check(t, rows[i], 200, fmt.Sprintf(zh342, list, fmt.Sprintf("分片广播(%d/2)", i), exec.address(), "", "success"))
			}
			// JobTrigger.java 3.4.2 line 90: one trigger time for every shard.
			if !rows[0].TriggerTime.Equal(*rows[1].TriggerTime) || a.received()[0].LogDateTime != b.received()[0].LogDateTime {
				t.Errorf("shard times differ: %v %v", rows[0].TriggerTime, rows[1].TriggerTime)
			}
		})
		t.Run("no group row", func(t *testing.T) {
			job := seedJob(t, s, jobSpec{param: schema.Ptr("")})
			job.JobGroup = 987654
			if _, err := s.JobUpdate(ctx, job); err != nil {
				t.Skipf("cannot orphan the job here: %v", err)
			}
			if err := flow.Trigger(ctx, Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}); err != nil {
				t.Fatal(err)
			}
			msg := str(logsOf(t, s, job.ID)[0].TriggerMsg)
			if !strings.Contains(msg, "<br>执行器地址：address route fail, executor group [987654] not found<br>") {
				t.Errorf("trigger_msg %s", msg)
			}
		})
	})
}
