package trigger

import (
	"context"
	"fmt"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// firing is one log row to fire: one shard of a prepared trigger, its row
// already written.
type firing struct {
	plan  *plan
	shard shard
	logID int64
	at    time.Time // trigger_time and logDateTime
	// pending is the claim of the row's pending row (0: not durable);
	// rec is set when the row is one another admin left (Resume).
	pending int64
	rec     *recovery
}

// prepare is the first stage of many triggers: their jobs reloaded in one
// statement (Java reloads the job when it fires, scheduler.md §5 step 1),
// each planned (group, route, shards), and the log rows of all their shards
// written in one statement, so every row exists before its /run
// (scheduler.md §5.1), with the columns of updateTriggerInfo known before
// the /run, so the result writes only what the /run decided
// (LogTriggerResultMany). A trigger whose job no longer exists is skipped
// with a warning, as in Java. A trigger planned for a later time gets that
// time as its trigger_time; the others get now.
func (f *Flow) prepare(ctx context.Context, reqs []Request) ([]*firing, error) {
	ids := make([]int, len(reqs))
	for i, r := range reqs {
		ids[i] = r.JobID
	}
	jobs, err := f.store.JobTriggerLoad(ctx, ids)
	if err != nil {
		return nil, err
	}
	now := f.now()
	// The plans and rows of the batch in one block each, not one
	// allocation per trigger.
	plans := make([]plan, 0, len(reqs))
	ats := make([]time.Time, 0, len(reqs))
	n := 0
	var missing []int
	var gone []int64 // claims of durable triggers whose jobs are gone
	for _, req := range reqs {
		job, ok := jobs[req.JobID]
		if !ok {
			missing = append(missing, req.JobID)
			if req.Pending != 0 {
				gone = append(gone, req.Pending)
			}
			continue
		}
		plans = plans[:len(plans)+1]
		p := &plans[len(plans)-1]
		if err := f.plan(ctx, req, job, p); err != nil {
			return nil, fmt.Errorf("job %d: %w", req.JobID, err)
		}
		p.pending = req.Pending
		at := now
		if req.At.After(now) {
			at = req.At
		}
		ats = append(ats, at)
		n += p.shardCount()
	}
	block := make([]firing, n)
	fired := make([]*firing, n)
	rows := make([]schema.JobLog, n)
	k := 0
	for i := range plans {
		p := &plans[i]
		for s := range p.shardCount() {
			sh := p.shard(s)
			fr := &block[k]
			*fr = firing{plan: p, shard: sh, at: ats[i]}
			fired[k], rows[k] = fr, f.logRow(p, &fr.at, sh)
			k++
		}
	}
	if len(missing) > 0 {
		f.log.Warn().Ints("job_ids", missing[:min(len(missing), 10)]).Int("count", len(missing)).
			Msg("trigger skipped: job not found")
	}
	fired, logIDs, err := f.saveLogs(ctx, fired, rows, gone)
	if err != nil {
		return nil, err
	}
	f.stats.add(len(rows), statementsFor(len(rows)))
	for i, id := range logIDs {
		fired[i].logID = id
	}
	return fired, nil
}

// logRow is the part of a trigger's log row known before its /run: the
// job, the time, and updateTriggerInfo's executor columns (clipped to
// their column sizes; the param as the generation's column holds it).
func (f *Flow) logRow(p *plan, at *time.Time, sh shard) schema.JobLog {
	var sharding *string
	if p.broadcast {
		sharding = schema.Ptr(sh.text())
	}
	return schema.JobLog{
		JobGroup:               p.job.JobGroup,
		JobID:                  p.job.ID,
		TriggerTime:            at,
		ExecutorHandler:        clipPtr(p.job.ExecutorHandler, 255),
		ExecutorParam:          f.clipParam(p.param),
		ExecutorShardingParam:  clipPtr(sharding, 20),
		ExecutorFailRetryCount: p.failRetry,
	}
}
