package workflow

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/alarm"
	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
)

// The statuses of a run's alarm: those of xxl_job_log.alarm_status.
const (
	alarmToSend  = 0
	alarmClaimed = -1
	alarmSending = -2
	alarmSent    = 2
	alarmFailed  = 3
)

// Alarmer sends one alarm over every channel and tells whether all of
// them succeeded (*alarm.Alarmer).
type Alarmer interface {
	Alarm(ctx context.Context, e alarm.Event) bool
}

// AlarmsConfig wires Alarms.
type AlarmsConfig struct {
	Store *schema.Store
	Alarm Alarmer
	Now   func() time.Time
	Log   zerolog.Logger
	// Interval is the time between passes (0: 10 s, the fail monitor's).
	Interval time.Duration
	// StuckAfter is how long a claimed or sending alarm may stay so before
	// any admin takes it back (0: 10 minutes, far above any send's
	// timeouts and clock skew).
	StuckAfter time.Duration
}

// Alarms sends the alarm of every failed run once, on any admin of ours.
// The alarm row is written in the transaction that ends the run FAILED
// (endFrom), so it exists exactly when the failure does; each admin's
// pass claims rows by compare-and-set, marks a row "sending" before it
// sends and "sent" or "failed" after, as the fail monitor does for a
// log's alarm_status. A claim whose admin died before sending is taken
// back and sent; one that died while sending is closed as failed, never
// sent twice.
type Alarms struct {
	lifecycle.Base
	cfg      AlarmsConfig
	log      zerolog.Logger
	passDone func() // tests
}

// NewAlarms creates the sender of failed runs' alarms.
func NewAlarms(cfg AlarmsConfig) *Alarms {
	if cfg.Interval <= 0 {
		cfg.Interval = 10 * time.Second
	}
	if cfg.StuckAfter <= 0 {
		cfg.StuckAfter = 10 * time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Alarms{cfg: cfg, log: cfg.Log.With().Str("component", "workflow alarm").Logger()}
}

// Start runs a pass at once and then every interval.
func (a *Alarms) Start(ctx context.Context) error {
	return a.StartLoop(ctx, "workflow alarms", a.log, a.cfg.Interval, time.Minute, a.Pass, a.passDone)
}

// Pass takes back stuck claims and sends the alarms waiting.
func (a *Alarms) Pass(ctx context.Context) error {
	s, now := a.cfg.Store, a.cfg.Now()
	stuck, err := s.WorkflowAlarmsIn(ctx, []int{alarmClaimed, alarmSending}, now.Add(-a.cfg.StuckAfter), 100)
	if err != nil {
		return err
	}
	for _, r := range stuck {
		to := alarmToSend // claimed, nothing sent: send it
		if r.Status == alarmSending {
			to = alarmFailed // it may have gone out: never twice
		}
		if _, err := a.move(ctx, r.ID, r.Status, to, now); err != nil {
			return err
		}
		a.log.Warn().Int64("run_id", r.RunID).Int("from", r.Status).Int("to", to).Msg("took back a run alarm left by a stopped admin")
	}
	due, err := s.WorkflowAlarmsIn(ctx, []int{alarmToSend}, time.Time{}, 100)
	if err != nil {
		return err
	}
	for _, r := range due {
		if err := a.send(ctx, r); err != nil {
			return err
		}
	}
	return nil
}

// move is the alarm's compare-and-set, redone when MariaDB picks it as a
// deadlock's victim: two admins claiming the same row at once deadlock
// there now and then (TestRunAlarm), and the victim changed nothing, so
// the redo reads the winner's status and loses the claim cleanly.
func (a *Alarms) move(ctx context.Context, id int64, from, to int, now time.Time) (bool, error) {
	var won bool
	err := schema.RetryConflicts(ctx, 3, func() error {
		var err error
		won, err = a.cfg.Store.WorkflowAlarmMove(ctx, id, from, to, now)
		return err
	}, nil)
	return won, err
}

// send claims one alarm, builds its event and sends it.
func (a *Alarms) send(ctx context.Context, r schema.WorkflowAlarm) error {
	if won, err := a.move(ctx, r.ID, alarmToSend, alarmClaimed, a.cfg.Now()); err != nil || !won {
		return err
	}
	ev, err := a.event(ctx, r.RunID)
	if err != nil {
		// Left claimed: taken back after StuckAfter and tried again.
		return fmt.Errorf("alarm of workflow run %d: %w", r.RunID, err)
	}
	if won, err := a.move(ctx, r.ID, alarmClaimed, alarmSending, a.cfg.Now()); err != nil || !won {
		return err
	}
	status := alarmFailed
	if a.cfg.Alarm.Alarm(ctx, ev) {
		status = alarmSent
	}
	_, err = a.move(ctx, r.ID, alarmSending, status, a.cfg.Now())
	return err
}

// event is a failed run's alarm: the workflow as the job (its id and
// name), the alarm e-mails of the failed nodes' jobs as recipients, the
// first failed node's log as the log.
func (a *Alarms) event(ctx context.Context, runID int64) (alarm.Event, error) {
	s := a.cfg.Store
	run, err := s.WorkflowRunLoad(ctx, runID)
	if err != nil {
		return alarm.Event{}, err
	}
	graph, err := DecodeGraph(run.Graph)
	if err != nil {
		return alarm.Event{}, err
	}
	ev := alarm.Event{Run: &alarm.RunFailure{WorkflowID: run.WorkflowID, RunID: run.ID, Failed: []string{}}}
	ev.Job.ID = run.WorkflowID
	w, err := s.WorkflowLoad(ctx, run.WorkflowID)
	switch {
	case err == nil:
		ev.Run.Workflow, ev.Job.JobDesc = w.Name, w.Name
		if g, err := s.GroupLoad(ctx, w.JobGroup); err == nil {
			ev.Group = &g
		} else if !errors.Is(err, schema.ErrNotFound) {
			return alarm.Event{}, err
		}
	case !errors.Is(err, schema.ErrNotFound): // a deleted workflow still alarms
		return alarm.Event{}, err
	}
	nodes, err := s.WorkflowNodeRuns(ctx, []int64{runID}, false)
	if err != nil {
		return alarm.Event{}, err
	}
	var emails []string
	for _, nr := range nodes {
		if NodeState(nr.State) != NodeFailed {
			continue
		}
		name := fmt.Sprintf("%d", nr.NodeID)
		if n, ok := graph.Node(nr.NodeID); ok && n.Label != "" {
			name += fmt.Sprintf(" %q", n.Label)
		}
		ev.Run.Failed = append(ev.Run.Failed, fmt.Sprintf("%s (job %d, log %d)", name, nr.JobID, nr.LogID))
		if j, err := s.JobLoad(ctx, nr.JobID); err == nil && j.AlarmEmail != nil && *j.AlarmEmail != "" {
			emails = append(emails, *j.AlarmEmail)
		} else if err != nil && !errors.Is(err, schema.ErrNotFound) {
			return alarm.Event{}, err
		}
		if ev.Log.ID == 0 && nr.LogID != 0 {
			if l, err := s.LogLoad(ctx, nr.LogID); err == nil {
				ev.Log = l
			} else if !errors.Is(err, schema.ErrNotFound) {
				return alarm.Event{}, err
			}
		}
	}
	if len(emails) > 0 {
		joined := strings.Join(emails, ",") // splitAlarmEmail drops repeats
		ev.Job.AlarmEmail = &joined
	}
	return ev, nil
}
