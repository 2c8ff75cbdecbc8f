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
// did not succeed, not the table; a monitor reads it once at start.
func (s *Store) LogUnsettledStates(ctx context.Context) ([]LogState, error) {
	out, err := selectAll(ctx, s, s.sb.Select(logStateColumns...).From("xxl_job_log").
		Where("(handle_code < 200 OR handle_code > 200)").Where(sq.LtOrEq{"alarm_status": 0}).
		OrderBy("id ASC"), s.scanLogState)
	if err != nil {
		return nil, fmt.Errorf("read unsettled log states: %w", err)
	}
	return out, nil
}

// LogFirstIDSince is the lowest id of the rows triggered at or after t (an
// I_trigger_time range), or one above the highest id when there is none,
// or 1 on an empty table: the id from which rows may still be written.
func (s *Store) LogFirstIDSince(ctx context.Context, t time.Time) (int64, error) {
	var first *int64
	if err := s.queryRow(ctx, s.sb.Select("MIN(id)").From("xxl_job_log").
		Where(sq.GtOrEq{"trigger_time": s.dbTime(t)})).Scan(&first); err != nil {
		return 0, fmt.Errorf("first log since %s: %w", t, err)
	}
	if first != nil {
		return *first, nil
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
