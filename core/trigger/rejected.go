package trigger

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// RecordRejected writes the log row of a trigger that never ran because a
// pool refused it: trigger_code 500 and a trigger_msg that names the
// reason, so the console shows it and the fail monitor alarms and retries
// it like any failed trigger. Java loses such triggers (scheduler.md §4
// overflow behaviour). It needs only the job row, keeping the extra load
// small while the admin is overloaded. A missing job writes nothing.
func (f *Flow) RecordRejected(ctx context.Context, req Request, reason string) error {
	job, err := f.store.JobLoad(ctx, req.JobID)
	if errors.Is(err, schema.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("record rejected trigger of job %d: %w", req.JobID, err)
	}
	param := job.ExecutorParam
	if req.ExecutorParam != nil {
		param = req.ExecutorParam
	}
	retry := req.FailRetryCount
	if retry < 0 {
		retry = job.ExecutorFailRetryCount
	}
	var sharding *string
	if req.ShardingParam != "" {
		sharding = &req.ShardingParam
	}
	now := f.now()
	id, err := f.writer.insert(ctx, schema.JobLog{JobGroup: job.JobGroup, JobID: job.ID, TriggerTime: &now})
	if err != nil {
		return fmt.Errorf("record rejected trigger of job %d: %w", req.JobID, err)
	}
	t := f.texts
	msg := t.Text("jobconf_trigger_type") + colon + t.Text(req.Type.TitleKey()) +
		"<br>" + t.Text("jobconf_trigger_admin_adress") + colon + f.admin +
		"<br>" + t.Text("jobinfo_field_executorFailRetryCount") + colon + strconv.Itoa(retry) +
		runHeaderOpen + t.Text("jobconf_trigger_run") + runHeaderClose + reason + "<br><br>"
	err = f.writer.update(ctx, schema.JobLog{
		ID: id, TriggerTime: &now, TriggerCode: api.CodeFail, TriggerMsg: schema.Ptr(clipBytes(msg, textColumnBytes)),
		ExecutorHandler: clipPtr(job.ExecutorHandler, 255), ExecutorParam: clipPtr(param, 512),
		ExecutorShardingParam: clipPtr(sharding, 20), ExecutorFailRetryCount: retry,
	})
	if err != nil {
		return fmt.Errorf("record rejected trigger of job %d: %w", req.JobID, err)
	}
	f.observe(req.Type, ResultRejected)
	return nil
}
