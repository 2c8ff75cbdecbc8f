package trigger

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// zhSuccess is the scheduler.md §6 zh_CN template for one FIRST-routed,
// auto-registered executor answering {"code":200}; %[1]s is the address.
const zhSuccess = "任务触发类型：Cron触发<br>调度机器：10.0.0.2<br>执行器-注册方式：自动注册<br>执行器-地址列表：[%[1]s]<br>路由策略：第一个<br>阻塞处理策略：单机串行<br>任务超时时间：0<br>失败重试次数：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>触发调度<<<<<<<<<<< </span><br>触发调度：<br>address：%[1]s<br>code：200<br>msg：null"

// TestTriggerSingle: one trigger writes one finished log row and sends the
// TriggerParam of executor-protocol.md §3.4 whose logId is that row
// (scheduler.md §5, §5.1, §6).
func TestTriggerSingle(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *schema.Store) {
		exec := newFakeExecutor(t)
		job := seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address()), param: schema.Ptr("p1"), timeout: 0})
		flow, _ := newTestFlow(t, s, flowOpts{})
		if err := flow.Trigger(context.Background(), Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}); err != nil {
			t.Fatalf("Trigger: %v", err)
		}
		rows := logsOf(t, s, job.ID)
		if len(rows) != 1 {
			t.Fatalf("got %d log rows, want 1", len(rows))
		}
		row := rows[0]
		now := testNow(s)
		if row.JobGroup != job.JobGroup || row.TriggerCode != 200 || row.HandleCode != 0 || row.AlarmStatus != 0 {
			t.Errorf("row codes: %+v", row)
		}
		if row.TriggerTime == nil || !row.TriggerTime.Equal(now.Truncate(time.Second)) {
			t.Errorf("trigger_time = %v, want %v", row.TriggerTime, now.Truncate(time.Second))
		}
		if str(row.ExecutorAddress) != exec.address() || str(row.ExecutorHandler) != "demoJobHandler" ||
			str(row.ExecutorParam) != "p1" || row.ExecutorShardingParam != nil || row.ExecutorFailRetryCount != 0 {
			t.Errorf("row trigger info: address %s handler %s param %s sharding %s retry %d", str(row.ExecutorAddress),
				str(row.ExecutorHandler), str(row.ExecutorParam), str(row.ExecutorShardingParam), row.ExecutorFailRetryCount)
		}
		if want := fmt.Sprintf(zhSuccess, exec.address()); str(row.TriggerMsg) != want {
			t.Errorf("trigger_msg\n got: %s\nwant: %s", str(row.TriggerMsg), want)
		}
		runs := exec.received()
		if len(runs) != 1 {
			t.Fatalf("executor got %d /run calls, want 1", len(runs))
		}
		want := api.TriggerParam{
			JobID: job.ID, ExecutorHandler: schema.Ptr("demoJobHandler"), ExecutorParams: schema.Ptr("p1"),
			ExecutorBlockStrategy: schema.Ptr("SERIAL_EXECUTION"), LogID: row.ID, LogDateTime: now.UnixMilli(),
			GlueType: "BEAN", GlueSource: schema.Ptr(""), GlueUpdatetime: job.GlueUpdatetime.UnixMilli(),
			BroadcastIndex: 0, BroadcastTotal: 1,
		}
		if got := runs[0]; fmt.Sprintf("%+v", deepParam(got)) != fmt.Sprintf("%+v", deepParam(want)) {
			t.Errorf("TriggerParam\n got: %+v\nwant: %+v", deepParam(got), deepParam(want))
		}
	})
}

// deepParam renders pointer members by value for comparison.
func deepParam(p api.TriggerParam) string {
	return fmt.Sprintf("job=%d handler=%s params=%s block=%s timeout=%d log=%d time=%d glue=%s src=%s glueTime=%d shard=%d/%d",
		p.JobID, str(p.ExecutorHandler), str(p.ExecutorParams), str(p.ExecutorBlockStrategy), p.ExecutorTimeout,
		p.LogID, p.LogDateTime, p.GlueType, str(p.GlueSource), p.GlueUpdatetime, p.BroadcastIndex, p.BroadcastTotal)
}

// TestTriggerBroadcast: SHARDING_BROADCAST over three executors writes
// three rows with sharding "i/3" and sends index i, total 3 to list[i]
// (scheduler.md §5 step 7, routing.md §1.8).
func TestTriggerBroadcast(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *schema.Store) {
		execs := []*fakeExecutor{newFakeExecutor(t), newFakeExecutor(t), newFakeExecutor(t)}
		addrs := []string{execs[0].address(), execs[1].address(), execs[2].address()}
		job := seedJob(t, s, jobSpec{addressList: schema.Ptr(strings.Join(addrs, ",")), route: "SHARDING_BROADCAST"})
		flow, _ := newTestFlow(t, s, flowOpts{lang: "en"})
		if err := flow.Trigger(context.Background(), Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}); err != nil {
			t.Fatalf("Trigger: %v", err)
		}
		rows := logsOf(t, s, job.ID)
		if len(rows) != 3 {
			t.Fatalf("got %d rows, want 3", len(rows))
		}
		for i, row := range rows {
			sh := fmt.Sprintf("%d/3", i)
			if str(row.ExecutorShardingParam) != sh || str(row.ExecutorAddress) != addrs[i] || row.TriggerCode != 200 {
				t.Errorf("row %d: sharding %s address %s code %d", i, str(row.ExecutorShardingParam), str(row.ExecutorAddress), row.TriggerCode)
			}
			wantMsg := "Job trigger type：Cron trigger<br>Trigger machine address：10.0.0.2<br>Execotor-Registry Type：Automatic registration<br>Execotor-Registry Address：[" +
				strings.Join(addrs, ", ") + "]<br>Route Strategy：Sharding Broadcast(" + sh + ")<br>Block Strategy：Serial execution<br>Job timeout period：0<br>Fail Retry Count：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>Trigger Job：<br>address：" +
				addrs[i] + "<br>code：200<br>msg：null"
			if str(row.TriggerMsg) != wantMsg {
				t.Errorf("row %d trigger_msg\n got: %s\nwant: %s", i, str(row.TriggerMsg), wantMsg)
			}
			runs := execs[i].received()
			if len(runs) != 1 || runs[0].BroadcastIndex != i || runs[0].BroadcastTotal != 3 || runs[0].LogID != row.ID {
				t.Errorf("executor %d received %+v, want index %d/3 log %d", i, runs, i, row.ID)
			}
		}
	})
}

// TestTriggerFailures covers the rows written when no /run succeeds:
// executor down (executor-protocol.md §3.1 transport error), empty list
// (scheduler.md §6 example), FAILOVER with every probe failing, an unknown
// route (our documented divergence) and a missing job (no row, §5 step 1).
func TestTriggerFailures(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		flow, _ := newTestFlow(t, s, flowOpts{lang: "en"})
		dead := deadAddress(t)

		t.Run("executor down", func(t *testing.T) {
			job := seedJob(t, s, jobSpec{addressList: &dead})
			if err := flow.Trigger(ctx, Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}); err != nil {
				t.Fatal(err)
			}
			row := logsOf(t, s, job.ID)[0]
			msg := str(row.TriggerMsg)
			prefix := "<br>Trigger Job：<br>address：" + dead + "<br>code：500<br>msg：xxl-job remoting error("
			suffix := "), for url : " + dead + "run"
			if row.TriggerCode != 500 || !strings.Contains(msg, prefix) || !strings.HasSuffix(msg, suffix) || str(row.ExecutorAddress) != dead {
				t.Errorf("code %d address %s msg %s", row.TriggerCode, str(row.ExecutorAddress), msg)
			}
		})
		t.Run("empty address list", func(t *testing.T) {
			job := seedJob(t, s, jobSpec{})
			if err := flow.Trigger(ctx, Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}); err != nil {
				t.Fatal(err)
			}
			row := logsOf(t, s, job.ID)[0]
			want := "Job trigger type：Cron trigger<br>Trigger machine address：10.0.0.2<br>Execotor-Registry Type：Automatic registration<br>Execotor-Registry Address：null<br>Route Strategy：First<br>Block Strategy：Serial execution<br>Job timeout period：0<br>Fail Retry Count：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>Trigger Fail：registry address is empty<br><br>"
			if row.TriggerCode != 500 || row.ExecutorAddress != nil || str(row.TriggerMsg) != want {
				t.Errorf("code %d address %s msg\n got: %s\nwant: %s", row.TriggerCode, str(row.ExecutorAddress), str(row.TriggerMsg), want)
			}
		})
		t.Run("failover all down", func(t *testing.T) {
			job := seedJob(t, s, jobSpec{addressList: &dead, route: "FAILOVER"})
			if err := flow.Trigger(ctx, Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}); err != nil {
				t.Fatal(err)
			}
			row := logsOf(t, s, job.ID)[0]
			msg := str(row.TriggerMsg)
			report := "</span><br>Heartbeats：<br>address：" + dead + "<br>code：500<br>msg：xxl-job remoting error("
			if row.TriggerCode != 500 || row.ExecutorAddress != nil || !strings.Contains(msg, report) ||
				!strings.HasSuffix(msg, "), for url : "+dead+"beat<br><br>") {
				t.Errorf("code %d msg %s", row.TriggerCode, msg)
			}
		})
		t.Run("unknown route", func(t *testing.T) {
			exec := newFakeExecutor(t)
			job := seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address()), route: "NEAREST"})
			if err := flow.Trigger(ctx, Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}); err != nil {
				t.Fatal(err)
			}
			row := logsOf(t, s, job.ID)[0]
			msg := str(row.TriggerMsg)
			if row.TriggerCode != 500 || !strings.Contains(msg, "<br>Route Strategy：NEAREST<br>") ||
				!strings.HasSuffix(msg, "</span><br>route strategy [NEAREST] is not valid<br><br>") || len(exec.received()) != 0 {
				t.Errorf("code %d runs %d msg %s", row.TriggerCode, len(exec.received()), msg)
			}
		})
		t.Run("missing job", func(t *testing.T) {
			if err := flow.Trigger(ctx, Request{JobID: 987654, Type: TypeCron, FailRetryCount: -1}); err != nil {
				t.Fatalf("Trigger of a missing job: %v, want nil", err)
			}
			if rows := logsOf(t, s, 987654); len(rows) != 0 {
				t.Errorf("missing job wrote %d rows", len(rows))
			}
		})
	})
}

// TestTriggerOverrides: "run once" address and param overrides (§5 steps 2
// and 4), a retry's count and sharding param (§5 table), FAILOVER choosing
// the second address (routing.md §1.6) and a long param clipped in the row
// only (schema.md §1 quirk, our safe behaviour).
func TestTriggerOverrides(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		flow, _ := newTestFlow(t, s, flowOpts{lang: "en"})
		exec := newFakeExecutor(t)
		dead := deadAddress(t)

		t.Run("manual address override", func(t *testing.T) {
			job := seedJob(t, s, jobSpec{addressList: schema.Ptr(dead), param: schema.Ptr("job-param")})
			err := flow.Trigger(ctx, Request{JobID: job.ID, Type: TypeManual, FailRetryCount: -1,
				ExecutorParam: schema.Ptr(""), AddressList: "  " + exec.address() + "  "})
			if err != nil {
				t.Fatal(err)
			}
			row := logsOf(t, s, job.ID)[0]
			want := "Job trigger type：Manual trigger<br>Trigger machine address：10.0.0.2<br>Execotor-Registry Type：Manual registration<br>Execotor-Registry Address：[" +
				exec.address() + "]<br>Route Strategy：First<br>Block Strategy：Serial execution<br>Job timeout period：0<br>Fail Retry Count：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>Trigger Job：<br>address：" +
				exec.address() + "<br>code：200<br>msg：null"
			if str(row.TriggerMsg) != want || str(row.ExecutorParam) != "" {
				t.Errorf("param %q msg\n got: %s\nwant: %s", str(row.ExecutorParam), str(row.TriggerMsg), want)
			}
			runs := exec.received()
			if len(runs) == 0 || str(runs[len(runs)-1].ExecutorParams) != "" {
				t.Errorf("executor params: %+v", runs)
			}
		})
		t.Run("retry count and sharding", func(t *testing.T) {
			job := seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address() + "," + dead), route: "SHARDING_BROADCAST", retry: 5, block: "COVER_EARLY", timeout: 30})
			err := flow.Trigger(ctx, Request{JobID: job.ID, Type: TypeRetry, FailRetryCount: 2, ShardingParam: "0/2", ExecutorParam: schema.Ptr("old")})
			if err != nil {
				t.Fatal(err)
			}
			rows := logsOf(t, s, job.ID)
			if len(rows) != 1 {
				t.Fatalf("retry of one shard wrote %d rows", len(rows))
			}
			row := rows[0]
			want := "Job trigger type：Fail retry trigger<br>Trigger machine address：10.0.0.2<br>Execotor-Registry Type：Automatic registration<br>Execotor-Registry Address：[" +
				exec.address() + ", " + dead + "]<br>Route Strategy：Sharding Broadcast(0/2)<br>Block Strategy：Cover Early<br>Job timeout period：30<br>Fail Retry Count：2<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>Trigger Job：<br>address：" +
				exec.address() + "<br>code：200<br>msg：null"
			if str(row.TriggerMsg) != want || row.ExecutorFailRetryCount != 2 || str(row.ExecutorShardingParam) != "0/2" || str(row.ExecutorParam) != "old" {
				t.Errorf("retry %d sharding %s param %s msg\n got: %s\nwant: %s", row.ExecutorFailRetryCount,
					str(row.ExecutorShardingParam), str(row.ExecutorParam), str(row.TriggerMsg), want)
			}
		})
		t.Run("failover picks second", func(t *testing.T) {
			job := seedJob(t, s, jobSpec{addressList: schema.Ptr(dead + "," + exec.address()), route: "FAILOVER"})
			if err := flow.Trigger(ctx, Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}); err != nil {
				t.Fatal(err)
			}
			row := logsOf(t, s, job.ID)[0]
			msg := str(row.TriggerMsg)
			tail := "), for url : " + dead + "beat<br><br>Heartbeats：<br>address：" + exec.address() +
				"<br>code：200<br>msg：null<br><br>Trigger Job：<br>address：" + exec.address() + "<br>code：200<br>msg：null"
			if row.TriggerCode != 200 || str(row.ExecutorAddress) != exec.address() || !strings.HasSuffix(msg, tail) ||
				!strings.Contains(msg, "</span><br>Heartbeats：<br>address："+dead+"<br>code：500<br>msg：xxl-job remoting error(") {
				t.Errorf("code %d msg %s", row.TriggerCode, msg)
			}
		})
		t.Run("long param", func(t *testing.T) {
			job := seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address())})
			long := strings.Repeat("参", 600)
			if err := flow.Trigger(ctx, Request{JobID: job.ID, Type: TypeManual, FailRetryCount: -1, ExecutorParam: &long}); err != nil {
				t.Fatal(err)
			}
			row := logsOf(t, s, job.ID)[0]
			runs := exec.received()
			if row.TriggerCode != 200 || str(row.ExecutorParam) != strings.Repeat("参", 512) || str(runs[len(runs)-1].ExecutorParams) != long {
				t.Errorf("code %d stored param %d chars", row.TriggerCode, len([]rune(str(row.ExecutorParam))))
			}
		})
		t.Run("rejected", func(t *testing.T) {
			job := seedJob(t, s, jobSpec{addressList: schema.Ptr(exec.address()), retry: 1})
			if err := flow.recordRejected(ctx, []rejection{{req: Request{JobID: job.ID, Type: TypeCron, FailRetryCount: -1}, reason: "pool full"}}); err != nil {
				t.Fatal(err)
			}
			row := logsOf(t, s, job.ID)[0]
			want := "Job trigger type：Cron trigger<br>Trigger machine address：10.0.0.2<br>Fail Retry Count：1<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>pool full<br><br>"
			if row.TriggerCode != 500 || row.ExecutorFailRetryCount != 1 || str(row.TriggerMsg) != want {
				t.Errorf("code %d retry %d msg %s", row.TriggerCode, row.ExecutorFailRetryCount, str(row.TriggerMsg))
			}
		})
	})
}
