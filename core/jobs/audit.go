package jobs

import (
	"context"
	"strconv"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/loglimit"
)

// The audit actions: the "type" of the 3.4.2 admin's operation log lines
// (XxlJobServiceImpl add/update/remove/start/stop/trigger and
// JobCodeController save, from 3.3.0 on).
const (
	ActionJobSave    = "jobinfo-save"
	ActionJobUpdate  = "jobinfo-update"
	ActionJobRemove  = "jobinfo-remove"
	ActionJobStart   = "jobinfo-start"
	ActionJobStop    = "jobinfo-stop"
	ActionJobTrigger = "jobinfo-trigger"
	ActionGlueUpdate = "jobcode-update"
)

// auditPrefix starts every audit line's message, as in the Java admin's
// ">>>>>>>>>>> xxl-job operation log: operator = …, type = …, content = …",
// so one grep finds the lines of both.
const auditPrefix = "xxl-job operation log: "

// unknownOperator is logged when the caller did not name one.
const unknownOperator = "(unknown)"

type operatorKey struct{}

// WithOperator names who makes the changes done with ctx (the console's
// signed-in user, the job API's user) for the audit lines. Callers set it
// once per request.
func WithOperator(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, operatorKey{}, name)
}

// OperatorOf is the name WithOperator gave ctx, or "(unknown)".
func OperatorOf(ctx context.Context) string {
	if name, ok := ctx.Value(operatorKey{}).(string); ok && name != "" {
		return name
	}
	return unknownOperator
}

// AuditTrigger writes the audit line of a "run once" trigger (3.4.2:
// XxlJobServiceImpl.trigger, after the trigger is queued); the console and
// the job API call it once they queued the trigger.
func (s *Service) AuditTrigger(ctx context.Context, jobID int) {
	s.audit(ctx, ActionJobTrigger, jobID, nil)
}

// audit writes one operation line at info level: the message Java writes
// (with the job id as its content), and the same facts as fields — user,
// action, job_id — plus what changed, where detail adds it. Java's content
// for a save or update is the whole job as JSON; the fields here are the
// job's main columns, and a GLUE save's source is cut (loglimit.Cut).
func (s *Service) audit(ctx context.Context, action string, jobID int, detail func(e *zerolog.Event)) {
	op := OperatorOf(ctx)
	e := s.log.Info().Str("user", op).Str("action", action).Int("job_id", jobID)
	if detail != nil {
		detail(e)
	}
	e.Msg(auditPrefix + "operator = " + op + ", type = " + action + ", content = " + strconv.Itoa(jobID))
}

// jobDetail adds a job's main columns, named as in Java's JSON.
func jobDetail(j schema.JobInfo) func(e *zerolog.Event) {
	return func(e *zerolog.Event) {
		e.Dict("job", zerolog.Dict().
			Int("jobGroup", j.JobGroup).Str("jobDesc", loglimit.Cut(j.JobDesc)).Str("author", str(j.Author)).
			Str("scheduleType", j.ScheduleType).Str("scheduleConf", str(j.ScheduleConf)).
			Str("glueType", j.GlueType).Str("executorHandler", str(j.ExecutorHandler)).
			Str("executorParam", loglimit.Cut(str(j.ExecutorParam))).Str("executorRouteStrategy", str(j.ExecutorRouteStrategy)).
			Str("childJobId", str(j.ChildJobID)).Int("executorFailRetryCount", j.ExecutorFailRetryCount).
			Int("triggerStatus", j.TriggerStatus))
	}
}

// auditApplied writes the line of an apply that created or changed a job.
func (s *Service) auditApplied(ctx context.Context, a Applied) {
	switch a.Outcome {
	case Created:
		s.audit(ctx, ActionJobSave, a.ID, nil)
	case Updated:
		s.audit(ctx, ActionJobUpdate, a.ID, func(e *zerolog.Event) { e.Strs("changed", a.Changed) })
	}
}
