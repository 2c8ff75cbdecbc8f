package workflow

import (
	"context"
	"errors"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/lifecycle"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// Scheduler starts the workflows whose CRON or FIX_RATE schedule is due.
// Each fire is one transaction on the workflow's locked row: the fire
// times move on only if they are still those it read, and the run starts
// in the same transaction, so of the admins of ours that see the same
// fire one starts it, once, and a crash loses none that was decided.
// Java admins do not read workflows: their schedules are ours alone.
type Scheduler struct {
	lifecycle.Base
	engine   *Engine
	loc      *time.Location
	interval time.Duration
	log      zerolog.Logger
}

// NewScheduler creates the scheduler of an engine's workflows; loc is the
// zone of a schedule without one, interval how often it looks (0: 1 s).
func NewScheduler(e *Engine, loc *time.Location, interval time.Duration) *Scheduler {
	if interval <= 0 {
		interval = time.Second
	}
	if loc == nil {
		loc = time.Local
	}
	return &Scheduler{engine: e, loc: loc, interval: interval, log: e.log.With().Str("part", "schedule").Logger()}
}

// Start looks at once and then every interval.
func (s *Scheduler) Start(ctx context.Context) error {
	return s.StartLoop(ctx, "workflow schedule", s.log, s.interval, time.Minute, s.Pass, nil)
}

// Pass starts every workflow that is due now.
func (s *Scheduler) Pass(ctx context.Context) error {
	now := s.engine.cfg.Now()
	due, err := s.engine.cfg.Store.WorkflowsDue(ctx, now.UnixMilli(), 100)
	if err != nil {
		return err
	}
	for _, w := range due {
		if err := s.fire(ctx, w, now); err != nil {
			return err
		}
	}
	return nil
}

// fire handles one due fire of a workflow as read (seen): a fire later
// than trigger.MisfireAfter follows the misfire strategy (FIRE_ONCE_NOW
// starts one run now, DO_NOTHING none), and the next fire time is
// computed from the fire, or from now after a misfire.
func (s *Scheduler) fire(ctx context.Context, seen schema.WorkflowRow, now time.Time) error {
	return s.engine.inTx(ctx, func(tx *schema.Store) ([]trigger.Request, error) {
		row, err := tx.WorkflowLock(ctx, seen.ID)
		if errors.Is(err, schema.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if !row.Enabled || row.TriggerNextTime != seen.TriggerNextTime {
			return nil, nil // another admin fired it, or it was changed
		}
		w, err := FromRow(row)
		if err != nil {
			return nil, err
		}
		at := time.UnixMilli(row.TriggerNextTime)
		misfired := now.Sub(at) > trigger.MisfireAfter
		from := at
		if misfired {
			from = now
		}
		next, err := NextFire(w.Schedule, from, s.loc)
		if err != nil {
			return nil, err
		}
		if err := tx.WorkflowSetTrigger(ctx, row.ID, at.UnixMilli(), next); err != nil {
			return nil, err
		}
		req := StartRequest{TriggerType: w.Schedule.Type, At: at}
		switch {
		case misfired && w.Schedule.Misfire != "FIRE_ONCE_NOW":
			s.log.Warn().Int("workflow_id", w.ID).Time("fire", at).Msg("workflow fire missed; DO_NOTHING skips it")
			return nil, nil
		case misfired:
			req = StartRequest{TriggerType: "MISFIRE", At: now}
		}
		_, reqs, err := s.engine.startIn(ctx, tx, row, req)
		if errors.Is(err, ErrSkipped) {
			s.log.Info().Int("workflow_id", w.ID).Time("fire", at).Msg("workflow fire skipped: its concurrency policy admits no run now")
			return nil, nil
		}
		return reqs, err
	})
}
