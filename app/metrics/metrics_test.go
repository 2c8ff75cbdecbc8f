package metrics

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/thread"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

// scrape returns the text exposition.
func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/actuator/prometheus", nil))
	b, _ := io.ReadAll(rec.Result().Body)
	return string(b)
}

// TestMetricsExposition: every observer lands in its series, and pulled
// gauges are read at scrape time.
func TestMetricsExposition(t *testing.T) {
	m := New(Build{Version: "1.2.3", Commit: "abc", Go: "go1.26.8"})
	stats := trigger.Stats{Fast: trigger.PoolStats{Queued: 3, Capacity: 6000, Workers: 12}, Rejected: 2, Demoted: 1, SlowRouted: 5, Stuck: 4}
	m.WatchPools(func() trigger.Stats { return stats })
	m.WatchStore(func() int64 { return 7 }, func(context.Context) error { return nil })
	m.WatchHTTP(func() int64 { return 9 }, func() int64 { return 1 }, 8192)
	m.Triggered(trigger.TypeCron, trigger.ResultSuccess)
	m.Triggered(trigger.TypeCron, trigger.ResultSuccess)
	m.Triggered(trigger.TypeManual, trigger.ResultRejected)
	m.Fired(1500 * time.Millisecond)
	m.Fired(-time.Second) // early (a clock step): counted as on time
	m.LockWaited(20 * time.Millisecond)
	m.Skipped(2)
	m.CallbackItems(thread.CallbackFinished, 40)
	m.CallbackItems(thread.CallbackUnknown, 3)
	m.Alarm("email", false)
	m.Alarm("webhook", true)
	m.Executors([]thread.GroupExecutors{{GroupID: 1, AppName: "xxl-job-executor-sample", Executors: 2}, {GroupID: 2, AppName: "empty", Executors: 0}})
	m.Executors([]thread.GroupExecutors{{GroupID: 1, AppName: "xxl-job-executor-sample", Executors: 3}}) // group 2 removed
	m.PendingTriggers(4)
	m.PendingSwept(schema.PendingDecided, thread.SweepSubmitted)
	m.PendingSwept(schema.PendingSending, thread.SweepReceived)
	m.PendingSwept(schema.PendingSending, thread.SweepReceived)
	m.Settled(thread.SettleRecognised)

	out := scrape(t, m)
	for _, want := range []string{
		`xxl_job_triggers_total{result="success",trigger_type="CRON"} 2`,
		`xxl_job_triggers_total{result="rejected",trigger_type="MANUAL"} 1`,
		`xxl_job_triggers_total{result="misfired",trigger_type="CRON"} 2`,
		`xxl_job_trigger_lateness_seconds_bucket{le="2"} 2`,
		`xxl_job_trigger_lateness_seconds_bucket{le="1"} 1`,
		`xxl_job_trigger_lateness_seconds_count 2`,
		`xxl_job_schedule_lock_wait_seconds_count 1`,
		`xxl_job_callback_items_total{result="finished"} 40`,
		`xxl_job_callback_items_total{result="unknown"} 3`,
		`xxl_job_alarms_total{channel="email",result="failure"} 1`,
		`xxl_job_alarms_total{channel="webhook",result="success"} 1`,
		`xxl_job_group_executors{appname="xxl-job-executor-sample",job_group="1"} 3`,
		`xxl_job_trigger_pool_queued{pool="fast"} 3`,
		`xxl_job_trigger_pool_queue_capacity{pool="fast"} 6000`,
		`xxl_job_trigger_pool_workers{pool="fast"} 12`,
		`xxl_job_trigger_pool_rejected_total 2`,
		`xxl_job_trigger_pool_slow_routed_total 5`,
		`xxl_job_trigger_pool_demoted_jobs 1`,
		`xxl_job_triggers_stuck 4`,
		`xxl_job_database_errors_total 7`,
		`xxl_job_database_up 1`,
		`xxl_job_http_connections_open 9`,
		`xxl_job_http_connections_max 8192`,
		`xxl_job_http_connection_waits_total 1`,
		`xxl_job_build_info{goversion="go1.26.8",revision="abc",version="1.2.3"} 1`,
		`xxl_job_pending_triggers 4`,
		`xxl_job_pending_triggers_taken_over_total{outcome="submitted",stage="decided"} 1`,
		`xxl_job_pending_triggers_taken_over_total{outcome="received",stage="sending"} 2`,
		`xxl_job_log_rows_settled_total{outcome="recognised"} 1`,
		`go_goroutines `,
	} {
		if !strings.Contains(out, want+"\n") && !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}
	if strings.Contains(out, `appname="empty"`) {
		t.Error("a group gone from the last pass is still reported")
	}
	stats.Fast.Queued = 5
	if !strings.Contains(scrape(t, m), `xxl_job_trigger_pool_queued{pool="fast"} 5`) {
		t.Error("pool gauges are not read at scrape time")
	}
}

// TestDatabaseUp: the gauge pings at every scrape, with a deadline, and
// reads 0 while the ping fails.
func TestDatabaseUp(t *testing.T) {
	m := New(Build{})
	var down error
	m.WatchStore(func() int64 { return 0 }, func(ctx context.Context) error {
		if _, ok := ctx.Deadline(); !ok {
			t.Error("database ping without a deadline")
		}
		return down
	})
	if out := scrape(t, m); !strings.Contains(out, "xxl_job_database_up 1\n") {
		t.Errorf("up: %s", out)
	}
	down = errors.New("dial tcp 127.0.0.1:3306: connection refused")
	if out := scrape(t, m); !strings.Contains(out, "xxl_job_database_up 0\n") {
		t.Errorf("down: %s", out)
	}
}

// TestCountersStartAtZero (issue 27): a fresh admin exposes its counters
// with known labels at 0, so increase() sees the first event after a start.
func TestCountersStartAtZero(t *testing.T) {
	m := New(Build{})
	m.AlarmChannels([]string{"email", "webhook"})
	out := scrape(t, m)
	for _, want := range []string{
		`xxl_job_triggers_total{result="fail",trigger_type="CRON"} 0`,
		`xxl_job_triggers_total{result="misfired",trigger_type="CRON"} 0`,
		`xxl_job_triggers_total{result="rejected",trigger_type="RETRY"} 0`,
		`xxl_job_triggers_total{result="success",trigger_type="API"} 0`,
		`xxl_job_callback_items_total{result="failed"} 0`,
		`xxl_job_alarms_total{channel="email",result="failure"} 0`,
		`xxl_job_alarms_total{channel="webhook",result="success"} 0`,
		`xxl_job_pending_triggers_taken_over_total{outcome="submitted",stage="decided"} 0`,
		`xxl_job_pending_triggers_taken_over_total{outcome="failed",stage="sending"} 0`,
		`xxl_job_log_retention_deleted_total 0`,
		`xxl_job_callback_refused_total 0`,
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("missing %s", want)
		}
	}
	if strings.Contains(out, `result="misfired",trigger_type="MANUAL"`) {
		t.Error("a series no event can have is exposed")
	}
	m.MonitorPass("fail", 1500*time.Millisecond)
	m.MonitorPass("fail", 250*time.Millisecond)
	m.RetentionDeleted(1000)
	m.RetentionDeleted(7)
	out = scrape(t, m)
	for _, want := range []string{`xxl_job_monitor_pass_seconds{monitor="fail"} 0.25`, `xxl_job_log_retention_deleted_total 1007`} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("missing %s", want)
		}
	}
}

// TestWorkflowMetrics: the outcomes start at 0 (an alert on failed runs
// sees the first one), and the engine's observations land in their series.
func TestWorkflowMetrics(t *testing.T) {
	m := New(Build{})
	out := scrape(t, m)
	for _, o := range []string{"succeeded", "failed", "stopped", "skipped"} {
		if want := `xxl_job_workflow_runs_total{outcome="` + o + `"} 0`; !strings.Contains(out, want+"\n") {
			t.Errorf("missing %s before any run", want)
		}
	}
	var obs workflow.Observer = m
	obs.RunEnded(workflow.RunFailed)
	obs.RunEnded(workflow.RunSucceeded)
	obs.RunEnded(workflow.RunSucceeded)
	obs.NodeLateness(30 * time.Millisecond)
	obs.NodeLateness(3 * time.Second)
	obs.RunsInFlight(7)
	out = scrape(t, m)
	for _, want := range []string{
		`xxl_job_workflow_runs_total{outcome="failed"} 1`,
		`xxl_job_workflow_runs_total{outcome="succeeded"} 2`,
		`xxl_job_workflow_node_lateness_seconds_bucket{le="0.05"} 1`,
		`xxl_job_workflow_node_lateness_seconds_count 2`,
		`xxl_job_workflow_runs_in_flight 7`,
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("missing %s", want)
		}
	}
}
