package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// clearBoundWindow is how far before the retention limit LogClearBound
// looks for the highest expired id: ids follow trigger times only roughly
// (admins' clocks, inserts racing), by far less than a day.
const clearBoundWindow = 24 * time.Hour

// LogClearBound is the highest id of the rows triggered in the day up to
// before (an I_trigger_time range of one day's rows), or of the newest row
// triggered at or before it when that day has none; ok is false when no
// row is that old. Retention deletes by id up to it, so its selects read a
// primary-key range of expired rows instead of the table from its start; a
// row expired but numbered above it (triggered more than a day before a
// lower id) is left for the next day's run.
func (s *Store) LogClearBound(ctx context.Context, before time.Time) (id int64, ok bool, err error) {
	var bound *int64
	if err := s.queryRow(ctx, s.sb.Select("MAX(id)").From("xxl_job_log").
		Where(sq.Gt{"trigger_time": s.dbTime(before.Add(-clearBoundWindow))}).
		Where(sq.LtOrEq{"trigger_time": s.dbTime(before)})).Scan(&bound); err != nil {
		return 0, false, fmt.Errorf("highest log id to clear before %s: %w", before, err)
	}
	if bound != nil {
		return *bound, true, nil
	}
	ids, err := s.ids(ctx, page(s.sb.Select("id").From("xxl_job_log").
		Where(sq.LtOrEq{"trigger_time": s.dbTime(before)}).OrderBy("trigger_time DESC"), 0, 1))
	if err != nil {
		return 0, false, fmt.Errorf("newest log to clear before %s: %w", before, err)
	}
	if len(ids) == 0 {
		return 0, false, nil
	}
	return ids[0], true, nil
}

// LogFindClearIDsAfter is findClearLogIds by trigger time alone as a keyset
// page: up to size ids in (after, bound] triggered at or before `before`,
// in id order. Each page starts where the last one ended, so deleting
// millions of rows reads each once instead of re-reading the table's
// deleted head (InnoDB keeps delete-marked rows until purge) every batch.
func (s *Store) LogFindClearIDsAfter(ctx context.Context, after, bound int64, before time.Time, size int) ([]int64, error) {
	ids, err := s.ids(ctx, page(s.sb.Select("id").From("xxl_job_log").
		Where(sq.Gt{"id": after}).Where(sq.LtOrEq{"id": bound}).
		Where(sq.LtOrEq{"trigger_time": s.dbTime(before)}).OrderBy("id ASC"), 0, size))
	if err != nil {
		return nil, fmt.Errorf("find logs to clear after id %d: %w", after, err)
	}
	return ids, nil
}
