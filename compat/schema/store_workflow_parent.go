package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// A workflow started after a job (schedule type JOB, the parent job's id
// in schedule_conf) keeps, in its trigger_last_time, the id of the first
// parent log its engine still looks at: the parent's logs below it are
// settled (started a run, skipped by the policy, failed) or older than the
// workflow's schedule. Our admins read the parent's logs from it, by the
// primary key, so the scan never reads xxl_job_log whole.

// WorkflowParent is a row of WorkflowParentTable: the parent log a
// workflow started after, and the run it started (0: skipped).
type WorkflowParent struct {
	WorkflowID int
	LogID      int64
	RunID      int64
	AddTime    time.Time
}

// ParentLog is what a workflow's start needs of one of its parent's logs.
type ParentLog struct {
	ID          int64
	TriggerTime *time.Time
	TriggerCode int
	HandleCode  int
}

// Succeeded says the parent's execution succeeded: it starts a run.
func (l ParentLog) Succeeded() bool { return l.HandleCode == 200 }

// Running says the log may still succeed: triggered (or about to be) and
// not handled.
func (l ParentLog) Running() bool {
	return l.HandleCode == 0 && (l.TriggerCode == 0 || l.TriggerCode == 200)
}

// WorkflowsByType lists the workflows of a schedule type, by id.
func (s *Store) WorkflowsByType(ctx context.Context, scheduleType string) ([]WorkflowRow, error) {
	rows, err := selectAll(ctx, s, s.sb.Select(workflowColumns...).From(WorkflowTable).
		Where(sq.Eq{"schedule_type": scheduleType}).OrderBy("id"), scanWorkflow)
	if err != nil {
		return nil, fmt.Errorf("list %s workflows: %w", scheduleType, err)
	}
	return rows, nil
}

// WorkflowParentLogs reads up to size logs of a job with id >= from, in id
// order: a range of xxl_job_log's primary key.
func (s *Store) WorkflowParentLogs(ctx context.Context, jobID int, from int64, size int) ([]ParentLog, error) {
	rows, err := selectAll(ctx, s, page(s.sb.Select("id", "trigger_time", "trigger_code", "handle_code").From("xxl_job_log").
		Where(sq.GtOrEq{"id": from}).Where(sq.Eq{"job_id": jobID}).OrderBy("id ASC"), 0, size),
		func(sc scanner) (ParentLog, error) {
			var l ParentLog
			err := sc.Scan(&l.ID, s.scanTime(&l.TriggerTime), &l.TriggerCode, &l.HandleCode)
			return l, err
		})
	if err != nil {
		return nil, fmt.Errorf("read logs of job %d from id %d: %w", jobID, from, err)
	}
	return rows, nil
}

// WorkflowSetParentMark stores the first parent log id a JOB workflow
// still looks at (its trigger_last_time).
func (s *Store) WorkflowSetParentMark(ctx context.Context, id int, mark int64) error {
	if _, err := s.exec(ctx, s.sb.Update(WorkflowTable).Set("trigger_last_time", mark).Where(sq.Eq{"id": id})); err != nil {
		return fmt.Errorf("set the parent mark of workflow %d: %w", id, err)
	}
	return nil
}

// WorkflowParentAdd records that a workflow started (or skipped) after a
// parent log; it reports false, changing nothing, when that log is
// recorded for the workflow already.
func (s *Store) WorkflowParentAdd(ctx context.Context, p WorkflowParent) (bool, error) {
	b := s.sb.Insert(WorkflowParentTable).Columns("workflow_id", "log_id", "run_id", "add_time").
		Values(p.WorkflowID, p.LogID, p.RunID, p.AddTime.UnixMilli())
	if s.d.backend() == MySQL {
		// INSERT IGNORE, not ON DUPLICATE KEY UPDATE: with found rows
		// counted (the connections' clientFoundRows) an upsert that
		// changes nothing still counts 1. The columns are integers, so
		// IGNORE turns nothing else into a warning.
		b = b.Options("IGNORE")
	} else {
		b = b.Suffix("ON CONFLICT (workflow_id, log_id) DO NOTHING")
	}
	n, err := s.exec(ctx, b)
	if err != nil {
		return false, fmt.Errorf("record parent log %d of workflow %d: %w", p.LogID, p.WorkflowID, err)
	}
	return n > 0, nil
}

// WorkflowParentsOf reads which of the given parent logs a workflow has
// recorded, by log id.
func (s *Store) WorkflowParentsOf(ctx context.Context, workflowID int, logIDs []int64) (map[int64]WorkflowParent, error) {
	out := make(map[int64]WorkflowParent, len(logIDs))
	err := inChunks(logIDs, func(chunk []int64) error {
		rows, err := selectAll(ctx, s, s.sb.Select("workflow_id", "log_id", "run_id", "add_time").From(WorkflowParentTable).
			Where(sq.Eq{"workflow_id": workflowID, "log_id": chunk}), scanWorkflowParent)
		for _, r := range rows {
			out[r.LogID] = r
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read parent logs of workflow %d: %w", workflowID, err)
	}
	return out, nil
}

// WorkflowRunParents reads the parent log of each run started after one,
// by run id (a run started otherwise is absent).
func (s *Store) WorkflowRunParents(ctx context.Context, runIDs []int64) (map[int64]int64, error) {
	out := make(map[int64]int64, len(runIDs))
	err := inChunks(runIDs, func(chunk []int64) error {
		rows, err := selectAll(ctx, s, s.sb.Select("workflow_id", "log_id", "run_id", "add_time").From(WorkflowParentTable).
			Where(sq.Eq{"run_id": chunk}), scanWorkflowParent)
		for _, r := range rows {
			out[r.RunID] = r.LogID
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read parent logs of %d runs: %w", len(runIDs), err)
	}
	return out, nil
}

func scanWorkflowParent(sc scanner) (WorkflowParent, error) {
	var p WorkflowParent
	var added int64
	err := sc.Scan(&p.WorkflowID, &p.LogID, &p.RunID, &added)
	p.AddTime = time.UnixMilli(added)
	return p, err
}

// JobChildLists reads the child_jobid of jobs by id, as stored (a job
// without children, or that does not exist, is absent): what a workflow's
// parent check follows.
func (s *Store) JobChildLists(ctx context.Context, ids []int) (map[int]string, error) {
	type childList struct {
		id   int
		list *string
	}
	out := map[int]string{}
	err := inChunks(ids, func(chunk []int) error {
		rows, err := selectAll(ctx, s, s.sb.Select("id", "child_jobid").From("xxl_job_info").Where(sq.Eq{"id": chunk}),
			func(sc scanner) (childList, error) {
				var c childList
				err := sc.Scan(&c.id, &c.list)
				return c, err
			})
		for _, c := range rows {
			if c.list != nil && *c.list != "" {
				out[c.id] = *c.list
			}
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read child jobs of %d jobs: %w", len(ids), err)
	}
	return out, nil
}
