package workflow

import (
	"context"
	"fmt"
	"slices"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// logResult is a node log's outcome: its handle code, or its trigger code
// when its trigger failed before any executor ran it.
type logResult struct {
	logID int64
	code  int
}

// settle records the results of logs in tx; the logs of no workflow are
// ignored. A node run whose current attempt has all its results (one per
// shard) succeeds when all are 200; otherwise it is triggered again while
// its job's retries allow, and fails after. The runs of the nodes that
// moved then advance. Each log's result counts once (a compare-and-set),
// and every step is taken with the node's run locked, so an admin that
// learns the same result, or the other shards', at the same moment
// changes nothing.
func (e *Engine) settle(ctx context.Context, tx *schema.Store, results []logResult) ([]trigger.Request, error) {
	ids := make([]int64, len(results))
	for i, r := range results {
		ids[i] = r.logID
	}
	nodeLogs, err := tx.WorkflowNodeLogsOf(ctx, ids)
	if err != nil || len(nodeLogs) == 0 {
		return nil, err
	}
	var nodeRunIDs []int64
	for _, nl := range nodeLogs {
		nodeRunIDs = append(nodeRunIDs, nl.NodeRunID)
	}
	unlocked, err := tx.WorkflowNodeRunsByID(ctx, nodeRunIDs)
	if err != nil {
		return nil, err
	}
	var runIDs []int64
	for _, n := range unlocked {
		runIDs = append(runIDs, n.RunID)
	}
	slices.Sort(runIDs)
	runIDs = slices.Compact(runIDs)
	runs, err := lockRuns(ctx, tx, runIDs)
	if err != nil {
		return nil, err
	}
	touched := map[int64]bool{}
	for _, r := range results {
		nl, ok := nodeLogs[r.logID]
		if !ok {
			continue
		}
		code := r.code
		if code == 0 {
			code = 500 // a result must differ from "none"
		}
		won, err := tx.WorkflowNodeLogResult(ctx, r.logID, code)
		if err != nil {
			return nil, err
		}
		if won {
			touched[nl.NodeRunID] = true
		}
	}
	if len(touched) == 0 {
		return nil, nil
	}
	nodes, err := tx.WorkflowNodeRuns(ctx, runIDs, true)
	if err != nil {
		return nil, err
	}
	var touchedIDs []int64
	for id := range touched {
		touchedIDs = append(touchedIDs, id)
	}
	// The log rows of an attempt are all written before any of them is
	// sent, so an unlocked read finds them all; their results are read
	// again locked, as last committed (another admin's, of another shard,
	// committed while this one waited for the run).
	seen, err := tx.WorkflowNodeLogsOfRuns(ctx, touchedIDs, false)
	if err != nil {
		return nil, err
	}
	logIDs := make([]int64, len(seen))
	for i, l := range seen {
		logIDs[i] = l.LogID
	}
	logs, err := tx.WorkflowNodeLogsLock(ctx, logIDs)
	if err != nil {
		return nil, err
	}
	var reqs []trigger.Request
	for i := range nodes {
		nr := &nodes[i]
		if !touched[nr.ID] || NodeState(nr.State) != NodeTriggered || RunState(runs[nr.RunID].State) != RunRunning {
			continue
		}
		req, err := e.conclude(ctx, tx, runs[nr.RunID], nr, logs)
		if err != nil {
			return nil, fmt.Errorf("workflow run %d node %d: %w", nr.RunID, nr.NodeID, err)
		}
		if req != nil {
			reqs = append(reqs, *req)
		}
	}
	// The runs and their nodes are locked and read (and moved in place).
	more, err := e.advanceLocked(ctx, tx, runs, runIDs, nodes)
	return append(reqs, more...), err
}

// conclude ends a node run's attempt when all its logs have results.
func (e *Engine) conclude(ctx context.Context, tx *schema.Store, run schema.WorkflowRun, nr *schema.WorkflowNodeRun, logs []schema.WorkflowNodeLog) (*trigger.Request, error) {
	var mine []schema.WorkflowNodeLog
	for _, l := range logs {
		if l.NodeRunID == nr.ID && l.Attempt == nr.Attempt {
			mine = append(mine, l)
		}
	}
	if len(mine) == 0 {
		return nil, nil
	}
	var failed *schema.WorkflowNodeLog
	for i, l := range mine {
		if l.Result == 0 {
			return nil, nil // another shard is still running
		}
		if l.Result != 200 && failed == nil {
			failed = &mine[i]
		}
	}
	if len(mine) < mine[0].ShardTotal {
		return nil, nil
	}
	nr.LogID = mine[0].LogID
	if failed == nil {
		return nil, e.move(ctx, tx, nr, NodeSucceeded, nr.Attempt, "")
	}
	if nr.Attempt <= nr.Retries {
		pl, err := e.plans.of(run)
		if err != nil {
			return nil, err
		}
		n := pl.ix.nodes[nr.NodeID]
		vars, err := e.varsOf(ctx, tx, run)
		if err != nil {
			return nil, err
		}
		return e.decide(ctx, tx, vars, n, nr, nr.Attempt+1)
	}
	return nil, e.move(ctx, tx, nr, NodeFailed, nr.Attempt, fmt.Sprintf("log %d ended with code %d", failed.LogID, failed.Result))
}
