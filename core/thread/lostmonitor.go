package thread

import (
	"context"
	"errors"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
)

// LostAfter is how long a log may run on an executor that is no longer
// registered before it is closed as failed (scheduler.md §10).
const LostAfter = 10 * time.Minute

// lostFullEvery is how often (in passes) the lost monitor reads from the
// first row instead of its watermark, for rows below it made running again
// by hand: hourly at Java's interval.
const lostFullEvery = 60

// lostMargin keeps the rows of the last moments above the watermark: a row
// inserted not yet triggered (codes 0/0) becomes running within the trigger
// flow, seconds after its insert.
const lostMargin = 2 * time.Minute

type lostStore interface {
	LogFindLostIDsFrom(ctx context.Context, from int64, lostBefore time.Time) ([]int64, error)
	LogFirstRunningID(ctx context.Context, from int64) (int64, bool, error)
	LogFirstIDSince(ctx context.Context, t time.Time) (int64, error)
	LogLoad(ctx context.Context, id int64) (schema.JobLog, error)
}

// LostMonitor is JobCompleteHelper's monitor: every minute it closes logs
// still running 10 minutes after their trigger on an executor address that
// is registered nowhere, with handle_code 500 and joblog_lost_fail.
//
// It reads from a watermark (from), the lowest id still running or young
// when the last pass ended, instead of the whole table: rows below it are
// finished or failed to trigger, and neither becomes running again through
// any admin. The watermark lives in memory; a restart (and every
// lostFullEvery-th pass) reads from the first row, as Java always does.
type LostMonitor struct {
	lifecycle.Base
	store     lostStore
	completer *Completer
	texts     Texts
	now       func() time.Time
	interval  time.Duration
	log       zerolog.Logger
	passDone  func()
	observer  MonitorObserver

	from   int64 // the watermark
	passes int
}

// LostMonitorConfig wires a LostMonitor.
type LostMonitorConfig struct {
	Store     lostStore
	Completer *Completer // closes lost logs the way callbacks do
	Texts     Texts
	Now       func() time.Time // nil: time.Now
	Interval  time.Duration    // 0: Java's 60 s
	Log       zerolog.Logger
	Observer  MonitorObserver // sees each pass's duration as monitor "lost"; nil: none
}

// NewLostMonitor creates the monitor.
func NewLostMonitor(cfg LostMonitorConfig) *LostMonitor {
	if cfg.Interval <= 0 {
		cfg.Interval = time.Minute
	}
	return &LostMonitor{store: cfg.Store, completer: cfg.Completer, texts: cfg.Texts, now: orNow(cfg.Now),
		interval: cfg.Interval, log: cfg.Log.With().Str("component", "lost-monitor").Logger(), observer: cfg.Observer}
}

// Start runs a pass at once and then every interval.
func (m *LostMonitor) Start(ctx context.Context) error {
	return m.StartLoop(ctx, "lost-job pass", m.log, m.interval, m.interval, timed(m.observer, "lost", m.Pass), m.passDone)
}

// Pass closes every lost log found now.
func (m *LostMonitor) Pass(ctx context.Context) error {
	now := m.now()
	if m.passes%lostFullEvery == 0 {
		m.from = 0
	}
	m.passes++
	ids, err := m.store.LogFindLostIDsFrom(ctx, m.from, now.Add(-LostAfter))
	if err != nil {
		return err
	}
	for _, id := range ids {
		l, err := m.store.LogLoad(ctx, id)
		if errors.Is(err, schema.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		msg := m.texts.Text("joblog_lost_fail")
		l.HandleTime, l.HandleCode, l.HandleMsg = &now, 500, &msg
		closed, err := m.completer.Finish(ctx, l)
		if err != nil {
			return err
		}
		if closed {
			m.log.Warn().Int64("log_id", id).Int("job_id", l.JobID).Str("address", deref(l.ExecutorAddress)).Msg("job result lost, marked failed")
		}
	}
	return m.advance(ctx, now)
}

// advance moves the watermark to the first row still running, or to the
// first of the last moments' rows when that comes first.
func (m *LostMonitor) advance(ctx context.Context, now time.Time) error {
	next, err := m.store.LogFirstIDSince(ctx, now.Add(-lostMargin))
	if err != nil {
		return err
	}
	running, ok, err := m.store.LogFirstRunningID(ctx, m.from)
	if err != nil {
		return err
	}
	if ok && running < next {
		next = running
	}
	m.from = max(m.from, next)
	return nil
}
