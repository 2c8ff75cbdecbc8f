package trigger

import (
	"context"
	"fmt"
	"strconv"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// rejection is a trigger a full pool refused, and why.
type rejection struct {
	req    Request
	reason string
}

// recordRejected writes the log rows of triggers that never ran because a
// pool refused them: trigger_code 500 and a trigger_msg that names the
// reason, so the console shows them and the fail monitor alarms and
// retries them like any failed trigger. Java loses such triggers
// (scheduler.md §4 overflow behaviour). It needs only the job rows, read
// in one statement, and writes all rows in two, keeping the extra load
// small while the admin is overloaded. Missing jobs write nothing.
func (f *Flow) recordRejected(ctx context.Context, rejs []rejection) error {
	ids := make([]int, len(rejs))
	for i, r := range rejs {
		ids[i] = r.req.JobID
	}
	jobs, err := f.store.JobTriggerLoad(ctx, ids)
	if err != nil {
		return fmt.Errorf("record %d rejected triggers: %w", len(rejs), err)
	}
	now := f.now()
	var rows []schema.JobLog
	var kept []rejection
	for _, r := range rejs {
		job, ok := jobs[r.req.JobID]
		if !ok {
			continue
		}
		param := job.ExecutorParam
		if r.req.ExecutorParam != nil {
			param = r.req.ExecutorParam
		}
		retry := r.req.FailRetryCount
		if retry < 0 {
			retry = job.ExecutorFailRetryCount
		}
		var sharding *string
		if r.req.ShardingParam != "" {
			sharding = &r.req.ShardingParam
		}
		rows = append(rows, schema.JobLog{
			JobGroup: job.JobGroup, JobID: job.ID, TriggerTime: &now, TriggerCode: api.CodeFail,
			TriggerMsg:      schema.Ptr(clipBytes(f.shortText(r.req.Type, retry, r.reason), textColumnBytes)),
			ExecutorHandler: clipPtr(job.ExecutorHandler, 255), ExecutorParam: f.clipParam(param),
			ExecutorShardingParam: clipPtr(sharding, 20), ExecutorFailRetryCount: retry,
		})
		kept = append(kept, r)
	}
	// The insert writes all but trigger_msg; the result update in the same
	// transaction adds it, so no row is ever seen without its reason.
	err = f.store.WithTx(ctx, func(tx *schema.Store) error {
		logIDs, err := tx.LogSaveMany(ctx, rows)
		if err != nil {
			return err
		}
		for i := range rows {
			rows[i].ID = logIDs[i]
		}
		return tx.LogTriggerResultMany(ctx, rows)
	})
	if err != nil {
		return fmt.Errorf("record %d rejected triggers: %w", len(rows), err)
	}
	for _, r := range kept {
		f.observe(r.req.Type, ResultRejected)
	}
	return nil
}

// shortText is the trigger_msg of a trigger that never reached an
// executor: its type, the admin, the retry count and the reason under the
// run header.
func (f *Flow) shortText(typ Type, retry int, reason string) string {
	t := f.texts
	return t.Text("jobconf_trigger_type") + colon + typ.Title(t) +
		"<br>" + t.Text("jobconf_trigger_admin_adress") + colon + f.admin +
		"<br>" + t.Text("jobinfo_field_executorFailRetryCount") + colon + strconv.Itoa(retry) +
		runHeaderOpen + t.Text("jobconf_trigger_run") + runHeaderClose + reason + "<br><br>"
}

// failed is the outcome of a prepared row that could not be fired (a
// panic in the flow): code 500 and the reason, so the row is finished.
func (f *Flow) failed(fr *firing, reason string) outcome {
	p := fr.plan
	row := f.logRow(p, &fr.at, fr.shard)
	row.ID, row.TriggerCode = fr.logID, api.CodeFail
	row.TriggerMsg = schema.Ptr(clipBytes(f.shortText(p.typ, p.failRetry, escapeText(reason)), textColumnBytes))
	return outcome{typ: p.typ, code: api.CodeFail, row: row, pending: fr.pending}
}
