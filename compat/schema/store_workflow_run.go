package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// WorkflowRun is a row of WorkflowRunTable: one run of a workflow, with
// the graph it runs (a copy taken at its start).
type WorkflowRun struct {
	ID           int64
	WorkflowID   int
	State        string
	TriggerType  string
	Graph        string
	Params       *string
	ScheduleTime time.Time
	StartTime    time.Time // zero until it runs (a queued run)
	EndTime      time.Time // zero until it ends
	Msg          *string
	AddTime      time.Time
}

var workflowRunColumns = []string{"id", "workflow_id", "state", "trigger_type", "graph", "params", "schedule_time",
	"start_time", "end_time", "msg", "add_time"}

// millis is t in Unix ms, 0 for the zero time; fromMillis the reverse.
func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

func scanWorkflowRun(sc scanner) (WorkflowRun, error) {
	var r WorkflowRun
	var sched, start, end, added int64
	err := sc.Scan(&r.ID, &r.WorkflowID, &r.State, &r.TriggerType, &r.Graph, &r.Params, &sched, &start, &end, &r.Msg, &added)
	r.ScheduleTime, r.StartTime, r.EndTime, r.AddTime = fromMillis(sched), fromMillis(start), fromMillis(end), fromMillis(added)
	return r, err
}

// WorkflowRunAdd stores a new run and returns its id.
func (s *Store) WorkflowRunAdd(ctx context.Context, r WorkflowRun) (int64, error) {
	id, err := s.d.insertID(ctx, s.q, s.sb.Insert(WorkflowRunTable).Columns(workflowRunColumns[1:]...).Values(
		r.WorkflowID, r.State, r.TriggerType, r.Graph, r.Params, millis(r.ScheduleTime), millis(r.StartTime),
		millis(r.EndTime), clipPtr(r.Msg, 512), millis(r.AddTime)))
	if err != nil {
		return 0, fmt.Errorf("add run of workflow %d: %w", r.WorkflowID, s.failed(ctx, err))
	}
	return id, nil
}

// WorkflowRunLoad reads a run; ErrNotFound when it does not exist.
func (s *Store) WorkflowRunLoad(ctx context.Context, id int64) (WorkflowRun, error) {
	r, err := scanWorkflowRun(s.queryRow(ctx, s.sb.Select(workflowRunColumns...).From(WorkflowRunTable).Where(sq.Eq{"id": id})))
	if err != nil {
		return r, notFound(s.failed(ctx, err), fmt.Sprintf("load workflow run %d", id))
	}
	return r, nil
}

// WorkflowRunsLock reads runs locked until the transaction ends, in id
// order (so that two transactions locking runs in common never wait on
// each other in a circle), by id.
func (s *Store) WorkflowRunsLock(ctx context.Context, ids []int64) (map[int64]WorkflowRun, error) {
	return s.workflowRuns(ctx, ids, s.d.lockSuffix())
}

// WorkflowRunsRead reads runs by id, unlocked.
func (s *Store) WorkflowRunsRead(ctx context.Context, ids []int64) (map[int64]WorkflowRun, error) {
	return s.workflowRuns(ctx, ids, "")
}

func (s *Store) workflowRuns(ctx context.Context, ids []int64, suffix string) (map[int64]WorkflowRun, error) {
	out := make(map[int64]WorkflowRun, len(ids))
	err := inChunks(ids, func(chunk []int64) error {
		rows, err := selectAll(ctx, s, s.sb.Select(workflowRunColumns...).From(WorkflowRunTable).
			Where(sq.Eq{"id": chunk}).OrderBy("id").Suffix(suffix), scanWorkflowRun)
		for _, r := range rows {
			out[r.ID] = r
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read %d workflow runs: %w", len(ids), err)
	}
	return out, nil
}

// WorkflowRunCount counts a workflow's runs in the given states.
func (s *Store) WorkflowRunCount(ctx context.Context, workflowID int, states ...string) (int, error) {
	n, err := s.count(ctx, s.sb.Select("count(1)").From(WorkflowRunTable).Where(sq.Eq{"workflow_id": workflowID, "state": states}))
	if err != nil {
		return 0, fmt.Errorf("count runs of workflow %d: %w", workflowID, s.failed(ctx, err))
	}
	return n, nil
}

// WorkflowRunOldest is a workflow's oldest run in state, locked until the
// transaction ends (a locking read: on MySQL it sees what committed after
// the transaction's snapshot); ErrNotFound when it has none.
func (s *Store) WorkflowRunOldest(ctx context.Context, workflowID int, state string) (WorkflowRun, error) {
	r, err := scanWorkflowRun(s.queryRow(ctx, page(s.sb.Select(workflowRunColumns...).From(WorkflowRunTable).
		Where(sq.Eq{"workflow_id": workflowID, "state": state}).OrderBy("id"), 0, 1).Suffix(s.d.lockSuffix())))
	if err != nil {
		return r, notFound(s.failed(ctx, err), fmt.Sprintf("oldest %s run of workflow %d", state, workflowID))
	}
	return r, nil
}

// WorkflowRunMove moves a run from state from to state to (a
// compare-and-set), setting its start time when start is not zero, its end
// time when end is not zero and its message when msg is not nil. It
// reports whether the run was in from.
func (s *Store) WorkflowRunMove(ctx context.Context, id int64, from, to string, start, end time.Time, msg *string) (bool, error) {
	b := s.sb.Update(WorkflowRunTable).Set("state", to)
	if !start.IsZero() {
		b = b.Set("start_time", start.UnixMilli())
	}
	if !end.IsZero() {
		b = b.Set("end_time", end.UnixMilli())
	}
	if msg != nil {
		b = b.Set("msg", clipPtr(msg, 512))
	}
	n, err := s.exec(ctx, b.Where(sq.Eq{"id": id, "state": from}))
	if err != nil {
		return false, fmt.Errorf("move workflow run %d from %s to %s: %w", id, from, to, err)
	}
	return n > 0, nil
}

// WorkflowRunReopen moves an ended run from state from back to RUNNING
// (an operator's retry), clearing its end time and message.
func (s *Store) WorkflowRunReopen(ctx context.Context, id int64, from, running string) (bool, error) {
	n, err := s.exec(ctx, s.sb.Update(WorkflowRunTable).Set("state", running).Set("end_time", 0).Set("msg", nil).
		Where(sq.Eq{"id": id, "state": from}))
	if err != nil {
		return false, fmt.Errorf("reopen workflow run %d: %w", id, err)
	}
	return n > 0, nil
}

// WorkflowRunsIn lists up to size runs in the given states, oldest first
// from the run after id after.
func (s *Store) WorkflowRunsIn(ctx context.Context, after int64, size int, states ...string) ([]WorkflowRun, error) {
	rows, err := selectAll(ctx, s, page(s.sb.Select(workflowRunColumns...).From(WorkflowRunTable).
		Where(sq.Eq{"state": states}).Where(sq.Gt{"id": after}).OrderBy("id"), 0, size), scanWorkflowRun)
	if err != nil {
		return nil, fmt.Errorf("list workflow runs: %w", err)
	}
	return rows, nil
}

// WorkflowRunList lists a workflow's runs, newest first.
func (s *Store) WorkflowRunList(ctx context.Context, workflowID, offset, size int) ([]WorkflowRun, error) {
	rows, err := selectAll(ctx, s, page(s.sb.Select(workflowRunColumns...).From(WorkflowRunTable).
		Where(sq.Eq{"workflow_id": workflowID}).OrderBy("id DESC"), offset, size), scanWorkflowRun)
	if err != nil {
		return nil, fmt.Errorf("list runs of workflow %d: %w", workflowID, err)
	}
	return rows, nil
}

// clipPtr cuts a message to n bytes on a rune boundary.
func clipPtr(p *string, n int) *string {
	if p == nil || len(*p) <= n {
		return p
	}
	v := *p
	for n > 0 && v[n]&0xC0 == 0x80 {
		n--
	}
	v = v[:n]
	return &v
}
