package jobs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// LogExecutor is what reading and killing an execution needs of the
// executor client (*api.Client).
type LogExecutor interface {
	Log(ctx context.Context, address string, p api.LogParam) api.ReturnT[api.LogResult]
	Kill(ctx context.Context, address string, p api.KillParam) api.ReturnT[string]
}

// LogResults records a kill's result over a log (*thread.Completer).
type LogResults interface {
	Overwrite(ctx context.Context, l schema.JobLog) error
}

// ErrLogNotFound is a log id that names no log; it is an ErrNotFound.
var ErrLogNotFound = fmt.Errorf("log: %w", ErrNotFound)

// ExecutorError is an executor that refused a request or could not be
// reached: Msg is its message (or the client's), nil when it gave none.
type ExecutorError struct {
	Msg *string
}

func (e *ExecutorError) Error() string {
	if e.Msg == nil {
		return "executor failed"
	}
	return "executor failed: " + *e.Msg
}

// LogsConfig wires a Logs.
type LogsConfig struct {
	Store    *schema.Store
	Executor LogExecutor
	Results  LogResults
	Texts    Texts
	Now      func() time.Time // nil: time.Now
	Log      zerolog.Logger
}

// Logs reads an execution's log text from its executor and kills
// executions (console.md §6 logDetailCat and logKill), for the console and
// the job API alike.
type Logs struct {
	store   *schema.Store
	exec    LogExecutor
	results LogResults
	texts   Texts
	now     func() time.Time
	log     zerolog.Logger
}

// NewLogs returns the service.
func NewLogs(cfg LogsConfig) *Logs {
	l := &Logs{store: cfg.Store, exec: cfg.Executor, results: cfg.Results, texts: keyedTexts{cfg.Texts}, now: cfg.Now,
		log: cfg.Log.With().Str("component", "jobs").Logger()}
	if l.now == nil {
		l.now = time.Now
	}
	return l
}

// Load loads a log the caller may read: an unknown id is a Refusal wrapping
// ErrLogNotFound, a group the caller may not use ErrPermission (Java checks
// nothing here).
func (l *Logs) Load(ctx context.Context, id int64, may MayUseGroup) (schema.JobLog, error) {
	row, err := l.store.LogLoad(ctx, id)
	if errors.Is(err, schema.ErrNotFound) {
		return row, &Refusal{Msg: l.texts.Text("joblog_logid_unvalid"), Err: ErrLogNotFound}
	}
	if err != nil {
		return row, err
	}
	if may != nil && !may(row.JobGroup) {
		return row, ErrPermission
	}
	return row, nil
}

// Cat reads a log's execution output from line from on, from the executor
// that ran it. It answers the executor's ReturnT as received, with "end"
// forced once a finished log has no new lines (console.md §6); the text is
// raw — the console escapes it for HTML. A log without executor address
// (its trigger failed) is a Refusal wrapping ErrConflict.
func (l *Logs) Cat(ctx context.Context, id int64, from int, may MayUseGroup) (api.ReturnT[api.ConsoleLogResult], error) {
	row, err := l.Load(ctx, id, may)
	if err != nil {
		return api.ReturnT[api.ConsoleLogResult]{}, err
	}
	if row.ExecutorAddress == nil || strings.TrimSpace(*row.ExecutorAddress) == "" || row.TriggerTime == nil {
		// Java fails with a NullPointerException text here.
		return api.ReturnT[api.ConsoleLogResult]{}, &Refusal{Msg: l.texts.Text("joblog_rolling_log_triggerfail"), Err: ErrConflict}
	}
	res := api.ConsoleLog(l.exec.Log(ctx, *row.ExecutorAddress,
		api.LogParam{LogDateTim: row.TriggerTime.UnixMilli(), LogID: row.ID, FromLineNum: from}))
	if res.Content != nil && res.Content.FromLineNum > res.Content.ToLineNum && row.HandleCode > 0 {
		res.Content.End = true
	}
	return res, nil
}

// Kill asks the executor of a log to kill its job and, when it agrees,
// records the kill over the log's result (console.md §6 logKill); it
// returns the executor's message. Refusals: unknown log (ErrLogNotFound),
// unknown job (ErrNotFound), a log whose trigger failed (ErrConflict); an
// executor that refuses is an *ExecutorError. by names who asked, for the
// log line.
func (l *Logs) Kill(ctx context.Context, id int64, may MayUseGroup, by string) (*string, error) {
	row, err := l.Load(ctx, id, may)
	if err != nil {
		return nil, err
	}
	j, err := l.store.JobLoad(ctx, row.JobID)
	if errors.Is(err, schema.ErrNotFound) {
		return nil, &Refusal{Msg: l.texts.Text("jobinfo_glue_jobid_unvalid"), Err: ErrNotFound}
	}
	if err != nil {
		return nil, err
	}
	if row.TriggerCode != 200 {
		return nil, &Refusal{Msg: l.texts.Text("joblog_kill_log_limit"), Err: ErrConflict}
	}
	address := str(row.ExecutorAddress)
	res := l.exec.Kill(ctx, address, api.KillParam{JobID: j.ID})
	if !res.OK() {
		return nil, &ExecutorError{Msg: res.Msg}
	}
	msg := l.texts.Text("joblog_kill_log_byman") + ":" + str(res.Msg)
	now := l.now()
	row.HandleCode, row.HandleMsg, row.HandleTime = 500, &msg, &now
	if err := l.results.Overwrite(ctx, row); err != nil {
		return nil, err
	}
	l.log.Info().Int64("log_id", row.ID).Int("job_id", j.ID).Str("address", address).Str("username", by).Msg("job killed")
	return res.Msg, nil
}
