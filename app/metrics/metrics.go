// Package metrics exposes the admin's state in the Prometheus format at
// <context path>/actuator/prometheus, the Spring Boot path. The core
// packages declare small observer interfaces; Metrics implements them all,
// and pulls the gauges (pool queues, connections, database errors and
// reachability) from their owners at scrape time.
package metrics

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/thread"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

const ns = "xxl_job"

// Metrics holds the admin's collectors on a registry of their own.
type Metrics struct {
	reg       *prometheus.Registry
	triggers  *prometheus.CounterVec
	lateness  prometheus.Histogram
	lockWait  prometheus.Histogram
	callbacks *prometheus.CounterVec
	refused   prometheus.Counter
	alarms    *prometheus.CounterVec
	executors *prometheus.GaugeVec
	pending   prometheus.Gauge
	swept     *prometheus.CounterVec
	passes    *prometheus.GaugeVec
	retention prometheus.Counter
	settled   *prometheus.CounterVec
	wfRuns    *prometheus.CounterVec
	wfLate    prometheus.Histogram
	wfFlight  prometheus.Gauge
}

// Build is what xxl_job_build_info reports.
type Build struct {
	Version, Commit, Go string
}

// New builds the collectors, with the Go runtime's and the process's.
func New(b Build) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		triggers: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "triggers_total",
			Help: "Triggers run, by trigger type and result (success, fail, rejected by a full pool, misfired: a planned fire over 5 s late, skipped by its misfire strategy DO_NOTHING)."},
			[]string{"trigger_type", "result"}),
		lateness: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Name: "trigger_lateness_seconds",
			Help:    "How late scheduled fires were handed to the trigger pools after their planned time.",
			Buckets: []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300}}),
		lockWait: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Name: "schedule_lock_wait_seconds",
			Help:    "How long schedule rounds waited for the schedule_lock row (other admins hold it meanwhile).",
			Buckets: []float64{0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10}}),
		callbacks: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "callback_items_total",
			Help: "Execution results received on /api/callback, by result (finished, repeated, unknown, failed)."},
			[]string{"result"}),
		refused: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "callback_refused_total",
			Help: "/api/callback POSTs refused at once because too many were in progress (the executor keeps the batch and sends it again later)."}),
		alarms: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "alarms_total",
			Help: "Alarm sends by channel and result (success, failure)."}, []string{"channel", "result"}),
		executors: prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: ns, Name: "group_executors",
			Help: "Live executors of each automatic executor group, after the last registry monitor pass."},
			[]string{"job_group", "appname"}),
		pending: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Name: "pending_triggers",
			Help: "Retries and child triggers decided and not yet seen through (rows of xxl_job_pending_trigger), after the last sweep."}),
		swept: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "pending_triggers_taken_over_total",
			Help: "Pending triggers this admin took over after their holder left them, by the stage it left them at (decided, logged, sending) and what was done (submitted, sent, resent, received, stored, gone, failed, waiting)."},
			[]string{"stage", "outcome"}),
		passes: prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: ns, Name: "monitor_pass_seconds",
			Help: "How long the last pass of each background monitor took (fail, lost, report, retention): what it costs the database, which should not grow with xxl_job_log."},
			[]string{"monitor"}),
		retention: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "log_retention_deleted_total",
			Help: "Logs deleted by retention (xxl.job.logretentiondays)."}),
		settled: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "log_rows_settled_total",
			Help: "Log rows an admin left without a result that this admin settled, by outcome (recognised, resent, dropped, failed, gone)."},
			[]string{"outcome"}),
		wfRuns: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "workflow_runs_total",
			Help: "Workflow runs this admin ended, by outcome (succeeded, failed, stopped), and starts their concurrency policy skipped (skipped)."},
			[]string{"outcome"}),
		wfLate: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Name: "workflow_node_lateness_seconds",
			Help:    "How long after the step that decided it a workflow node's trigger got its log row, just before its /run (a parent's callback to its child's trigger).",
			Buckets: []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300}}),
		wfFlight: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Name: "workflow_runs_in_flight",
			Help: "Workflow runs running, at this admin's last pass (every admin sees the whole database; 0 with workflows off)."}),
	}
	// Known labels start at 0, so a rate or an alert sees the first one.
	for _, o := range []workflow.RunState{workflow.RunSucceeded, workflow.RunFailed, workflow.RunStopped, workflow.RunSkipped} {
		m.wfRuns.WithLabelValues(outcomeLabel(o))
	}
	m.reg.MustRegister(m.triggers, m.lateness, m.lockWait, m.callbacks, m.refused, m.alarms, m.executors, m.pending, m.swept,
		m.passes, m.retention, m.settled, m.wfRuns, m.wfLate, m.wfFlight,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.buildInfo(b)
	m.zero()
	return m
}

// zero creates every series whose labels are known before the first event
// at 0, so that increase() and rate() in alert rules see the first failure
// after a start, not only the second (issue 27).
func (m *Metrics) zero() {
	for _, typ := range []trigger.Type{trigger.TypeCron, trigger.TypeManual, trigger.TypeParent, trigger.TypeAPI,
		trigger.TypeRetry, trigger.TypeMisfire} {
		for _, r := range []string{trigger.ResultSuccess, trigger.ResultFail, trigger.ResultRejected} {
			m.triggers.WithLabelValues(string(typ), r)
		}
	}
	m.triggers.WithLabelValues(string(trigger.TypeCron), trigger.ResultMisfired)
	for _, r := range []string{thread.CallbackFinished, thread.CallbackRepeated, thread.CallbackUnknown, thread.CallbackFailed} {
		m.callbacks.WithLabelValues(r)
	}
	for _, o := range []string{thread.SettleRecognised, thread.SettleResent, thread.SettleDropped, thread.SettleFailed,
		thread.SettleGone, thread.SettleWaiting} {
		m.settled.WithLabelValues(o)
	}
	// The outcomes each stage can have (core/thread/sweeper.go).
	for stage, outcomes := range map[int][]string{
		schema.PendingDecided: {thread.SweepSubmitted, thread.SweepWaiting},
		schema.PendingLogged:  {thread.SweepSent, thread.SweepStored, thread.SweepGone},
		schema.PendingSending: {thread.SweepResent, thread.SweepReceived, thread.SweepStored, thread.SweepGone,
			thread.SweepFailed, thread.SweepWaiting},
	} {
		for _, o := range outcomes {
			m.swept.WithLabelValues(stageName(stage), o)
		}
	}
}

// MonitorPass implements thread.MonitorObserver and report.Observer.
func (m *Metrics) MonitorPass(monitor string, took time.Duration) {
	m.passes.WithLabelValues(monitor).Set(took.Seconds())
}

// RetentionDeleted implements report.Observer.
func (m *Metrics) RetentionDeleted(n int) { m.retention.Add(float64(n)) }

// AlarmChannels creates the alarm series of the configured channels at 0
// (alarm.Alarmer.Channels), for the same reason as zero.
func (m *Metrics) AlarmChannels(names []string) {
	for _, n := range names {
		m.alarms.WithLabelValues(n, "success")
		m.alarms.WithLabelValues(n, "failure")
	}
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Triggered implements trigger.Observer.
func (m *Metrics) Triggered(typ trigger.Type, result string) {
	m.triggers.WithLabelValues(string(typ), result).Inc()
}

// Fired implements schedule.Observer.
func (m *Metrics) Fired(lateness time.Duration) { m.lateness.Observe(max(lateness, 0).Seconds()) }

// LockWaited implements schedule.Observer.
func (m *Metrics) LockWaited(wait time.Duration) { m.lockWait.Observe(wait.Seconds()) }

// Skipped implements schedule.Observer: fires the scheduler read over 5 s
// late and dropped (DO_NOTHING) are misfired CRON triggers, as are those
// the pools could not send in time.
func (m *Metrics) Skipped(n int) {
	m.triggers.WithLabelValues(string(trigger.TypeCron), trigger.ResultMisfired).Add(float64(n))
}

// CallbackItems implements thread.CallbackObserver.
func (m *Metrics) CallbackItems(result string, n int) {
	m.callbacks.WithLabelValues(result).Add(float64(n))
}

// CallbackRefused implements api.Refusals.
func (m *Metrics) CallbackRefused() { m.refused.Inc() }

// Executors implements thread.RegistryObserver: the gauge holds exactly
// the groups of the last pass.
func (m *Metrics) Executors(groups []thread.GroupExecutors) {
	m.executors.Reset()
	for _, g := range groups {
		m.executors.WithLabelValues(strconv.Itoa(g.GroupID), g.AppName).Set(float64(g.Executors))
	}
}

// PendingTriggers implements thread.SweepObserver.
func (m *Metrics) PendingTriggers(n int) { m.pending.Set(float64(n)) }

// PendingSwept implements thread.SweepObserver.
func (m *Metrics) PendingSwept(stage int, outcome string) {
	m.swept.WithLabelValues(stageName(stage), outcome).Inc()
}

// Settled implements thread.SettleObserver.
func (m *Metrics) Settled(outcome string) { m.settled.WithLabelValues(outcome).Inc() }

// RunEnded implements workflow.Observer.
func (m *Metrics) RunEnded(state workflow.RunState) {
	m.wfRuns.WithLabelValues(outcomeLabel(state)).Inc()
}

// NodeLateness implements workflow.Observer.
func (m *Metrics) NodeLateness(d time.Duration) { m.wfLate.Observe(max(d, 0).Seconds()) }

// RunsInFlight implements workflow.Observer.
func (m *Metrics) RunsInFlight(n int) { m.wfFlight.Set(float64(n)) }

func outcomeLabel(s workflow.RunState) string { return strings.ToLower(string(s)) }

// stageName is the label of a pending trigger's stage.
func stageName(stage int) string {
	switch stage {
	case schema.PendingDecided:
		return "decided"
	case schema.PendingLogged:
		return "logged"
	}
	return "sending"
}

// Alarm records one channel's result of one alarm (alarm.Config.Observe).
func (m *Metrics) Alarm(channel string, ok bool) {
	result := "success"
	if !ok {
		result = "failure"
	}
	m.alarms.WithLabelValues(channel, result).Inc()
}

// WatchPools reads the trigger pools at every scrape.
func (m *Metrics) WatchPools(stats func() trigger.Stats) {
	pool := func(name, help string, value func(trigger.PoolStats) int) {
		for _, p := range []struct {
			label string
			pick  func(trigger.Stats) trigger.PoolStats
		}{{"fast", func(s trigger.Stats) trigger.PoolStats { return s.Fast }}, {"slow", func(s trigger.Stats) trigger.PoolStats { return s.Slow }}} {
			m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: name, Help: help,
				ConstLabels: prometheus.Labels{"pool": p.label}}, func() float64 { return float64(value(p.pick(stats()))) }))
		}
	}
	pool("trigger_pool_queued", "Triggers waiting in a trigger pool's queue.", func(s trigger.PoolStats) int { return s.Queued })
	pool("trigger_pool_queue_capacity", "Capacity of a trigger pool's queue.", func(s trigger.PoolStats) int { return s.Capacity })
	pool("trigger_pool_workers", "Workers of a trigger pool.", func(s trigger.PoolStats) int { return s.Workers })
	m.reg.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: ns, Name: "trigger_pool_rejected_total",
			Help: "Triggers refused by a full pool (each recorded as a failed log row)."},
			func() float64 { return float64(stats().Rejected) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: ns, Name: "trigger_pool_slow_routed_total",
			Help: "Triggers sent to the slow pool because their job was demoted."},
			func() float64 { return float64(stats().SlowRouted) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: "trigger_pool_demoted_jobs",
			Help: "Jobs whose triggers go to the slow pool now (over 10 slow triggers this minute, or one running over 500 ms)."},
			func() float64 { return float64(stats().Demoted) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: "triggers_stuck",
			Help: "Triggers running for more than 500 ms now (an executor slow to answer /run)."},
			func() float64 { return float64(stats().Stuck) }),
	)
}

// pingTimeout bounds the scrape-time database ping, as the health
// endpoint bounds its own: a hung database reads as down, not as a hung
// scrape.
const pingTimeout = 2 * time.Second

// WatchStore reads the database error count at every scrape, and pings the
// database then: xxl_job_database_up is what /actuator/health would answer
// (1 UP, 0 DOWN), so an alert on it needs no probe of its own.
func (m *Metrics) WatchStore(errors func() int64, ping func(context.Context) error) {
	m.reg.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: ns, Name: "database_errors_total",
			Help: "Statements, transactions and pings the database failed."}, func() float64 { return float64(errors()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: "database_up",
			Help: "1 when the database answered a ping at this scrape (within 2 s), else 0."},
			func() float64 {
				ctx, cancel := context.WithTimeout(context.Background(), pingTimeout)
				defer cancel()
				if ping(ctx) != nil {
					return 0
				}
				return 1
			}),
	)
}

// WatchHTTP reads the HTTP server's connections at every scrape.
func (m *Metrics) WatchHTTP(open, waits func() int64, limit int) {
	capacity := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Name: "http_connections_max",
		Help: "The connection cap (server.tomcat.max-connections, fitted to the file limit)."})
	capacity.Set(float64(limit))
	m.reg.MustRegister(capacity,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: "http_connections_open",
			Help: "HTTP connections open now."}, func() float64 { return float64(open()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: ns, Name: "http_connection_waits_total",
			Help: "Times a new connection had to wait for the connection cap."}, func() float64 { return float64(waits()) }),
	)
}

// buildInfo publishes the build as labels of a constant 1.
func (m *Metrics) buildInfo(b Build) {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: ns, Name: "build_info",
		Help: "The admin's version, commit and Go version; always 1."}, []string{"version", "revision", "goversion"})
	g.WithLabelValues(b.Version, b.Commit, b.Go).Set(1)
	m.reg.MustRegister(g)
}
