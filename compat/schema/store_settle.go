package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// LogFindUnsettled lists up to size log rows left without any result —
// trigger_code 0 and handle_code 0, written before their /run and never
// finished — triggered at or before triggeredBefore, oldest id first,
// leaving out the rows a pending trigger still covers (their admin, or
// the sweeper that takes them over, finishes those). It walks the
// handle_code index as the lost-job query does: rows still open are few
// in a table of finished ones. The pending table has no index on log_id;
// it holds only the triggers in flight.
func (s *Store) LogFindUnsettled(ctx context.Context, triggeredBefore time.Time, size int) ([]JobLog, error) {
	cols := make([]string, len(logColumns))
	for i, c := range logColumns {
		cols[i] = "t." + c
	}
	rows, err := s.logs(ctx, page(s.sb.Select(cols...).From("xxl_job_log t").
		Where(sq.Eq{"t.trigger_code": 0, "t.handle_code": 0}).
		Where(sq.LtOrEq{"t.trigger_time": s.dbTime(triggeredBefore)}).
		Where("NOT EXISTS (SELECT 1 FROM "+PendingTable+" p WHERE p.log_id = t.id)").
		OrderBy("t.id ASC"), 0, size))
	if err != nil {
		return nil, fmt.Errorf("find log rows left without a result: %w", err)
	}
	return rows, nil
}

// LogSettle writes a row's settlement — executor address, trigger code
// and message, handle time, code and message, alarm status and retry
// count from l — only while the row is still without any result
// (trigger_code 0 and handle_code 0), and reports whether this caller
// wrote it: the compare-and-set that lets one admin of several settle a
// row, and none settle a row its trigger or callback finished meanwhile.
// Call it in the transaction that stores what the settlement decides.
func (s *Store) LogSettle(ctx context.Context, l JobLog) (bool, error) {
	n, err := s.exec(ctx, s.sb.Update("xxl_job_log").
		Set("executor_address", l.ExecutorAddress).Set("trigger_code", l.TriggerCode).Set("trigger_msg", l.TriggerMsg).
		Set("handle_time", s.dbTimePtr(l.HandleTime)).Set("handle_code", l.HandleCode).Set("handle_msg", l.HandleMsg).
		Set("alarm_status", l.AlarmStatus).Set("executor_fail_retry_count", l.ExecutorFailRetryCount).
		Where(sq.Eq{"id": l.ID, "trigger_code": 0, "handle_code": 0}))
	if err != nil {
		return false, fmt.Errorf("settle log %d: %w", l.ID, err)
	}
	return n > 0, nil
}
