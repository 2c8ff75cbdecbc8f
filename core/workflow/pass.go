package workflow

import (
	"context"
	"fmt"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// passBatch is how many runs a pass reads at once.
const passBatch = 100

// Start runs a pass at once and then every interval.
func (e *Engine) Start(ctx context.Context) error {
	return e.StartLoop(ctx, "workflow pass", e.log, e.cfg.Interval, time.Minute, e.Pass, e.passDone)
}

// Pass looks at every running run once and takes the steps the callback
// hook did not (or could not) take: results of node logs the hook skipped
// or another admin's callback stored without it, triggers that failed
// before any executor ran them (no callback comes for those), log rows
// deleted meanwhile, node triggers dropped because their job was deleted,
// and nodes whose rules can decide; then it starts the workflows whose
// parent job succeeded without our hook (parent.go). Any admin of ours runs it, so a run
// whose admin died goes on.
func (e *Engine) Pass(ctx context.Context) error {
	var after int64
	seen := false
	running := 0
	for {
		runs, err := e.cfg.Store.WorkflowRunsIn(ctx, after, passBatch, string(RunRunning))
		if err != nil {
			return err
		}
		if len(runs) == 0 {
			break
		}
		seen = true
		running += len(runs)
		after = runs[len(runs)-1].ID
		if err := e.passRuns(ctx, runs); err != nil {
			if !schema.IsConflict(err) {
				return err
			}
			// Another admin's step on the same runs won: the next pass
			// reads what it did.
			e.log.Debug().Err(err).Msg("workflow pass lost a race; the next pass goes on")
		}
	}
	e.active.Store(seen)
	e.cfg.Observe.RunsInFlight(running)
	return e.passParents(ctx)
}

func (e *Engine) passRuns(ctx context.Context, runs []schema.WorkflowRun) error {
	s := e.cfg.Store
	ids := make([]int64, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	nodes, err := s.WorkflowNodeRuns(ctx, ids, false)
	if err != nil {
		return err
	}
	var triggered []schema.WorkflowNodeRun
	var triggeredIDs []int64
	for _, n := range nodes {
		if NodeState(n.State) == NodeTriggered {
			triggered = append(triggered, n)
			triggeredIDs = append(triggeredIDs, n.ID)
		}
	}
	open, err := s.WorkflowNodeLogsOpen(ctx, triggeredIDs)
	if err != nil {
		return err
	}
	var results []logResult
	for _, o := range open {
		switch {
		case o.Missing:
			results = append(results, logResult{logID: o.LogID, code: 500})
		case o.HandleCode != 0:
			results = append(results, logResult{logID: o.LogID, code: o.HandleCode})
		case o.TriggerCode != 0 && o.TriggerCode != 200:
			results = append(results, logResult{logID: o.LogID, code: o.TriggerCode})
		}
	}
	if len(results) > 0 {
		if err := e.inTx(ctx, func(tx *schema.Store) ([]trigger.Request, error) { return e.settle(ctx, tx, results) }); err != nil {
			return err
		}
	}
	if err := e.passDropped(ctx, triggered); err != nil {
		return err
	}
	// Whatever else the rules can decide (after an operator's action, or
	// a step of an older admin): only those runs are locked.
	stuck := e.decidable(runs, nodes)
	if len(stuck) == 0 {
		return nil
	}
	return e.inTx(ctx, func(tx *schema.Store) ([]trigger.Request, error) { return e.advance(ctx, tx, stuck) })
}

// decidable lists the runs, read without locks, that advance would change:
// a waiting node whose rule decides, or every node final.
func (e *Engine) decidable(runs []schema.WorkflowRun, nodes []schema.WorkflowNodeRun) []int64 {
	byRun := map[int64]map[int]NodeState{}
	for _, n := range nodes {
		if byRun[n.RunID] == nil {
			byRun[n.RunID] = map[int]NodeState{}
		}
		byRun[n.RunID][n.NodeID] = NodeState(n.State)
	}
	var out []int64
	for _, r := range runs {
		pl, err := e.plans.of(r)
		if err != nil {
			continue
		}
		ix := pl.ix
		states := byRun[r.ID]
		all := true
		for _, n := range pl.graph.Nodes {
			s := states[n.ID]
			if s.Final() {
				continue
			}
			all = false
			if s != NodeWaiting {
				continue
			}
			parents := make([]NodeState, 0, len(ix.parents[n.ID]))
			for _, p := range ix.parents[n.ID] {
				parents = append(parents, states[p])
			}
			if n.Rule.Decide(parents) != Wait {
				all = true // decidable: take it
				break
			}
		}
		if all {
			out = append(out, r.ID)
		}
	}
	return out
}

// passDropped fails the attempts whose triggers were dropped: no log row
// of the attempt and no pending row (the flow drops the pending row of a
// job deleted since the decision). The pending row is looked for first:
// the flow writes an attempt's log rows while its pending row exists, so
// when there is no pending row, log rows seen afterwards are all there
// will ever be.
func (e *Engine) passDropped(ctx context.Context, triggered []schema.WorkflowNodeRun) error {
	s := e.cfg.Store
	ids := make([]int64, len(triggered))
	for i, nr := range triggered {
		ids[i] = nr.ID
	}
	seen, err := s.WorkflowNodeLogsOfRuns(ctx, ids, false)
	if err != nil {
		return err
	}
	has := map[[2]int64]bool{}
	for _, l := range seen {
		has[[2]int64{l.NodeRunID, int64(l.Attempt)}] = true
	}
	for _, nr := range triggered {
		if has[[2]int64{nr.ID, int64(nr.Attempt)}] {
			continue
		}
		pending, err := s.PendingDecisionExists(ctx, string(TriggerType), nr.ID, nr.Attempt)
		if err != nil {
			return err
		}
		if pending {
			continue
		}
		logs, err := s.WorkflowNodeLogsOfRuns(ctx, []int64{nr.ID}, false)
		if err != nil {
			return err
		}
		if hasAttempt(logs, nr.Attempt) {
			continue
		}
		err = e.inTx(ctx, func(tx *schema.Store) ([]trigger.Request, error) {
			if _, err := lockRuns(ctx, tx, []int64{nr.RunID}); err != nil {
				return nil, err
			}
			now, err := tx.WorkflowNodeRuns(ctx, []int64{nr.RunID}, true)
			if err != nil {
				return nil, err
			}
			for i := range now {
				if n := &now[i]; n.ID == nr.ID && n.State == nr.State && n.Attempt == nr.Attempt {
					msg := fmt.Sprintf("its trigger was dropped before a log row was written (job %d deleted?)", nr.JobID)
					if err := e.move(ctx, tx, n, NodeFailed, n.Attempt, msg); err != nil {
						return nil, err
					}
				}
			}
			return e.advance(ctx, tx, []int64{nr.RunID})
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func hasAttempt(logs []schema.WorkflowNodeLog, attempt int) bool {
	for _, l := range logs {
		if l.Attempt == attempt {
			return true
		}
	}
	return false
}

// inTx runs fn in a transaction and submits its triggers after the commit.
func (e *Engine) inTx(ctx context.Context, fn func(tx *schema.Store) ([]trigger.Request, error)) error {
	var reqs []trigger.Request
	err := e.cfg.Store.WithTx(ctx, func(tx *schema.Store) error {
		var err error
		reqs, err = fn(tx)
		return err
	})
	if err != nil {
		return err
	}
	e.submit(reqs)
	return nil
}
