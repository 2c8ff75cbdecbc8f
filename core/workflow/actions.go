package workflow

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// ErrState is an operator's action that does not apply to the run or
// node as it stands (stopping a run that ended, skipping a node that
// succeeded, …).
var ErrState = errors.New("not possible in its current state")

// The messages operators' actions leave on nodes and runs.
const (
	msgStopped = "stopped by an operator"
	msgSkipped = "skipped by an operator"
	msgMarked  = "marked succeeded by an operator"
	msgRetried = "retried by an operator"
)

// StopRun stops a running or queued run: its waiting nodes and those in
// flight are STOPPED, the triggers decided and not yet written are
// dropped, and the run ends STOPPED (letting the run its workflow queued
// begin). Runs already at the executors go on; their results change
// nothing. It returns their log ids (of the nodes' current attempts),
// for a caller that kills them (StopRunKilling does).
func (e *Engine) StopRun(ctx context.Context, runID int64) ([]int64, error) {
	var running []int64
	err := e.inTx(ctx, func(tx *schema.Store) ([]trigger.Request, error) {
		running = running[:0]
		run, nodes, err := lockRun(ctx, tx, runID)
		if err != nil {
			return nil, err
		}
		from := RunState(run.State)
		if from != RunRunning && from != RunQueued {
			return nil, fmt.Errorf("stop run %d (%s): %w", runID, from, ErrState)
		}
		var inFlight []int64
		attempt := map[int64]int{} // of the nodes in flight: their current attempt
		for i := range nodes {
			nr := &nodes[i]
			if NodeState(nr.State).Final() {
				continue
			}
			if NodeState(nr.State) == NodeTriggered {
				inFlight = append(inFlight, nr.ID)
				attempt[nr.ID] = nr.Attempt
			}
			if err := e.move(ctx, tx, nr, NodeStopped, nr.Attempt, msgStopped); err != nil {
				return nil, err
			}
		}
		if err := tx.PendingDeleteDecided(ctx, string(TriggerType), inFlight); err != nil {
			return nil, err
		}
		logs, err := tx.WorkflowNodeLogsOfRuns(ctx, inFlight, false)
		if err != nil {
			return nil, err
		}
		for _, l := range logs {
			// An earlier attempt's log (of a run retried) is not this
			// stop's: its execution ended, or was stopped before.
			if l.Result == 0 && l.Attempt == attempt[l.NodeRunID] {
				running = append(running, l.LogID)
			}
		}
		return e.endFrom(ctx, tx, run, from, RunStopped, msgStopped)
	})
	return running, err
}

// Killer kills one execution (a log row) at its executor and records
// the kill on the row — core/jobs Logs.Kill with the caller's access.
type Killer func(ctx context.Context, logID int64) error

// Stopped is what stopping a run did to its executions at executors.
type Stopped struct {
	Running []int64       // at their executors when the run stopped
	Killed  []int64       // of those, killed there
	Failed  []KillFailure // of those, whose kill failed: they go on, their results change nothing
}

// KillFailure is an execution a stop could not kill, and why.
type KillFailure struct {
	LogID int64
	Err   error
}

// StopRunKilling stops a run as StopRun does and then kills each
// execution it left at an executor with kill; the console's stop and the
// job API's both come here. The kills follow the stop's commit, so a
// kill that fails (the executor gone, the log deleted, the caller not
// allowed its group) leaves the run stopped and is reported, not
// returned as the error. A log whose trigger is still on its way (the
// executor may already run it: the trigger flow records the /run's answer
// when it comes back) is waited for, up to sendWait; one that ended
// meanwhile is left alone — killing it would kill the job's next run at
// that executor and overwrite the result it reported — and is neither
// killed nor failed.
func (e *Engine) StopRunKilling(ctx context.Context, runID int64, kill Killer) (Stopped, error) {
	running, err := e.StopRun(ctx, runID)
	if err != nil {
		return Stopped{}, err
	}
	out := Stopped{Running: append([]int64{}, running...), Killed: []int64{}, Failed: []KillFailure{}}
	for _, id := range running {
		if l, err := e.awaitSent(ctx, id); err == nil && l.HandleCode != 0 {
			continue
		}
		if err := kill(ctx, id); err != nil {
			e.log.Warn().Err(err).Int64("run_id", runID).Int64("log_id", id).Msg("kill of a stopped workflow run's node failed")
			out.Failed = append(out.Failed, KillFailure{LogID: id, Err: err})
			continue
		}
		out.Killed = append(out.Killed, id)
	}
	return out, nil
}

// sendWait bounds how long a stop waits for a node's trigger in flight to
// be recorded: an executor's /run answers within 3 s (the client's
// timeout), and failover may try a second address.
const sendWait = 5 * time.Second

// awaitSent reads a log row until its trigger's answer or its result is
// recorded, or sendWait has passed. It waits on real time, not the
// engine's clock: what it waits for is a call on the network.
func (e *Engine) awaitSent(ctx context.Context, logID int64) (schema.JobLog, error) {
	deadline := time.Now().Add(sendWait)
	for {
		l, err := e.cfg.Store.LogLoad(ctx, logID)
		if err != nil || l.TriggerCode != 0 || l.HandleCode != 0 || !time.Now().Before(deadline) {
			return l, err
		}
		t := time.NewTimer(20 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return l, ctx.Err()
		case <-t.C:
		}
	}
}

// RetryRun runs a failed or stopped run again from where it failed: its
// failed and stopped nodes, and those their rules skipped, wait again and
// are decided anew (each a new attempt with its job's retries afresh);
// what succeeded stays. The workflow's concurrency policy must admit a
// run now (ErrSkipped otherwise; a retry is not queued).
func (e *Engine) RetryRun(ctx context.Context, runID int64) error {
	return e.inTx(ctx, func(tx *schema.Store) ([]trigger.Request, error) {
		run, nodes, err := lockRun(ctx, tx, runID)
		if err != nil {
			return nil, err
		}
		from := RunState(run.State)
		if from != RunFailed && from != RunStopped {
			return nil, fmt.Errorf("retry run %d (%s): %w", runID, from, ErrState)
		}
		if row, err := tx.WorkflowLoad(ctx, run.WorkflowID); err == nil {
			w, err := FromRow(row)
			if err != nil {
				return nil, err
			}
			if state, err := admit(ctx, tx, w); err != nil || state != RunRunning {
				return nil, fmt.Errorf("retry run %d: %w", runID, ErrSkipped)
			}
		} else if !errors.Is(err, schema.ErrNotFound) {
			return nil, err
		}
		for i := range nodes {
			nr := &nodes[i]
			switch NodeState(nr.State) {
			case NodeFailed, NodeStopped:
			case NodeSkipped:
				if !strings.HasPrefix(deref(nr.Msg), ruleSkipMsg) {
					continue // an operator's skip stays
				}
			default:
				continue
			}
			if err := e.move(ctx, tx, nr, NodeWaiting, nr.Attempt, msgRetried); err != nil {
				return nil, err
			}
		}
		if ok, err := tx.WorkflowRunReopen(ctx, runID, string(from), string(RunRunning)); err != nil || !ok {
			return nil, err
		}
		return e.advance(ctx, tx, []int64{runID})
	})
}

// SkipNode skips a node that waits, failed or was stopped; a running run
// goes on as if its rule had skipped it. In a failed run, skip the failed
// node and retry the run to go past it.
func (e *Engine) SkipNode(ctx context.Context, runID int64, nodeID int) error {
	return e.setNode(ctx, runID, nodeID, NodeSkipped, msgSkipped, NodeWaiting, NodeFailed, NodeStopped)
}

// MarkSucceeded takes a node as succeeded whatever it did: one that
// waits, failed, was stopped or skipped, or one in flight (its decided
// trigger is dropped if not yet written; a run already at its executor
// goes on and its result changes nothing).
func (e *Engine) MarkSucceeded(ctx context.Context, runID int64, nodeID int) error {
	return e.setNode(ctx, runID, nodeID, NodeSucceeded, msgMarked, NodeWaiting, NodeTriggered, NodeFailed, NodeStopped, NodeSkipped)
}

// setNode moves a node of a run from one of the states from to to and
// advances the run if it is running.
func (e *Engine) setNode(ctx context.Context, runID int64, nodeID int, to NodeState, msg string, from ...NodeState) error {
	return e.inTx(ctx, func(tx *schema.Store) ([]trigger.Request, error) {
		run, nodes, err := lockRun(ctx, tx, runID)
		if err != nil {
			return nil, err
		}
		for i := range nodes {
			nr := &nodes[i]
			if nr.NodeID != nodeID {
				continue
			}
			state := NodeState(nr.State)
			ok := false
			for _, f := range from {
				ok = ok || state == f
			}
			if !ok {
				return nil, fmt.Errorf("run %d node %d (%s) cannot become %s: %w", runID, nodeID, state, to, ErrState)
			}
			if state == NodeTriggered {
				if err := tx.PendingDeleteDecided(ctx, string(TriggerType), []int64{nr.ID}); err != nil {
					return nil, err
				}
			}
			if err := e.move(ctx, tx, nr, to, nr.Attempt, msg); err != nil {
				return nil, err
			}
			if RunState(run.State) != RunRunning {
				return nil, nil
			}
			return e.advance(ctx, tx, []int64{runID})
		}
		return nil, fmt.Errorf("run %d has no node %d: %w", runID, nodeID, schema.ErrNotFound)
	})
}

// lockRun locks one run and its node runs; ErrNotFound when it does not
// exist.
func lockRun(ctx context.Context, tx *schema.Store, runID int64) (schema.WorkflowRun, []schema.WorkflowNodeRun, error) {
	runs, err := lockRuns(ctx, tx, []int64{runID})
	if err != nil {
		return schema.WorkflowRun{}, nil, err
	}
	run, ok := runs[runID]
	if !ok {
		return run, nil, fmt.Errorf("workflow run %d: %w", runID, schema.ErrNotFound)
	}
	nodes, err := tx.WorkflowNodeRuns(ctx, []int64{runID}, true)
	return run, nodes, err
}
