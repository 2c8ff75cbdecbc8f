package thread

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/alarm"
	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// alarm_status values (scheduler.md §8). AlarmSending is ours: it marks a
// row whose alarm is being sent, so a crash there is never re-sent (the Java
// admin treats any non-zero value as handled, so mixed clusters agree).
const (
	AlarmNone      = 0
	AlarmClaimed   = -1
	AlarmSending   = -2
	AlarmNotNeeded = 1
	AlarmSent      = 2
	AlarmFailed    = 3
)

// triggerInfoGrace is how long a failed log whose trigger info is not
// written yet is left for the trigger flow to finish.
const triggerInfoGrace = time.Minute

// Alarmer sends the alarm of one failed log over every channel and tells
// whether all of them succeeded (*alarm.Alarmer).
type Alarmer interface {
	Alarm(ctx context.Context, e alarm.Event) bool
}

// failStore is the part of the store the fail monitor needs.
type failStore interface {
	watchStore
	LogUpdateAlarmStatus(ctx context.Context, id int64, old, new int) (bool, error)
	LogLoad(ctx context.Context, id int64) (schema.JobLog, error)
	LogUpdateTriggerInfo(ctx context.Context, l schema.JobLog) error
	JobLoad(ctx context.Context, id int) (schema.JobInfo, error)
	GroupLoad(ctx context.Context, id int) (schema.Group, error)
	WithTx(ctx context.Context, fn func(tx *schema.Store) error) error
}

// FailMonitorConfig configures the fail monitor.
type FailMonitorConfig struct {
	Store    failStore
	Texts    Texts
	Trigger  trigger.Submitter // fail retries go through the trigger door
	Alarm    Alarmer
	Now      func() time.Time
	Log      zerolog.Logger
	Interval time.Duration // 0: Java's 10 s
	Batch    int           // 0: Java's 1000
	// StuckAfter is how long a row must stay claimed, as seen by this admin,
	// before it is taken back (0: 10 minutes, far above any alarm's timeouts).
	StuckAfter time.Duration
	// ReclaimEvery runs the stuck-claim scan every n-th pass (0: 6, once a
	// minute at the Java interval).
	ReclaimEvery int
	// RetryColor is the colour of the retry marker appended to a retried
	// row's trigger_msg: "" is 2.4.2's RetryColor242, the 3.4.2 admin
	// writes RetryColor342 (app picks by the database's generation).
	RetryColor string
	// Durable, when set, stores each retry as a pending row in the
	// transaction that writes its retry marker (trigger.Durable), so it is
	// sent even if this admin stops before it did.
	Durable *trigger.Durable
	// Observer, when set, sees each pass's duration as monitor "fail".
	Observer MonitorObserver
	// SweepRows is how many settled rows below the watermark a pass reads
	// again (0: 10,000; see logWatch): a success turned failure by hand is
	// alarmed within rows / SweepRows passes.
	SweepRows int
}

// The retry marker's colour: JobFailMonitorHelper.java 2.4.2 line 56 and
// JobFailAlarmMonitorHelper.java 3.4.2 line 25.
const (
	RetryColor242 = "#F39C12"
	RetryColor342 = "#00c0ef"
)

// FailMonitor is JobFailMonitorHelper: it retries and alarms every failed
// log exactly once across all admins sharing the database (scheduler.md §8).
//
// Beyond Java, a row is never left claimed forever: a claim this process
// could not finish (database gone mid-way) is finished when the database is
// back, and a row another process left claimed (it crashed) is taken back
// once it has stayed so for StuckAfter — re-processed if its alarm was not
// yet being sent, or closed as failed (3) if it was, so no alarm is sent twice.
type FailMonitor struct {
	lifecycle.Base
	cfg FailMonitorConfig
	log zerolog.Logger

	watch *logWatch

	mu       sync.Mutex
	pending  map[int64][2]int    // our claims whose final CAS failed: id → {old, new}
	seen     map[int64]claimSeen // others' transient rows and when we first saw them
	passes   int
	passDone func()
}

type claimSeen struct {
	status int
	since  time.Time
}

// NewFailMonitor creates the monitor.
func NewFailMonitor(cfg FailMonitorConfig) *FailMonitor {
	if cfg.Interval <= 0 {
		cfg.Interval = 10 * time.Second
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 1000
	}
	if cfg.ReclaimEvery <= 0 {
		cfg.ReclaimEvery = 6
	}
	if cfg.StuckAfter <= 0 {
		cfg.StuckAfter = 10 * time.Minute
	}
	cfg.Now = orNow(cfg.Now)
	return &FailMonitor{cfg: cfg, log: cfg.Log.With().Str("component", "fail-monitor").Logger(),
		watch:   newLogWatch(cfg.Store, cfg.Now, cfg.SweepRows),
		pending: map[int64][2]int{}, seen: map[int64]claimSeen{}}
}

// Start runs a pass at once and then every interval.
func (m *FailMonitor) Start(ctx context.Context) error {
	return m.StartLoop(ctx, "fail monitor pass", m.log, m.cfg.Interval, 5*time.Minute, timed(m.cfg.Observer, "fail", m.Pass), m.passDone)
}

// Pass is one round: finish our pending claims, read the rows that may need
// the monitor (logWatch: the rows that changed, not the table), take back
// stuck claims among them (every ReclaimEvery-th pass), then claim, retry
// and alarm the failed ones not yet alarmed, at most Batch, oldest first.
func (m *FailMonitor) Pass(ctx context.Context) error {
	if err := m.finishPending(ctx); err != nil {
		return err
	}
	states, err := m.watch.states(ctx)
	if err != nil {
		return err
	}
	m.passes++
	if (m.passes-1)%m.cfg.ReclaimEvery == 0 {
		if err := m.reclaimStuck(ctx, states); err != nil {
			return err
		}
	}
	handled := 0
	for _, l := range states {
		if !l.Failed() || l.AlarmStatus != AlarmNone {
			continue
		}
		if handled == m.cfg.Batch {
			break // the rest stay open: the next pass reads them again
		}
		handled++
		if err := m.handle(ctx, l.ID); err != nil {
			return err
		}
	}
	return nil
}

// handle claims one failed log and retries and alarms it.
func (m *FailMonitor) handle(ctx context.Context, id int64) error {
	won, err := m.cfg.Store.LogUpdateAlarmStatus(ctx, id, AlarmNone, AlarmClaimed)
	if err != nil || !won {
		return err
	}
	l, err := m.cfg.Store.LogLoad(ctx, id)
	if errors.Is(err, schema.ErrNotFound) {
		return nil // deleted meanwhile (retention)
	}
	if err != nil {
		return m.keep(id, AlarmClaimed, AlarmNone, err)
	}
	// A fast executor's failure callback can be stored before the trigger
	// flow writes the trigger info (retry count, address) after /run
	// returns. Handling the row then would skip its retry; give the flow
	// time, but not forever, in case that write failed for good.
	if l.TriggerCode == 0 && l.TriggerTime != nil && m.cfg.Now().Sub(*l.TriggerTime) < triggerInfoGrace {
		return m.finish(ctx, id, AlarmClaimed, AlarmNone)
	}
	job, jobErr := m.cfg.Store.JobLoad(ctx, l.JobID)
	if jobErr != nil && !errors.Is(jobErr, schema.ErrNotFound) {
		return m.keep(id, AlarmClaimed, AlarmNone, jobErr)
	}
	if l.ExecutorFailRetryCount > 0 {
		if err := m.retry(ctx, l); err != nil {
			return m.keep(id, AlarmClaimed, AlarmNone, err)
		}
	}
	if errors.Is(jobErr, schema.ErrNotFound) {
		return m.finish(ctx, id, AlarmClaimed, AlarmNotNeeded)
	}
	var group *schema.Group
	if g, err := m.cfg.Store.GroupLoad(ctx, job.JobGroup); err == nil {
		group = &g
	} else if !errors.Is(err, schema.ErrNotFound) {
		return m.keep(id, AlarmClaimed, AlarmNone, err)
	}
	// Mark the send before it happens: a crash from here on is closed as
	// failed by the reclaim, never alarmed twice.
	if won, err := m.cfg.Store.LogUpdateAlarmStatus(ctx, id, AlarmClaimed, AlarmSending); err != nil || !won {
		if err != nil {
			return m.keep(id, AlarmClaimed, AlarmNone, err)
		}
		return nil
	}
	status := AlarmFailed
	if m.cfg.Alarm.Alarm(ctx, alarm.Event{Job: job, Group: group, Log: l}) {
		status = AlarmSent
	}
	return m.finish(ctx, id, AlarmSending, status)
}

// retry appends the retry marker to the failed log and queues the RETRY
// trigger. The marker is stored first, and with Durable the retry's
// pending row in the same transaction: if the process dies before the
// retry is sent, a sweeper sends it (without Durable it is lost rather
// than run twice); a reclaimed row that already carries the marker is not
// retried again.
func (m *FailMonitor) retry(ctx context.Context, l schema.JobLog) error {
	color := m.cfg.RetryColor
	if color == "" {
		color = RetryColor242
	}
	marker := "<br><br><span style=\"color:" + color + ";\" > >>>>>>>>>>>" + m.cfg.Texts.Text("jobconf_trigger_type_retry") + "<<<<<<<<<<< </span><br>"
	old := "null" // Java concatenates a null trigger_msg as "null"
	if l.TriggerMsg != nil {
		old = *l.TriggerMsg
	}
	if strings.HasSuffix(old, marker) {
		return nil
	}
	msg := old + marker
	l.TriggerMsg = &msg
	req := trigger.Request{JobID: l.JobID, Type: trigger.TypeRetry, FailRetryCount: l.ExecutorFailRetryCount - 1,
		ExecutorParam: l.ExecutorParam}
	if l.ExecutorShardingParam != nil {
		req.ShardingParam = *l.ExecutorShardingParam
	}
	var err error
	if d := m.cfg.Durable; d != nil {
		err = m.cfg.Store.WithTx(ctx, func(tx *schema.Store) error {
			if err := tx.LogUpdateTriggerInfo(ctx, l); err != nil {
				return err
			}
			return tx.PendingInsert(ctx, []schema.PendingTrigger{d.Decision(&req, l.ID, 0)})
		})
	} else {
		err = m.cfg.Store.LogUpdateTriggerInfo(ctx, l)
	}
	if err != nil {
		return err
	}
	if err := m.cfg.Trigger.Submit(req); err != nil {
		ev := m.log.Error()
		if req.Pending != 0 {
			ev = m.log.Warn().Str("pending", "a sweeper submits it again once its lease runs out")
		}
		ev.Err(err).Int64("log_id", l.ID).Int("job_id", l.JobID).Msg("fail retry not queued")
	}
	return nil
}

func (m *FailMonitor) finish(ctx context.Context, id int64, old, new int) error {
	if _, err := m.cfg.Store.LogUpdateAlarmStatus(ctx, id, old, new); err != nil {
		return m.keep(id, old, new, err)
	}
	return nil
}

// keep remembers a claim whose next step failed so that the next pass
// completes it (old → new) instead of leaving it claimed.
func (m *FailMonitor) keep(id int64, old, new int, err error) error {
	m.mu.Lock()
	m.pending[id] = [2]int{old, new}
	m.mu.Unlock()
	return err
}

func (m *FailMonitor) finishPending(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, step := range m.pending {
		if _, err := m.cfg.Store.LogUpdateAlarmStatus(ctx, id, step[0], step[1]); err != nil {
			return err
		}
		delete(m.pending, id)
	}
	return nil
}

// reclaimStuck takes back rows left claimed by a process that died, among
// the states just read (claimed rows stay open, so the watch reads each of
// them every pass). A row taken back to 0 is set so in states, to be
// processed in the same pass.
func (m *FailMonitor) reclaimStuck(ctx context.Context, states []schema.LogState) error {
	now := m.cfg.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	current := map[int64]claimSeen{}
	for i := range states {
		c := &states[i]
		if !c.Failed() || (c.AlarmStatus != AlarmClaimed && c.AlarmStatus != AlarmSending) {
			continue
		}
		if _, ours := m.pending[c.ID]; ours {
			continue
		}
		prev, ok := m.seen[c.ID]
		if !ok || prev.status != c.AlarmStatus {
			current[c.ID] = claimSeen{status: c.AlarmStatus, since: now}
			continue
		}
		if now.Sub(prev.since) < m.cfg.StuckAfter {
			current[c.ID] = prev
			continue
		}
		next := AlarmNone // claimed but nothing sent: process again
		if c.AlarmStatus == AlarmSending {
			next = AlarmFailed // the alarm may or may not have gone out: never send twice
		}
		won, err := m.cfg.Store.LogUpdateAlarmStatus(ctx, c.ID, c.AlarmStatus, next)
		if err != nil {
			return err
		}
		if won {
			c.AlarmStatus = next
		}
		m.log.Warn().Int64("log_id", c.ID).Int("from", c.AlarmStatus).Int("to", next).Msg("took back an alarm claim left by a stopped admin")
	}
	m.seen = current
	return nil
}
