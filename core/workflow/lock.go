package workflow

import (
	"context"
	"slices"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// lockRuns locks runs the one way every step does: their workflows' rows
// first, then the runs, each in id order. A start holds its workflow's
// row while it inserts its run's node runs; a step that ends a run takes
// that row to begin the run its workflow queued. Taking it first keeps
// the two from waiting on each other in a circle: on MySQL a step's
// locking read of node runs also locks the index gap a new run's node
// runs go into.
func lockRuns(ctx context.Context, tx *schema.Store, ids []int64) (map[int64]schema.WorkflowRun, error) {
	runs, err := tx.WorkflowRunsRead(ctx, ids)
	if err != nil {
		return nil, err
	}
	var workflows []int
	for _, r := range runs {
		workflows = append(workflows, r.WorkflowID)
	}
	slices.Sort(workflows)
	if err := tx.WorkflowLockMany(ctx, slices.Compact(workflows)); err != nil {
		return nil, err
	}
	return tx.WorkflowRunsLock(ctx, ids)
}
