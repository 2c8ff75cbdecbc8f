package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// LogState is what the monitors need of one xxl_job_log row to tell
// whether it is failed, still running, being alarmed or settled.
type LogState struct {
	ID          int64
	TriggerTime *time.Time
	TriggerCode int
	HandleCode  int
	AlarmStatus int
}

// Failed is findFailJobLogIds' condition: neither running nor succeeded.
func (l LogState) Failed() bool {
	running := (l.TriggerCode == 0 || l.TriggerCode == 200) && l.HandleCode == 0
	return !(running || l.HandleCode == 200)
}

var logStateColumns = []string{"id", "trigger_time", "trigger_code", "handle_code", "alarm_status"}

func (s *Store) scanLogState(sc scanner) (LogState, error) {
	var l LogState
	err := sc.Scan(&l.ID, s.scanTime(&l.TriggerTime), &l.TriggerCode, &l.HandleCode, &l.AlarmStatus)
	return l, err
}

// LogStatesFrom reads the states of up to size rows with id >= from (and
// below the id below, when it is > 0), in id order: a range of the primary
// key, whatever the table's size.
func (s *Store) LogStatesFrom(ctx context.Context, from, below int64, size int) ([]LogState, error) {
	b := s.sb.Select(logStateColumns...).From("xxl_job_log").Where(sq.GtOrEq{"id": from})
	if below > 0 {
		b = b.Where(sq.Lt{"id": below})
	}
	out, err := selectAll(ctx, s, page(b.OrderBy("id ASC"), 0, size), s.scanLogState)
	if err != nil {
		return nil, fmt.Errorf("read log states from id %d: %w", from, err)
	}
	return out, nil
}

// LogStatesByID reads the states of the given rows (primary-key lookups);
// rows that no longer exist are absent.
func (s *Store) LogStatesByID(ctx context.Context, ids []int64) ([]LogState, error) {
	var out []LogState
	err := inChunks(ids, func(chunk []int64) error {
		got, err := selectAll(ctx, s, s.sb.Select(logStateColumns...).From("xxl_job_log").Where(sq.Eq{"id": chunk}), s.scanLogState)
		out = append(out, got...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read states of %d logs: %w", len(ids), err)
	}
	return out, nil
}

// LogUnsettledStates reads every row that is not a success and not a
// handled failure: running or not yet triggered, failed and not alarmed, or
// held in a transient alarm state. It is served by I_handle_code (both
// generations have it) as two ranges around 200, so it costs the rows that
// did not succeed, not the table; a monitor reads it once at start (no
// ORDER BY, which could tempt a planner into the primary key; the caller
// sorts). Each row is a lookup: 20,000 failed rows of 2M take 1-2 s on a
// cold MariaDB, against 4.6 s for Java's scan every 10 s.
func (s *Store) LogUnsettledStates(ctx context.Context) ([]LogState, error) {
	out, err := selectAll(ctx, s, s.sb.Select(logStateColumns...).From("xxl_job_log").
		Where("(handle_code < 200 OR handle_code > 200)").Where(sq.LtOrEq{"alarm_status": 0}), s.scanLogState)
	if err != nil {
		return nil, fmt.Errorf("read unsettled log states: %w", err)
	}
	return out, nil
}

// LogFirstIDSince is the id of the first row triggered at or after t (one
// entry of I_trigger_time), or one above the highest id when there is none,
// or 1 on an empty table: where rows may still be written. Ids follow
// trigger times only roughly (admins' clocks, concurrent inserts), so
// callers ask from a margin before the time they mean.
func (s *Store) LogFirstIDSince(ctx context.Context, t time.Time) (int64, error) {
	ids, err := s.ids(ctx, page(s.sb.Select("id").From("xxl_job_log").
		Where(sq.GtOrEq{"trigger_time": s.dbTime(t)}).OrderBy("trigger_time ASC"), 0, 1))
	if err != nil {
		return 0, fmt.Errorf("first log since %s: %w", t, err)
	}
	if len(ids) > 0 {
		return ids[0], nil
	}
	var last *int64
	if err := s.queryRow(ctx, s.sb.Select("MAX(id)").From("xxl_job_log")).Scan(&last); err != nil {
		return 0, fmt.Errorf("last log id: %w", err)
	}
	if last == nil {
		return 1, nil
	}
	return *last + 1, nil
}

// LogFindLostIDsFrom is findLostJobIds (LogFindLostIDs) over the rows with
// id >= from: the lost monitor's watermark keeps it to the rows since the
// oldest one still running.
func (s *Store) LogFindLostIDsFrom(ctx context.Context, from int64, lostBefore time.Time) ([]int64, error) {
	ids, err := s.ids(ctx, s.sb.Select("t.id").From("xxl_job_log t").
		LeftJoin("xxl_job_registry t2 ON t.executor_address = t2.registry_value").
		Where(sq.GtOrEq{"t.id": from}).
		Where(sq.Eq{"t.trigger_code": 200, "t.handle_code": 0}).
		Where(sq.LtOrEq{"t.trigger_time": s.dbTime(lostBefore)}).
		Where("t2.id IS NULL"))
	if err != nil {
		return nil, fmt.Errorf("find lost logs from id %d: %w", from, err)
	}
	return ids, nil
}

// LogFirstRunningID is the lowest id >= from of a running row (trigger code
// 200, handle code 0), found through I_handle_code; ok is false when none is.
func (s *Store) LogFirstRunningID(ctx context.Context, from int64) (id int64, ok bool, err error) {
	var first *int64
	if err := s.queryRow(ctx, s.sb.Select("MIN(id)").From("xxl_job_log").
		Where(sq.Eq{"handle_code": 0, "trigger_code": 200}).Where(sq.GtOrEq{"id": from})).Scan(&first); err != nil {
		return 0, false, fmt.Errorf("first running log from id %d: %w", from, err)
	}
	if first == nil {
		return 0, false, nil
	}
	return *first, true, nil
}
