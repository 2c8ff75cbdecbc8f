package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// WorkflowRow is a row of WorkflowTable: a workflow as stored, its graph
// as core/workflow encodes it.
type WorkflowRow struct {
	ID               int
	JobGroup         int
	Name             string
	Author           *string
	Graph            string
	Params           *string
	ScheduleType     string
	ScheduleConf     *string
	ScheduleTimezone *string
	MisfireStrategy  string
	Concurrency      string
	MaxParallel      int
	Enabled          bool
	TriggerLastTime  int64 // Unix ms
	TriggerNextTime  int64 // Unix ms
	AddTime          time.Time
	UpdateTime       time.Time
}

var workflowColumns = []string{"id", "job_group", "name", "author", "graph", "params", "schedule_type", "schedule_conf",
	"schedule_timezone", "misfire_strategy", "concurrency", "max_parallel", "enabled", "trigger_last_time",
	"trigger_next_time", "add_time", "update_time"}

func scanWorkflow(sc scanner) (WorkflowRow, error) {
	var w WorkflowRow
	var enabled int
	var added, updated int64
	err := sc.Scan(&w.ID, &w.JobGroup, &w.Name, &w.Author, &w.Graph, &w.Params, &w.ScheduleType, &w.ScheduleConf,
		&w.ScheduleTimezone, &w.MisfireStrategy, &w.Concurrency, &w.MaxParallel, &enabled, &w.TriggerLastTime,
		&w.TriggerNextTime, &added, &updated)
	w.Enabled, w.AddTime, w.UpdateTime = enabled != 0, time.UnixMilli(added), time.UnixMilli(updated)
	return w, err
}

func (w WorkflowRow) values() []any {
	enabled := 0
	if w.Enabled {
		enabled = 1
	}
	return []any{w.JobGroup, w.Name, w.Author, w.Graph, w.Params, w.ScheduleType, w.ScheduleConf, w.ScheduleTimezone,
		w.MisfireStrategy, w.Concurrency, w.MaxParallel, enabled, w.TriggerLastTime, w.TriggerNextTime,
		w.AddTime.UnixMilli(), w.UpdateTime.UnixMilli()}
}

// WorkflowAdd stores a new workflow and returns its id.
func (s *Store) WorkflowAdd(ctx context.Context, w WorkflowRow) (int, error) {
	id, err := s.d.insertID(ctx, s.q, s.sb.Insert(WorkflowTable).Columns(workflowColumns[1:]...).Values(w.values()...))
	if err != nil {
		return 0, fmt.Errorf("add workflow %q: %w", w.Name, s.failed(ctx, err))
	}
	return int(id), nil
}

// WorkflowUpdate replaces a workflow's row (all but its id and add_time);
// ErrNotFound when it does not exist.
func (s *Store) WorkflowUpdate(ctx context.Context, w WorkflowRow) error {
	b := s.sb.Update(WorkflowTable)
	vals := w.values()
	for i, c := range workflowColumns[1:] {
		if c != "add_time" {
			b = b.Set(c, vals[i])
		}
	}
	n, err := s.exec(ctx, b.Where(sq.Eq{"id": w.ID}))
	if err != nil {
		return fmt.Errorf("update workflow %d: %w", w.ID, err)
	}
	if n == 0 {
		return fmt.Errorf("update workflow %d: %w", w.ID, ErrNotFound)
	}
	return nil
}

// WorkflowLoad reads a workflow; ErrNotFound when it does not exist.
func (s *Store) WorkflowLoad(ctx context.Context, id int) (WorkflowRow, error) {
	w, err := scanWorkflow(s.queryRow(ctx, s.sb.Select(workflowColumns...).From(WorkflowTable).Where(sq.Eq{"id": id})))
	if err != nil {
		return w, notFound(s.failed(ctx, err), fmt.Sprintf("load workflow %d", id))
	}
	return w, nil
}

// WorkflowLock reads a workflow locked until the transaction ends (where
// the backend has row locks): starts of one workflow take turns on it.
func (s *Store) WorkflowLock(ctx context.Context, id int) (WorkflowRow, error) {
	w, err := scanWorkflow(s.queryRow(ctx, s.sb.Select(workflowColumns...).From(WorkflowTable).Where(sq.Eq{"id": id}).
		Suffix(s.d.lockSuffix())))
	if err != nil {
		return w, notFound(s.failed(ctx, err), fmt.Sprintf("lock workflow %d", id))
	}
	return w, nil
}

// WorkflowLockMany locks workflows by id, in id order, until the
// transaction ends; a missing one is skipped.
func (s *Store) WorkflowLockMany(ctx context.Context, ids []int) error {
	err := inChunks(ids, func(chunk []int) error {
		_, err := selectAll(ctx, s, s.sb.Select("id").From(WorkflowTable).Where(sq.Eq{"id": chunk}).OrderBy("id").
			Suffix(s.d.lockSuffix()), scanValue[int])
		return err
	})
	if err != nil {
		return fmt.Errorf("lock %d workflows: %w", len(ids), err)
	}
	return nil
}

// WorkflowDelete deletes a workflow (its runs stay, for their history).
func (s *Store) WorkflowDelete(ctx context.Context, id int) (bool, error) {
	n, err := s.exec(ctx, s.sb.Delete(WorkflowTable).Where(sq.Eq{"id": id}))
	if err != nil {
		return false, fmt.Errorf("delete workflow %d: %w", id, err)
	}
	return n > 0, nil
}

// WorkflowList lists the workflows of a group (all groups for group <= 0)
// by id.
func (s *Store) WorkflowList(ctx context.Context, group int) ([]WorkflowRow, error) {
	b := s.sb.Select(workflowColumns...).From(WorkflowTable).OrderBy("id")
	if group > 0 {
		b = b.Where(sq.Eq{"job_group": group})
	}
	rows, err := selectAll(ctx, s, b, scanWorkflow)
	if err != nil {
		return nil, fmt.Errorf("list workflows: %w", err)
	}
	return rows, nil
}

// WorkflowsDue lists up to size enabled, scheduled workflows whose next
// fire time (Unix ms) is at or before now, the earliest first.
func (s *Store) WorkflowsDue(ctx context.Context, now int64, size int) ([]WorkflowRow, error) {
	rows, err := selectAll(ctx, s, page(s.sb.Select(workflowColumns...).From(WorkflowTable).
		Where(sq.Eq{"enabled": 1}).Where(sq.NotEq{"schedule_type": "NONE"}).Where(sq.LtOrEq{"trigger_next_time": now}).
		Where(sq.Gt{"trigger_next_time": 0}).OrderBy("trigger_next_time", "id"), 0, size), scanWorkflow)
	if err != nil {
		return nil, fmt.Errorf("find due workflows: %w", err)
	}
	return rows, nil
}

// WorkflowSetTrigger stores a workflow's last and next fire times (Unix
// ms); next 0 stops its schedule.
func (s *Store) WorkflowSetTrigger(ctx context.Context, id int, last, next int64) error {
	if _, err := s.exec(ctx, s.sb.Update(WorkflowTable).Set("trigger_last_time", last).Set("trigger_next_time", next).
		Where(sq.Eq{"id": id})); err != nil {
		return fmt.Errorf("set fire times of workflow %d: %w", id, err)
	}
	return nil
}
