package workflow

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// errMoved is a compare-and-set that lost although its run was locked:
// the transaction is rolled back and the step is taken again later.
var errMoved = errors.New("workflow node run moved under its run's lock")

// advance locks the given runs and their nodes and takes every step their
// nodes' rules allow now: a waiting node whose rule says run is
// triggered (its pending row stored in tx), one whose rule says skip is
// skipped, and a run whose nodes are all final ends in the state they
// imply, letting the run its workflow queued begin. It returns the
// triggers to submit once tx has committed.
func (e *Engine) advance(ctx context.Context, tx *schema.Store, runIDs []int64) ([]trigger.Request, error) {
	runs, err := lockRuns(ctx, tx, runIDs)
	if err != nil {
		return nil, err
	}
	var open []int64
	for _, id := range runIDs {
		if RunState(runs[id].State) == RunRunning {
			open = append(open, id)
		}
	}
	if len(open) == 0 {
		return nil, nil
	}
	nodes, err := tx.WorkflowNodeRuns(ctx, open, true)
	if err != nil {
		return nil, err
	}
	return e.advanceLocked(ctx, tx, runs, open, nodes)
}

// advanceLocked is advance for runs and node runs the caller locked and
// read (and may have moved since, in tx and in these values).
func (e *Engine) advanceLocked(ctx context.Context, tx *schema.Store, runs map[int64]schema.WorkflowRun, ids []int64,
	nodes []schema.WorkflowNodeRun) ([]trigger.Request, error) {
	byRun := map[int64][]schema.WorkflowNodeRun{}
	for _, n := range nodes {
		byRun[n.RunID] = append(byRun[n.RunID], n)
	}
	var reqs []trigger.Request
	for _, id := range ids {
		if RunState(runs[id].State) != RunRunning {
			continue
		}
		r, err := e.advanceRun(ctx, tx, runs[id], byRun[id])
		if err != nil {
			return nil, fmt.Errorf("workflow run %d: %w", id, err)
		}
		reqs = append(reqs, r...)
	}
	return reqs, nil
}

// advanceRun is advance for one locked run and its locked node runs.
func (e *Engine) advanceRun(ctx context.Context, tx *schema.Store, run schema.WorkflowRun, nodeRuns []schema.WorkflowNodeRun) ([]trigger.Request, error) {
	pl, err := e.plans.of(run)
	if err != nil {
		return nil, err
	}
	ix := pl.ix
	byNode := make(map[int]*schema.WorkflowNodeRun, len(nodeRuns))
	for i := range nodeRuns {
		byNode[nodeRuns[i].NodeID] = &nodeRuns[i]
	}
	var vars *Vars // read when a node is triggered
	var reqs []trigger.Request
	// In topological order a node's parents are decided before it, so one
	// pass reaches what the rules allow now (a skip cascades down).
	for _, id := range pl.order {
		nr := byNode[id]
		if nr == nil || NodeState(nr.State) != NodeWaiting {
			continue
		}
		parents := make([]NodeState, 0, len(ix.parents[id]))
		for _, p := range ix.parents[id] {
			if pr := byNode[p]; pr != nil {
				parents = append(parents, NodeState(pr.State))
			}
		}
		switch ix.nodes[id].Rule.Decide(parents) {
		case Run:
			if vars == nil {
				v, err := e.varsOf(ctx, tx, run)
				if err != nil {
					return nil, err
				}
				vars = &v
			}
			req, err := e.decide(ctx, tx, *vars, ix.nodes[id], nr, nr.Attempt+1)
			if err != nil {
				return nil, err
			}
			if req != nil {
				reqs = append(reqs, *req)
			}
		case Skip:
			if err := e.move(ctx, tx, nr, NodeSkipped, nr.Attempt, ruleSkipMsg+string(ix.nodes[id].Rule.orDefault())); err != nil {
				return nil, err
			}
		}
	}
	states := make([]NodeState, len(nodeRuns))
	for i, n := range nodeRuns {
		states[i] = NodeState(n.State)
	}
	outcome, done := Outcome(states)
	if !done {
		return reqs, nil
	}
	more, err := e.end(ctx, tx, run, outcome, "")
	return append(reqs, more...), err
}

// ruleSkipMsg starts the message of a node its rule skipped (an
// operator's retry decides it again; an operator's skip stays).
const ruleSkipMsg = "skipped by its trigger rule "

// end moves a running run to its final state and begins the run its
// workflow queued, if any.
func (e *Engine) end(ctx context.Context, tx *schema.Store, run schema.WorkflowRun, to RunState, msg string) ([]trigger.Request, error) {
	return e.endFrom(ctx, tx, run, RunRunning, to, msg)
}

// endFrom is end for a run in state from (RUNNING, or QUEUED when an
// operator stops a run that waits).
func (e *Engine) endFrom(ctx context.Context, tx *schema.Store, run schema.WorkflowRun, from, to RunState, msg string) ([]trigger.Request, error) {
	now := e.cfg.Now()
	ok, err := tx.WorkflowRunMove(ctx, run.ID, string(from), string(to), time.Time{}, now, optional(msg))
	if err != nil || !ok {
		return nil, err
	}
	// Counted as the step decides it: a step whose transaction then fails
	// is counted too (rare; metrics are per admin, not a ledger).
	e.cfg.Observe.RunEnded(to)
	// A failure's alarm is decided with the failure itself: the row
	// commits with the run's end or not at all, and Alarms sends it once.
	if to == RunFailed {
		if err := tx.WorkflowAlarmAdd(ctx, run.ID, now); err != nil {
			return nil, err
		}
	}
	// Starts of the workflow take turns on its row: a start that queued a
	// run while this one was ending has committed, or sees it ended.
	if _, err := tx.WorkflowLock(ctx, run.WorkflowID); errors.Is(err, schema.ErrNotFound) {
		return nil, nil // deleted: its queued runs stay queued
	} else if err != nil {
		return nil, err
	}
	next, err := tx.WorkflowRunOldest(ctx, run.WorkflowID, string(RunQueued))
	if errors.Is(err, schema.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if ok, err := tx.WorkflowRunMove(ctx, next.ID, string(RunQueued), string(RunRunning), now, time.Time{}, nil); err != nil || !ok {
		return nil, err
	}
	return e.advance(ctx, tx, []int64{next.ID})
}

// decide triggers a node run's attempt: its job's parameter (or the
// node's) expanded, its pending row stored and the node run moved to
// TRIGGERED in tx. A node whose job is gone fails instead (nil request).
func (e *Engine) decide(ctx context.Context, tx *schema.Store, vars Vars, n Node, nr *schema.WorkflowNodeRun, attempt int) (*trigger.Request, error) {
	job, err := tx.JobLoad(ctx, nr.JobID)
	if errors.Is(err, schema.ErrNotFound) {
		return nil, e.move(ctx, tx, nr, NodeFailed, attempt, fmt.Sprintf("job %d no longer exists", nr.JobID))
	}
	if err != nil {
		return nil, err
	}
	template := deref(job.ExecutorParam)
	if n.Param != nil {
		template = *n.Param
	}
	param := Expand(template, vars)
	// The job's own retries are the node's: the engine retries a failed
	// attempt itself (a retry of the fail monitor would be no node's).
	req := trigger.Request{JobID: nr.JobID, Type: TriggerType, FailRetryCount: 0}
	if n.Param != nil || param != template {
		req.ExecutorParam = &param
	}
	// Retries is the last attempt a failure is retried at: set when the
	// node leaves WAITING (its first attempt, or the first after an
	// operator's retry), so that each gets the job's count afresh.
	retries := nr.Retries
	if NodeState(nr.State) == NodeWaiting {
		retries = attempt - 1 + max(job.ExecutorFailRetryCount, 0)
	}
	p := e.cfg.Durable.Decision(&req, nr.ID, attempt)
	ok, err := tx.WorkflowNodeRunMove(ctx, schema.NodeRunMove{ID: nr.ID, From: nr.State, FromAttempt: nr.Attempt,
		To: string(NodeTriggered), Attempt: attempt, Retries: retries, Param: &param, At: e.cfg.Now()})
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errMoved
	}
	nr.State, nr.Attempt, nr.Retries, nr.ExecutorParam = string(NodeTriggered), attempt, retries, &param
	if err := tx.PendingInsert(ctx, []schema.PendingTrigger{p}); err != nil {
		return nil, err
	}
	return &req, nil
}

// move moves a node run to a final state (a compare-and-set from where
// it stands).
func (e *Engine) move(ctx context.Context, tx *schema.Store, nr *schema.WorkflowNodeRun, to NodeState, attempt int, msg string) error {
	ok, err := tx.WorkflowNodeRunMove(ctx, schema.NodeRunMove{ID: nr.ID, From: nr.State, FromAttempt: nr.Attempt,
		To: string(to), Attempt: attempt, Retries: nr.Retries, LogID: nr.LogID, Msg: optional(msg), At: e.cfg.Now()})
	if err != nil {
		return err
	}
	if !ok {
		return errMoved
	}
	nr.State, nr.Attempt = string(to), attempt
	return nil
}

// varsOf are the placeholders' values of a run: ${run.time} in the
// workflow's zone when it has one (the default zone when the workflow was
// deleted or its zone is unknown).
//
// A failed read of the workflow fails the step: it must never be passed
// over. On MariaDB/MySQL an error 1213 means the server has already rolled
// the whole transaction back, and every later statement on the same
// connection runs and commits on its own (autocommit); on Galera that
// error can surface at any statement, a plain read included, when a write
// committed through another node aborts the transaction. Passing over it
// here lost a callback's result, its node's end and its siblings'
// decisions, while the next node's trigger decided after it committed
// (issue 28: a node run after a parent that is still TRIGGERED).
func (e *Engine) varsOf(ctx context.Context, tx *schema.Store, run schema.WorkflowRun) (Vars, error) {
	params, err := ParseParams(deref(run.Params))
	if err != nil {
		return Vars{}, err
	}
	loc := e.cfg.Loc
	w, err := tx.WorkflowLoad(ctx, run.WorkflowID)
	switch {
	case err == nil && w.ScheduleTimezone != nil:
		if l, err := time.LoadLocation(*w.ScheduleTimezone); err == nil {
			loc = l
		}
	case err != nil && !errors.Is(err, schema.ErrNotFound):
		return Vars{}, fmt.Errorf("read workflow %d of run %d: %w", run.WorkflowID, run.ID, err)
	}
	return Vars{RunID: run.ID, Time: run.ScheduleTime.In(loc), Params: params}, nil
}
