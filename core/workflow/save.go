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
	ids := make([]int, len(w.Graph.Nodes))
	for i, n := range w.Graph.Nodes {
		ids[i] = n.JobID
	}
	jobs, err := s.JobTriggerLoad(ctx, ids)
	if err != nil {
		return 0, err
	}
	if err := Validate(w, func(id int) (int, bool) { j, ok := jobs[id]; return j.JobGroup, ok }); err != nil {
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
	if row.Enabled && row.ScheduleType != cron.TypeNone {
		next, err := NextFire(w.Schedule, now, loc)
		if err != nil {
			return 0, err
		}
		row.TriggerNextTime = next
	}
	if w.ID == 0 {
		return s.WorkflowAdd(ctx, row)
	}
	old, err := s.WorkflowLoad(ctx, w.ID)
	if err != nil {
		return 0, err
	}
	row.AddTime, row.TriggerLastTime = old.AddTime, old.TriggerLastTime
	return w.ID, s.WorkflowUpdate(ctx, row)
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
