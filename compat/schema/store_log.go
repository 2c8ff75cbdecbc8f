package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

var logColumns = []string{"id", "job_group", "job_id", "executor_address", "executor_handler", "executor_param",
	"executor_sharding_param", "executor_fail_retry_count", "trigger_time", "trigger_code", "trigger_msg",
	"handle_time", "handle_code", "handle_msg", "alarm_status"}

func (s *Store) scanLog(sc scanner) (JobLog, error) {
	var l JobLog
	err := sc.Scan(&l.ID, &l.JobGroup, &l.JobID, &l.ExecutorAddress, &l.ExecutorHandler, &l.ExecutorParam,
		&l.ExecutorShardingParam, &l.ExecutorFailRetryCount, s.scanTime(&l.TriggerTime), &l.TriggerCode,
		&l.TriggerMsg, s.scanTime(&l.HandleTime), &l.HandleCode, &l.HandleMsg, &l.AlarmStatus)
	return l, err
}

func (s *Store) logs(ctx context.Context, b sq.SelectBuilder) ([]JobLog, error) {
	return selectAll(ctx, s, b, s.scanLog)
}

func (s *Store) ids(ctx context.Context, b sq.SelectBuilder) ([]int64, error) {
	return selectAll(ctx, s, b, scanValue[int64])
}

// LogLoad is load; ErrNotFound when absent.
func (s *Store) LogLoad(ctx context.Context, id int64) (JobLog, error) {
	l, err := s.scanLog(s.queryRow(ctx, s.sb.Select(logColumns...).From("xxl_job_log").Where(sq.Eq{"id": id})))
	if err != nil {
		return JobLog{}, notFound(err, fmt.Sprintf("load log %d", id))
	}
	return l, nil
}

// LogSave is save: the row every trigger starts with (codes supplied, 0 by
// the trigger flow, because the columns have no default).
func (s *Store) LogSave(ctx context.Context, l JobLog) (int64, error) {
	id, err := s.d.insertID(ctx, s.q, s.sb.Insert("xxl_job_log").
		Columns("job_group", "job_id", "trigger_time", "trigger_code", "handle_code").
		Values(l.JobGroup, l.JobID, s.dbTimePtr(l.TriggerTime), l.TriggerCode, l.HandleCode))
	if err != nil {
		return 0, fmt.Errorf("save log of job %d: %w", l.JobID, err)
	}
	return id, nil
}

// LogUpdateTriggerInfo is updateTriggerInfo.
func (s *Store) LogUpdateTriggerInfo(ctx context.Context, l JobLog) error {
	return s.LogUpdateTriggerInfoMany(ctx, []JobLog{l})
}

// LogUpdateHandleInfo is updateHandleInfo.
func (s *Store) LogUpdateHandleInfo(ctx context.Context, l JobLog) error {
	if _, err := s.exec(ctx, s.sb.Update("xxl_job_log").
		Set("handle_time", s.dbTimePtr(l.HandleTime)).Set("handle_code", l.HandleCode).
		Set("handle_msg", l.HandleMsg).Where(sq.Eq{"id": l.ID})); err != nil {
		return fmt.Errorf("update handle info of log %d: %w", l.ID, err)
	}
	return nil
}

// LogDeleteByJob is delete(jobId): all logs of a job.
func (s *Store) LogDeleteByJob(ctx context.Context, jobID int) (int64, error) {
	n, err := s.exec(ctx, s.sb.Delete("xxl_job_log").Where(sq.Eq{"job_id": jobID}))
	if err != nil {
		return 0, fmt.Errorf("delete logs of job %d: %w", jobID, err)
	}
	return n, nil
}

// LogCountsBetween is findLogReport for trigger_time in [from, to].
func (s *Store) LogCountsBetween(ctx context.Context, from, to time.Time) (LogCounts, error) {
	var c LogCounts
	var running, suc *int64
	err := s.queryRow(ctx, s.sb.Select("COUNT(handle_code)",
		"SUM(CASE WHEN (trigger_code IN (0, 200) AND handle_code = 0) THEN 1 ELSE 0 END)",
		"SUM(CASE WHEN handle_code = 200 THEN 1 ELSE 0 END)").From("xxl_job_log").
		Where(sq.Expr("trigger_time BETWEEN ? AND ?", s.dbTime(from), s.dbTime(to)))).Scan(&c.Total, &running, &suc)
	if err != nil {
		return LogCounts{}, fmt.Errorf("count logs between %s and %s: %w", from, to, err)
	}
	if running != nil {
		c.Running = int(*running)
	}
	if suc != nil {
		c.Success = int(*suc)
	}
	return c, nil
}

// ClearFilter holds findClearLogIds' conditions.
type ClearFilter struct {
	JobGroup    int        // > 0 to filter
	JobID       int        // > 0 to filter
	Before      *time.Time // trigger_time <= Before
	KeepNewestN int        // > 0: keep the newest N logs of the filter
}

// LogFindClearIDs is findClearLogIds: up to size ids to delete, oldest id first.
func (s *Store) LogFindClearIDs(ctx context.Context, f ClearFilter, size int) ([]int64, error) {
	scope := func(b sq.SelectBuilder) sq.SelectBuilder {
		if f.JobGroup > 0 {
			b = b.Where(sq.Eq{"job_group": f.JobGroup})
		}
		if f.JobID > 0 {
			b = b.Where(sq.Eq{"job_id": f.JobID})
		}
		return b
	}
	b := scope(s.sb.Select("id").From("xxl_job_log"))
	if f.Before != nil {
		b = b.Where(sq.LtOrEq{"trigger_time": s.dbTime(*f.Before)})
	}
	if f.KeepNewestN > 0 {
		// The derived table works around MySQL's "no LIMIT in IN subquery".
		keep := page(scope(s.sb.Select("id").From("xxl_job_log t")).OrderBy("t.trigger_time DESC"), 0, f.KeepNewestN)
		keepSQL, keepArgs, err := keep.ToSql()
		if err != nil {
			return nil, err
		}
		b = b.Where(sq.Expr("id NOT IN (SELECT id FROM ("+keepSQL+") t1)", keepArgs...))
	}
	ids, err := s.ids(ctx, page(b.OrderBy("id ASC"), 0, size))
	if err != nil {
		return nil, fmt.Errorf("find logs to clear: %w", err)
	}
	return ids, nil
}

// LogClear is clearLog: delete the given ids.
func (s *Store) LogClear(ctx context.Context, ids []int64) (int64, error) {
	var total int64
	err := inChunks(ids, func(chunk []int64) error {
		n, err := s.exec(ctx, s.sb.Delete("xxl_job_log").Where(sq.Eq{"id": chunk}))
		total += n
		return err
	})
	if err != nil {
		return total, fmt.Errorf("clear %d logs: %w", len(ids), err)
	}
	return total, nil
}

// LogFindFailIDs is findFailJobLogIds: failed logs not yet alarmed.
func (s *Store) LogFindFailIDs(ctx context.Context, size int) ([]int64, error) {
	ids, err := s.ids(ctx, page(s.sb.Select("id").From("xxl_job_log").
		Where("NOT ((trigger_code IN (0, 200) AND handle_code = 0) OR (handle_code = 200))").
		Where(sq.Eq{"alarm_status": 0}).OrderBy("id ASC"), 0, size))
	if err != nil {
		return nil, fmt.Errorf("find failed logs: %w", err)
	}
	return ids, nil
}

// LogUpdateAlarmStatus is updateAlarmStatus, a compare-and-set: it reports
// whether this caller moved the row from old to new (the cluster-wide claim).
func (s *Store) LogUpdateAlarmStatus(ctx context.Context, id int64, old, new int) (bool, error) {
	n, err := s.exec(ctx, s.sb.Update("xxl_job_log").Set("alarm_status", new).
		Where(sq.Eq{"id": id, "alarm_status": old}))
	if err != nil {
		return false, fmt.Errorf("set alarm status of log %d from %d to %d: %w", id, old, new, err)
	}
	return n > 0, nil
}

// LogFindLostIDs is findLostJobIds: running logs triggered at or before
// lostBefore whose executor address is no longer registered.
func (s *Store) LogFindLostIDs(ctx context.Context, lostBefore time.Time) ([]int64, error) {
	ids, err := s.ids(ctx, s.sb.Select("t.id").From("xxl_job_log t").
		LeftJoin("xxl_job_registry t2 ON t.executor_address = t2.registry_value").
		Where(sq.Eq{"t.trigger_code": 200, "t.handle_code": 0}).
		Where(sq.LtOrEq{"t.trigger_time": s.dbTime(lostBefore)}).
		Where("t2.id IS NULL"))
	if err != nil {
		return nil, fmt.Errorf("find lost logs: %w", err)
	}
	return ids, nil
}

// LogLoadMany loads the given logs in one statement (a callback POST carries
// many results); ids that do not exist are absent from the map.
func (s *Store) LogLoadMany(ctx context.Context, ids []int64) (map[int64]JobLog, error) {
	out := make(map[int64]JobLog, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	err := inChunks(ids, func(chunk []int64) error {
		logs, err := s.logs(ctx, s.sb.Select(logColumns...).From("xxl_job_log").Where(sq.Eq{"id": chunk}))
		for _, l := range logs {
			out[l.ID] = l
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load %d logs: %w", len(ids), err)
	}
	return out, nil
}

// LogFinish writes the handle result only while the row is still open
// (handle_code <= 0), and reports whether this caller wrote it. It is the
// compare-and-set form of updateHandleInfo: of two deliveries of the same
// callback racing each other (the executor re-sends after a timeout), only
// one finishes the log and fires its child jobs.
func (s *Store) LogFinish(ctx context.Context, l JobLog) (bool, error) {
	n, err := s.exec(ctx, s.sb.Update("xxl_job_log").
		Set("handle_time", s.dbTimePtr(l.HandleTime)).Set("handle_code", l.HandleCode).
		Set("handle_msg", l.HandleMsg).
		Where(sq.Eq{"id": l.ID}).Where(sq.LtOrEq{"handle_code": 0}))
	if err != nil {
		return false, fmt.Errorf("finish log %d: %w", l.ID, err)
	}
	return n > 0, nil
}

// AlarmClaim is a failed log held in a transient alarm state.
type AlarmClaim struct {
	ID          int64
	AlarmStatus int
}

// LogFindAlarmClaims lists failed logs whose alarm_status is one of the
// given transient values (-1 claimed, -2 sending), oldest id first. It has
// the shape of findFailJobLogIds so it costs what that query costs.
func (s *Store) LogFindAlarmClaims(ctx context.Context, statuses []int, size int) ([]AlarmClaim, error) {
	out, err := selectAll(ctx, s, page(s.sb.Select("id", "alarm_status").From("xxl_job_log").
		Where("NOT ((trigger_code IN (0, 200) AND handle_code = 0) OR (handle_code = 200))").
		Where(sq.Eq{"alarm_status": statuses}).OrderBy("id ASC"), 0, size), func(sc scanner) (AlarmClaim, error) {
		var c AlarmClaim
		err := sc.Scan(&c.ID, &c.AlarmStatus)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("find claimed alarms: %w", err)
	}
	return out, nil
}
