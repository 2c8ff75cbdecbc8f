package workflow

import (
	"context"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// Finished is thread.FinishHook: the completer calls it with the logs it
// finished, inside the transaction that stores their results, so a
// node's outcome and the triggers of the nodes after it commit with the
// result itself, or not at all; so does the start of a workflow whose
// parent job's log succeeded (parent.go). The completer submits the
// returned triggers after the commit.
func (e *Engine) Finished(ctx context.Context, tx *schema.Store, logs []schema.JobLog) ([]trigger.Request, error) {
	if len(logs) == 0 {
		return nil, nil
	}
	// Parents first: their workflows' rows are locked in id order before
	// settle locks its own (see lockRuns).
	reqs, err := e.startAfterParents(ctx, tx, logs)
	if err != nil || !e.active.Load() {
		return reqs, err
	}
	results := make([]logResult, len(logs))
	for i, l := range logs {
		results[i] = logResult{logID: l.ID, code: l.HandleCode}
	}
	more, err := e.settle(ctx, tx, results)
	return append(reqs, more...), err
}

// PendingLogged is trigger.PendingHook: the trigger flow calls it with
// the pending rows that just got their log rows, inside the transaction
// that writes them; the rows of node triggers record which node run and
// attempt each log row belongs to.
func (e *Engine) PendingLogged(ctx context.Context, tx *schema.Store, rows []schema.PendingTrigger) error {
	var logs []schema.WorkflowNodeLog
	for _, p := range rows {
		if p.Kind == string(TriggerType) && p.LogID != 0 {
			if p.ShardIndex == 0 && !p.DecidedAt.IsZero() {
				e.cfg.Observe.NodeLateness(e.cfg.Now().Sub(p.DecidedAt))
			}
			logs = append(logs, schema.WorkflowNodeLog{LogID: p.LogID, NodeRunID: p.SourceLogID, Attempt: p.Seq,
				ShardIndex: p.ShardIndex, ShardTotal: max(p.ShardTotal, 1)})
		}
	}
	if len(logs) == 0 {
		return nil
	}
	e.active.Store(true) // their callbacks may come here
	return tx.WorkflowNodeLogsAdd(ctx, logs)
}
