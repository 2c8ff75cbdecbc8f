package workflow

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// A workflow may start after a job: its schedule type is ScheduleJob and
// its schedule_conf the parent job's id, so Java's child_jobid (which Java
// parses as job ids) never names a workflow. Each log of the parent that
// ends with handle code 200 starts one run (trigger type TriggerParent),
// as the workflow's concurrency policy admits, while it is enabled.
//
// A start is decided once per workflow and parent log, keyed by the pair
// in schema.WorkflowParentTable, in one of two places:
//   - Finished, in the transaction that stores the parent's result (a
//     callback to an admin of ours, or its lost-job monitor);
//   - the pass, for results stored without our hook (a Java admin's
//     callback, an admin of ours whose hook had not learned the workflow
//     yet): it reads the parent's logs from the workflow's mark by the
//     primary key.
//
// Both hold the workflow's row locked, start only logs at or above its
// mark, and record the log with the run, so a start is never lost to a
// crash (it commits with the result, or the pass finds the result) nor
// doubled (the key).
const (
	// ScheduleJob is the schedule type of a workflow started after a job.
	ScheduleJob = "JOB"
	// TriggerParent is the trigger type of a run its parent started.
	TriggerParent = "PARENT"
)

// parentBatch is how many of a parent's logs a pass reads at once.
const parentBatch = 500

// staleParent is how long a parent log may run and still hold a
// workflow's mark: one running longer (its executor lost, never settled)
// no longer stops the pass from moving on; its success, if it comes
// later, starts no run.
const staleParent = 24 * time.Hour

// ParentJob is the parent job of a workflow started after a job, ok false
// for any other schedule.
func (s Schedule) ParentJob() (int, bool) {
	if s.Type != ScheduleJob {
		return 0, false
	}
	id, err := strconv.Atoi(s.Conf)
	if err != nil || id <= 0 {
		return 0, false
	}
	return id, true
}

// parentIndex maps parent job ids to the enabled workflows started after
// them, as the last pass read them: the hook's cheap "is this log anyone's
// parent" before it takes any lock. A workflow saved since is caught by
// the next pass.
type parentIndex struct {
	mu    sync.RWMutex
	byJob map[int][]int
}

func (p *parentIndex) set(byJob map[int][]int) {
	p.mu.Lock()
	p.byJob = byJob
	p.mu.Unlock()
}

func (p *parentIndex) of(jobID int) []int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.byJob[jobID]
}

// startAfterParents starts the workflows whose parent logs tx finishes
// with success, each workflow's row locked in id order.
func (e *Engine) startAfterParents(ctx context.Context, tx *schema.Store, logs []schema.JobLog) ([]trigger.Request, error) {
	byWorkflow := map[int][]int64{}
	for _, l := range logs {
		if l.HandleCode != 200 {
			continue
		}
		for _, w := range e.parents.of(l.JobID) {
			byWorkflow[w] = append(byWorkflow[w], l.ID)
		}
	}
	var out []trigger.Request
	for _, w := range slices.Sorted(maps.Keys(byWorkflow)) {
		row, err := tx.WorkflowLock(ctx, w)
		if errors.Is(err, schema.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		reqs, err := e.startFromParent(ctx, tx, row, byWorkflow[w])
		if err != nil {
			return nil, err
		}
		out = append(out, reqs...)
	}
	return out, nil
}

// startFromParent starts a run of a workflow whose row tx holds locked for
// each succeeded parent log given that is at or above its mark and not
// recorded yet; a start the policy refuses is recorded as skipped.
func (e *Engine) startFromParent(ctx context.Context, tx *schema.Store, row schema.WorkflowRow, logIDs []int64) ([]trigger.Request, error) {
	w, err := FromRow(row)
	if err != nil {
		return nil, err
	}
	if _, ok := w.Schedule.ParentJob(); !ok || !w.Enabled {
		return nil, nil
	}
	done, err := tx.WorkflowParentsOf(ctx, w.ID, logIDs)
	if err != nil {
		return nil, err
	}
	slices.Sort(logIDs)
	var out []trigger.Request
	for _, id := range slices.Compact(logIDs) {
		if _, ok := done[id]; ok || id < row.TriggerLastTime {
			continue
		}
		runID, reqs, err := e.startIn(ctx, tx, row, StartRequest{TriggerType: TriggerParent})
		switch {
		case errors.Is(err, ErrSkipped):
			e.cfg.Observe.RunEnded(RunSkipped)
			e.log.Info().Int("workflow_id", w.ID).Int64("parent_log_id", id).
				Msg("workflow start after its parent job skipped: its concurrency policy admits no run now")
		case err != nil:
			return nil, err
		}
		added, err := tx.WorkflowParentAdd(ctx, schema.WorkflowParent{WorkflowID: w.ID, LogID: id, RunID: runID, AddTime: e.cfg.Now()})
		if err != nil {
			return nil, err
		}
		if !added {
			// Another admin recorded it between our read and our write
			// (a backend without row locks): its run stands, ours must not.
			return nil, errParentRace
		}
		out = append(out, reqs...)
	}
	return out, nil
}

// errParentRace undoes a start whose parent log another admin recorded
// first; the transaction is redone or the next pass sees the record.
var errParentRace = fmt.Errorf("a parent log recorded by another admin meanwhile: %w", schema.ErrScheduleConflict)

// passParents refreshes the parent index and starts, for each enabled
// workflow started after a job, the runs of the parent's successes no hook
// started.
func (e *Engine) passParents(ctx context.Context) error {
	e.parentPass.Lock()
	defer e.parentPass.Unlock()
	rows, err := e.cfg.Store.WorkflowsByType(ctx, ScheduleJob)
	if err != nil {
		return err
	}
	byJob := map[int][]int{}
	for _, r := range rows {
		job, err := strconv.Atoi(deref(r.ScheduleConf))
		if err != nil || !r.Enabled {
			continue
		}
		byJob[job] = append(byJob[job], r.ID)
	}
	e.parents.set(byJob)
	if e.cursors == nil {
		e.cursors = map[int]*parentCursor{}
	}
	live := map[int]bool{}
	for _, r := range rows {
		if !r.Enabled {
			continue
		}
		live[r.ID] = true
		if err := e.catchUp(ctx, r); err != nil {
			if !schema.IsConflict(err) {
				return err
			}
			e.log.Debug().Err(err).Int("workflow_id", r.ID).Msg("workflow parent pass lost a race; the next pass goes on")
		}
	}
	for id := range e.cursors {
		if !live[id] {
			delete(e.cursors, id)
		}
	}
	return nil
}

// parentCursor is where an admin's pass stands in a workflow's parent
// logs, beyond its durable mark: the parent logs from mark to next that
// were running when last read (re-read by primary key), and next, the
// first id not read yet. Without it each pass would read every log of
// every job from the mark while a long parent execution holds it there
// (on a 2.x database xxl_job_log has no index on job_id). A restarted
// admin starts again from the mark.
type parentCursor struct {
	conf    string
	mark    int64
	next    int64
	running []int64
	// top is the next log id as read at topAt: once parentSettle has
	// passed, every log below it has committed, and next may jump to it
	// past the logs of other jobs (the range read finds no row of the
	// parent there, but would read them all again at every pass).
	top   int64
	topAt time.Time
}

// parentSettle is how long after reading the next log id the pass takes
// every log below it as committed: a log row's insert is a short
// transaction, and one still uncommitted (its id taken, its row not yet
// visible) would be passed over for good.
const parentSettle = time.Minute

// catchUp reads a workflow's parent logs (unlocked): those its cursor saw
// running, by primary key, and those after it, by a range of the primary
// key. When some succeeded and are not recorded, or the mark can move, it
// starts their runs and moves the mark with the workflow's row locked, if
// the row is still as read. The mark stops at the first parent log still
// running (unless it is stale), so a result stored later is read again.
func (e *Engine) catchUp(ctx context.Context, seen schema.WorkflowRow) error {
	s := e.cfg.Store
	job, err := strconv.Atoi(deref(seen.ScheduleConf))
	if err != nil {
		return nil
	}
	if seen.TriggerLastTime <= 0 {
		// A row no Save of ours marked: start after what exists now.
		next, err := s.LogNextID(ctx)
		if err != nil {
			return err
		}
		return e.inTx(ctx, func(tx *schema.Store) ([]trigger.Request, error) {
			row, err := tx.WorkflowLock(ctx, seen.ID)
			if err != nil || row.TriggerLastTime != seen.TriggerLastTime {
				return nil, ignoreNotFound(err)
			}
			return nil, tx.WorkflowSetParentMark(ctx, seen.ID, next)
		})
	}
	cur := e.cursors[seen.ID]
	if cur == nil || cur.mark != seen.TriggerLastTime || cur.conf != deref(seen.ScheduleConf) {
		cur = &parentCursor{conf: deref(seen.ScheduleConf), mark: seen.TriggerLastTime, next: seen.TriggerLastTime}
	}
	var logs []schema.ParentLog
	if len(cur.running) > 0 {
		states, err := s.LogStatesByID(ctx, cur.running)
		if err != nil {
			return err
		}
		for _, l := range states {
			logs = append(logs, schema.ParentLog{ID: l.ID, TriggerTime: l.TriggerTime, TriggerCode: l.TriggerCode, HandleCode: l.HandleCode})
		}
	}
	fresh, err := s.WorkflowParentLogs(ctx, job, cur.next, parentBatch)
	if err != nil {
		return err
	}
	logs = append(logs, fresh...)
	next := cur.next
	if len(fresh) > 0 {
		next = fresh[len(fresh)-1].ID + 1
	}
	now := e.cfg.Now()
	top, topAt := cur.top, cur.topAt
	if len(fresh) < parentBatch && (top == 0 || now.Sub(topAt) >= parentSettle) {
		if top > 0 {
			next = max(next, top) // the whole range below top was read
		}
		if top, err = s.LogNextID(ctx); err != nil {
			return err
		}
		topAt = now
	}
	mark := next
	var succeeded, running []int64
	stale := now.Add(-staleParent)
	for _, l := range logs {
		switch {
		case l.Succeeded():
			succeeded = append(succeeded, l.ID)
		case l.Running() && (l.TriggerTime == nil || l.TriggerTime.After(stale)):
			running = append(running, l.ID)
			mark = min(mark, l.ID)
		}
	}
	done, err := s.WorkflowParentsOf(ctx, seen.ID, succeeded)
	if err != nil {
		return err
	}
	var todo []int64
	for _, id := range succeeded {
		if _, ok := done[id]; !ok {
			todo = append(todo, id)
		}
	}
	moved := &parentCursor{conf: cur.conf, mark: mark, next: next, running: running, top: top, topAt: topAt}
	if len(todo) == 0 && mark == seen.TriggerLastTime {
		e.cursors[seen.ID] = moved
		return nil
	}
	delete(e.cursors, seen.ID) // until the commit says where we stand
	err = e.inTx(ctx, func(tx *schema.Store) ([]trigger.Request, error) {
		row, err := tx.WorkflowLock(ctx, seen.ID)
		if err != nil {
			return nil, ignoreNotFound(err)
		}
		if row.TriggerLastTime != seen.TriggerLastTime || !row.Enabled || row.ScheduleType != ScheduleJob ||
			deref(row.ScheduleConf) != deref(seen.ScheduleConf) {
			moved = nil // changed meanwhile: the next pass reads it again
			return nil, nil
		}
		reqs, err := e.startFromParent(ctx, tx, row, todo)
		if err != nil {
			return nil, err
		}
		return reqs, tx.WorkflowSetParentMark(ctx, row.ID, mark)
	})
	if err == nil && moved != nil {
		e.cursors[seen.ID] = moved
	}
	return err
}

func ignoreNotFound(err error) error {
	if errors.Is(err, schema.ErrNotFound) {
		return nil
	}
	return err
}
