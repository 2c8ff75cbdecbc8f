package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// WorkflowNodeRun is a row of WorkflowNodeRunTable: one node of one run.
type WorkflowNodeRun struct {
	ID     int64
	RunID  int64
	NodeID int
	JobID  int
	State  string
	// Attempt counts the node's triggers from 1 (0: not triggered);
	// Retries is how many more its job allows after a failure.
	Attempt int
	Retries int
	// LogID is the first log row of the current attempt (0: none yet).
	LogID         int64
	ExecutorParam *string
	Msg           *string
	UpdateTime    time.Time
}

var nodeRunColumns = []string{"id", "run_id", "node_id", "job_id", "state", "attempt", "retries", "log_id",
	"executor_param", "msg", "update_time"}

func scanNodeRun(sc scanner) (WorkflowNodeRun, error) {
	var n WorkflowNodeRun
	var updated int64
	err := sc.Scan(&n.ID, &n.RunID, &n.NodeID, &n.JobID, &n.State, &n.Attempt, &n.Retries, &n.LogID, &n.ExecutorParam,
		&n.Msg, &updated)
	n.UpdateTime = fromMillis(updated)
	return n, err
}

// WorkflowNodeRunsAdd stores the node runs of a new run.
func (s *Store) WorkflowNodeRunsAdd(ctx context.Context, rows []WorkflowNodeRun) error {
	for start := 0; start < len(rows); start += batchRows {
		b := s.sb.Insert(WorkflowNodeRunTable).Columns(nodeRunColumns[1:]...)
		for _, n := range rows[start:min(start+batchRows, len(rows))] {
			b = b.Values(n.RunID, n.NodeID, n.JobID, n.State, n.Attempt, n.Retries, n.LogID, n.ExecutorParam,
				clipPtr(n.Msg, 512), millis(n.UpdateTime))
		}
		if _, err := s.exec(ctx, b); err != nil {
			return fmt.Errorf("add %d workflow node runs: %w", len(rows), err)
		}
	}
	return nil
}

// WorkflowNodeRuns reads the node runs of runs, by node id within each
// run; lock locks them until the transaction ends (a locking read also
// sees the latest committed rows on MySQL, whose plain reads in a
// transaction see its first snapshot).
func (s *Store) WorkflowNodeRuns(ctx context.Context, runIDs []int64, lock bool) ([]WorkflowNodeRun, error) {
	var out []WorkflowNodeRun
	err := inChunks(runIDs, func(chunk []int64) error {
		b := s.sb.Select(nodeRunColumns...).From(WorkflowNodeRunTable).Where(sq.Eq{"run_id": chunk}).OrderBy("run_id", "node_id")
		if lock {
			b = b.Suffix(s.d.lockSuffix())
		}
		rows, err := selectAll(ctx, s, b, scanNodeRun)
		out = append(out, rows...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read node runs of %d workflow runs: %w", len(runIDs), err)
	}
	return out, nil
}

// NodeRunMove is a compare-and-set on a node run: from its state and
// attempt (From, FromAttempt) to To with the given fields.
type NodeRunMove struct {
	ID          int64
	From        string
	FromAttempt int
	To          string
	Attempt     int
	Retries     int
	LogID       int64
	Param       *string
	Msg         *string
	At          time.Time
}

// WorkflowNodeRunMove applies a move; it reports whether the node run was
// still in From at FromAttempt (false: another admin moved it first).
func (s *Store) WorkflowNodeRunMove(ctx context.Context, m NodeRunMove) (bool, error) {
	b := s.sb.Update(WorkflowNodeRunTable).Set("state", m.To).Set("attempt", m.Attempt).Set("retries", m.Retries).
		Set("log_id", m.LogID).Set("update_time", millis(m.At))
	if m.Param != nil {
		b = b.Set("executor_param", m.Param)
	}
	if m.Msg != nil {
		b = b.Set("msg", clipPtr(m.Msg, 512))
	}
	n, err := s.exec(ctx, b.Where(sq.Eq{"id": m.ID, "state": m.From, "attempt": m.FromAttempt}))
	if err != nil {
		return false, fmt.Errorf("move workflow node run %d from %s to %s: %w", m.ID, m.From, m.To, err)
	}
	return n > 0, nil
}

// WorkflowNodeLog is a row of WorkflowNodeLogTable: a log row written for
// a node run's attempt (one per shard of a broadcast) and its result, 0
// until it has one.
type WorkflowNodeLog struct {
	LogID      int64
	NodeRunID  int64
	Attempt    int
	ShardIndex int
	ShardTotal int
	Result     int
}

var nodeLogColumns = []string{"log_id", "node_run_id", "attempt", "shard_index", "shard_total", "result"}

func scanNodeLog(sc scanner) (WorkflowNodeLog, error) {
	var l WorkflowNodeLog
	err := sc.Scan(&l.LogID, &l.NodeRunID, &l.Attempt, &l.ShardIndex, &l.ShardTotal, &l.Result)
	return l, err
}

// WorkflowNodeLogsAdd stores log rows of node runs; a log stored already
// is skipped.
func (s *Store) WorkflowNodeLogsAdd(ctx context.Context, rows []WorkflowNodeLog) error {
	suffix := "ON CONFLICT (log_id) DO NOTHING"
	if s.d.backend() == MySQL {
		suffix = "ON DUPLICATE KEY UPDATE log_id = log_id"
	}
	for start := 0; start < len(rows); start += batchRows {
		b := s.sb.Insert(WorkflowNodeLogTable).Columns(nodeLogColumns...)
		for _, l := range rows[start:min(start+batchRows, len(rows))] {
			b = b.Values(l.LogID, l.NodeRunID, l.Attempt, l.ShardIndex, max(l.ShardTotal, 1), l.Result)
		}
		if _, err := s.exec(ctx, b.Suffix(suffix)); err != nil {
			return fmt.Errorf("add %d workflow node logs: %w", len(rows), err)
		}
	}
	return nil
}

// WorkflowNodeLogsOf reads the node logs of log ids, by log id (a log of
// no workflow is absent).
func (s *Store) WorkflowNodeLogsOf(ctx context.Context, logIDs []int64) (map[int64]WorkflowNodeLog, error) {
	out := map[int64]WorkflowNodeLog{}
	err := inChunks(logIDs, func(chunk []int64) error {
		rows, err := selectAll(ctx, s, s.sb.Select(nodeLogColumns...).From(WorkflowNodeLogTable).Where(sq.Eq{"log_id": chunk}), scanNodeLog)
		for _, l := range rows {
			out[l.LogID] = l
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read workflow node logs: %w", err)
	}
	return out, nil
}

// WorkflowNodeLogsLock reads node logs by log id, locked until the
// transaction ends: by primary key, so that on MySQL only those rows are
// locked (no gap a log row of another node would be inserted into), and
// read as last committed.
func (s *Store) WorkflowNodeLogsLock(ctx context.Context, logIDs []int64) ([]WorkflowNodeLog, error) {
	var out []WorkflowNodeLog
	err := inChunks(logIDs, func(chunk []int64) error {
		rows, err := selectAll(ctx, s, s.sb.Select(nodeLogColumns...).From(WorkflowNodeLogTable).Where(sq.Eq{"log_id": chunk}).
			OrderBy("log_id").Suffix(s.d.lockSuffix()), scanNodeLog)
		out = append(out, rows...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("lock %d workflow node logs: %w", len(logIDs), err)
	}
	return out, nil
}

// WorkflowNodeLogsOfRuns reads the node logs of node runs, locked until
// the transaction ends when lock is set.
func (s *Store) WorkflowNodeLogsOfRuns(ctx context.Context, nodeRunIDs []int64, lock bool) ([]WorkflowNodeLog, error) {
	var out []WorkflowNodeLog
	err := inChunks(nodeRunIDs, func(chunk []int64) error {
		b := s.sb.Select(nodeLogColumns...).From(WorkflowNodeLogTable).Where(sq.Eq{"node_run_id": chunk}).OrderBy("log_id")
		if lock {
			b = b.Suffix(s.d.lockSuffix())
		}
		rows, err := selectAll(ctx, s, b, scanNodeLog)
		out = append(out, rows...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read workflow node logs of %d node runs: %w", len(nodeRunIDs), err)
	}
	return out, nil
}

// WorkflowNodeLogResult stores a node log's result once: it reports
// whether the log had none yet.
func (s *Store) WorkflowNodeLogResult(ctx context.Context, logID int64, result int) (bool, error) {
	n, err := s.exec(ctx, s.sb.Update(WorkflowNodeLogTable).Set("result", result).Where(sq.Eq{"log_id": logID, "result": 0}))
	if err != nil {
		return false, fmt.Errorf("store result of workflow node log %d: %w", logID, err)
	}
	return n > 0, nil
}

// NodeLogOutcome is a node log without a result and what its log row
// says: the trigger's code and the handle code (0 while none).
type NodeLogOutcome struct {
	WorkflowNodeLog
	TriggerCode int
	HandleCode  int
	Missing     bool // the log row no longer exists
}

// WorkflowNodeLogsOpen reads the node logs of node runs that have no
// result yet, with their log rows' codes.
func (s *Store) WorkflowNodeLogsOpen(ctx context.Context, nodeRunIDs []int64) ([]NodeLogOutcome, error) {
	var out []NodeLogOutcome
	err := inChunks(nodeRunIDs, func(chunk []int64) error {
		cols := make([]string, 0, len(nodeLogColumns)+3)
		for _, c := range nodeLogColumns {
			cols = append(cols, "n."+c)
		}
		cols = append(cols, "l.id", "l.trigger_code", "l.handle_code")
		rows, err := selectAll(ctx, s, s.sb.Select(cols...).From(WorkflowNodeLogTable+" n").
			LeftJoin("xxl_job_log l ON l.id = n.log_id").Where(sq.Eq{"n.node_run_id": chunk, "n.result": 0}).OrderBy("n.log_id"),
			func(sc scanner) (NodeLogOutcome, error) {
				var o NodeLogOutcome
				var id, tc, hc *int64
				err := sc.Scan(&o.LogID, &o.NodeRunID, &o.Attempt, &o.ShardIndex, &o.ShardTotal, &o.Result, &id, &tc, &hc)
				o.Missing = id == nil
				if tc != nil {
					o.TriggerCode = int(*tc)
				}
				if hc != nil {
					o.HandleCode = int(*hc)
				}
				return o, err
			})
		out = append(out, rows...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read open workflow node logs: %w", err)
	}
	return out, nil
}

// PendingDecisionExists tells whether a pending row of the decision
// (kind, source, seq) exists, whatever its shard.
func (s *Store) PendingDecisionExists(ctx context.Context, kind string, source int64, seq int) (bool, error) {
	n, err := s.count(ctx, s.sb.Select("count(1)").From(PendingTable).Where(sq.Eq{"kind": kind, "source_log_id": source, "seq": seq}))
	if err != nil {
		return false, fmt.Errorf("find pending decision %s %d/%d: %w", kind, source, seq, s.failed(ctx, err))
	}
	return n > 0, nil
}

// WorkflowNodeRunsByID reads node runs by id (unlocked: callers lock
// their runs and read them again).
func (s *Store) WorkflowNodeRunsByID(ctx context.Context, ids []int64) ([]WorkflowNodeRun, error) {
	var out []WorkflowNodeRun
	err := inChunks(ids, func(chunk []int64) error {
		rows, err := selectAll(ctx, s, s.sb.Select(nodeRunColumns...).From(WorkflowNodeRunTable).Where(sq.Eq{"id": chunk}), scanNodeRun)
		out = append(out, rows...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read %d workflow node runs: %w", len(ids), err)
	}
	return out, nil
}

// PendingDeleteDecided deletes the pending rows of a kind still at
// PendingDecided (no log row written yet) whose sources are given: the
// decided triggers of nodes an operator stopped, which must not be sent.
// Rows further on are left to finish: their log rows exist.
func (s *Store) PendingDeleteDecided(ctx context.Context, kind string, sources []int64) error {
	err := inChunks(sources, func(chunk []int64) error {
		_, err := s.exec(ctx, s.sb.Delete(PendingTable).Where(sq.Eq{"kind": kind, "source_log_id": chunk, "stage": PendingDecided}))
		return err
	})
	if err != nil {
		return fmt.Errorf("delete decided %s triggers: %w", kind, err)
	}
	return nil
}
