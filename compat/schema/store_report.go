package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// ReportSave is xxl_job_log_report save.
func (s *Store) ReportSave(ctx context.Context, r LogReport) error {
	if _, err := s.exec(ctx, s.sb.Insert("xxl_job_log_report").
		Columns("trigger_day", "running_count", "suc_count", "fail_count").
		Values(s.dbTimePtr(r.TriggerDay), r.RunningCount, r.SucCount, r.FailCount)); err != nil {
		return fmt.Errorf("save report of %v: %w", r.TriggerDay, err)
	}
	return nil
}

// ReportUpdate is update by trigger_day; it returns the matched row count
// (0 tells the caller to insert, schema.md §3).
func (s *Store) ReportUpdate(ctx context.Context, r LogReport) (int64, error) {
	n, err := s.exec(ctx, s.sb.Update("xxl_job_log_report").
		Set("running_count", r.RunningCount).Set("suc_count", r.SucCount).Set("fail_count", r.FailCount).
		Where(sq.Eq{"trigger_day": s.dbTimePtr(r.TriggerDay)}))
	if err != nil {
		return 0, fmt.Errorf("update report of %v: %w", r.TriggerDay, err)
	}
	return n, nil
}

// ReportQuery is queryLogReport for trigger_day in [from, to], by day.
func (s *Store) ReportQuery(ctx context.Context, from, to time.Time) ([]LogReport, error) {
	out, err := selectAll(ctx, s, s.sb.Select("id", "trigger_day", "running_count", "suc_count", "fail_count").
		From("xxl_job_log_report").Where(sq.Expr("trigger_day BETWEEN ? AND ?", s.dbTime(from), s.dbTime(to))).
		OrderBy("trigger_day ASC"), func(sc scanner) (LogReport, error) {
		var r LogReport
		err := sc.Scan(&r.ID, s.scanTime(&r.TriggerDay), &r.RunningCount, &r.SucCount, &r.FailCount)
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("query reports: %w", err)
	}
	return out, nil
}

// ReportTotal is queryLogReportTotal over the whole table.
func (s *Store) ReportTotal(ctx context.Context) (ReportTotal, error) {
	var running, suc, fail *int64
	if err := s.queryRow(ctx, s.sb.Select("SUM(running_count)", "SUM(suc_count)", "SUM(fail_count)").
		From("xxl_job_log_report")).Scan(&running, &suc, &fail); err != nil {
		return ReportTotal{}, fmt.Errorf("report total: %w", err)
	}
	if running == nil || suc == nil || fail == nil {
		return ReportTotal{}, nil
	}
	return ReportTotal{Running: int(*running), Success: int(*suc), Fail: int(*fail), Valid: true}, nil
}
