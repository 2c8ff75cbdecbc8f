package workflow

import (
	"context"
	"fmt"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
)

// Save validates a workflow against the jobs as they are and stores it:
// a new one when w.ID is 0, else over the one with that id (ErrNotFound
// when it is gone). Its next fire time is computed from now when it is
// enabled and scheduled. It returns the workflow's id, or an error
// wrapping ErrInvalid that lists every problem (a cycle named, a job
// deleted or of another group).
func Save(ctx context.Context, s *schema.Store, w Workflow, now time.Time, loc *time.Location) (int, error) {
	if err := Check(ctx, s, w); err != nil {
		return 0, err
	}
	if w.ID == 0 {
		w.AddTime = now
	}
	w.UpdateTime = now
	row, err := w.Row()
	if err != nil {
		return 0, err
	}
	if row.Enabled && row.ScheduleType != cron.TypeNone && row.ScheduleType != ScheduleJob {
		next, err := NextFire(w.Schedule, now, loc)
		if err != nil {
			return 0, err
		}
		row.TriggerNextTime = next
	}
	if w.ID == 0 {
		if row.TriggerLastTime, err = parentMark(ctx, s, row, nil); err != nil {
			return 0, err
		}
		return s.WorkflowAdd(ctx, row)
	}
	old, err := s.WorkflowLoad(ctx, w.ID)
	if err != nil {
		return 0, err
	}
	row.AddTime, row.TriggerLastTime = old.AddTime, old.TriggerLastTime
	if row.TriggerLastTime, err = parentMark(ctx, s, row, &old); err != nil {
		return 0, err
	}
	return w.ID, s.WorkflowUpdate(ctx, row)
}

// parentMark is the trigger_last_time to store for row: for a workflow
// started after a job, the first parent log id it starts after — the
// next log id when it becomes such a workflow, changes parent or is
// enabled (a success before that starts nothing), else the one stored.
func parentMark(ctx context.Context, s *schema.Store, row schema.WorkflowRow, old *schema.WorkflowRow) (int64, error) {
	if row.ScheduleType != ScheduleJob {
		if old != nil && old.ScheduleType == ScheduleJob {
			return 0, nil // the mark is no fire time
		}
		return row.TriggerLastTime, nil
	}
	if old != nil && old.ScheduleType == ScheduleJob && deref(old.ScheduleConf) == deref(row.ScheduleConf) &&
		(old.Enabled || !row.Enabled) && old.TriggerLastTime > 0 {
		return old.TriggerLastTime, nil
	}
	return s.LogNextID(ctx)
}

// Check is Validate against the jobs as s has them, and, for a workflow
// started after a job, the refusal of a cycle through other workflows'
// parents: what Save checks before it stores (an error wrapping
// ErrInvalid), for callers that validate without storing.
func Check(ctx context.Context, s *schema.Store, w Workflow) error {
	ids := make([]int, len(w.Graph.Nodes))
	for i, n := range w.Graph.Nodes {
		ids[i] = n.JobID
	}
	if parent, ok := w.Schedule.ParentJob(); ok {
		ids = append(ids, parent)
	}
	jobs, err := s.JobTriggerLoad(ctx, ids)
	if err != nil {
		return err
	}
	if err := Validate(w, func(id int) (int, bool) { j, ok := jobs[id]; return j.JobGroup, ok }); err != nil {
		return err
	}
	cycle, err := parentCycle(ctx, s, w)
	if err != nil {
		return err
	}
	if cycle != "" {
		return &InvalidError{Problems: []string{"starting after job " + w.Schedule.Conf + " makes the workflows start each other for ever: " + cycle}}
	}
	return nil
}

// NextFire is a schedule's next fire time after from, in Unix ms (0: it
// fires no more), read in its time zone (loc when it has none).
func NextFire(sc Schedule, from time.Time, loc *time.Location) (int64, error) {
	if sc.TimeZone != "" {
		l, err := time.LoadLocation(sc.TimeZone)
		if err != nil {
			return 0, fmt.Errorf("time zone %q: %w", sc.TimeZone, err)
		}
		loc = l
	}
	next, ok, err := cron.NextTime(sc.Type, sc.Conf, from, loc)
	if err != nil {
		return 0, fmt.Errorf("schedule %s %q: %w", sc.Type, sc.Conf, err)
	}
	if !ok {
		return 0, nil
	}
	return next.UnixMilli(), nil
}
