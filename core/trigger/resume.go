package trigger

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// ErrJobGone is returned by Resume when the trigger's job no longer exists.
var ErrJobGone = errors.New("job no longer exists")

// Resumption is a durable trigger whose log row an admin that stopped
// wrote (schema.PendingLogged or PendingSending) and whose result it did
// not store, now held by the caller under Request.Pending.
type Resumption struct {
	Request
	LogID int64
	// At is the log row's trigger time: the /run carries it again as
	// logDateTime (executors name the run's log file by its day).
	At time.Time
	// ShardIndex and ShardTotal are the row's shard.
	ShardIndex, ShardTotal int
	// Address is the executor the row was being sent to; "" when its /run
	// never left, and the row is routed as a new trigger would be.
	Address string
	// Answer, when set, is recorded as the executor's answer to the row's
	// /run without sending it: what the caller learnt another way (the
	// executor ran it, or cannot tell).
	Answer *api.ReturnT[string]
}

// Resume finishes a row another admin left: its /run is sent with the
// row's log id (to Address when set, routed anew otherwise) unless Answer
// is given, and the result is stored with trigger_msg written as for any
// trigger of its type, the pending row deleted in the same transaction.
// An executor that refuses the /run as a repeat of a log id in its queue
// holds the first /run: that counts as sent. It returns the answer stored
// (zero when the claim no longer held the row).
func (f *Flow) Resume(ctx context.Context, r Resumption) (api.ReturnT[string], error) {
	jobs, err := f.store.JobTriggerLoad(ctx, []int{r.JobID})
	if err != nil {
		return api.ReturnT[string]{}, fmt.Errorf("resume log %d: %w", r.LogID, err)
	}
	job, ok := jobs[r.JobID]
	if !ok {
		return api.ReturnT[string]{}, ErrJobGone
	}
	p := &plan{}
	if err := f.plan(ctx, r.Request, job, p); err != nil {
		return api.ReturnT[string]{}, fmt.Errorf("resume log %d: %w", r.LogID, err)
	}
	p.pending, p.fixed = r.Pending, r.Address
	fr := &firing{plan: p, shard: shard{index: r.ShardIndex, total: max(r.ShardTotal, 1)}, logID: r.LogID, at: r.At,
		pending: r.Pending, rec: &recovery{answer: r.Answer}}
	out := f.fire(ctx, fr)
	if out.abandoned {
		return api.ReturnT[string]{}, nil
	}
	if err := f.record(ctx, []outcome{out}); err != nil {
		return api.ReturnT[string]{}, fmt.Errorf("resume log %d: %w", r.LogID, err)
	}
	answer := api.ReturnT[string]{Code: out.code}
	return answer, nil
}

// ResumptionOf is the Resumption of a pending row held under claim, whose
// log row triggered at at.
func ResumptionOf(p schema.PendingTrigger, claim int64, at time.Time) Resumption {
	return Resumption{Request: Pending(p, claim), LogID: p.LogID, At: at, ShardIndex: p.ShardIndex,
		ShardTotal: p.ShardTotal, Address: p.ExecutorAddress}
}
