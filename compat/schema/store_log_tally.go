package schema

import (
	"context"
	"fmt"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// DayTally is one report day's logs below an id, split the way the report
// keeps them up to date: the settled ones counted, the running ones listed.
type DayTally struct {
	Settled int     // every row not running
	Success int     // handle_code 200 (a subset of Settled)
	Running []int64 // trigger_code in (0, 200) and handle_code 0
}

// runningCond is findLogReport's running condition.
const runningCond = "(trigger_code IN (0, 200) AND handle_code = 0)"

// LogDayTally reads the logs triggered in [from, to] with id < below in one
// statement (one snapshot on every backend, so a row finishing meanwhile is
// either listed running or counted settled, never both or neither): the
// counts of the settled rows and the ids of the running ones. It reads the
// day's rows through I_trigger_time, as findLogReport does.
func (s *Store) LogDayTally(ctx context.Context, from, to time.Time, below int64) (DayTally, error) {
	day := sq.And{sq.Expr("trigger_time BETWEEN ? AND ?", s.dbTime(from), s.dbTime(to)), sq.Lt{"id": below}}
	counts := s.sb.Select("0", "COUNT(1)", "SUM(CASE WHEN handle_code = 200 THEN 1 ELSE 0 END)").From("xxl_job_log").
		Where(day).Where("NOT " + runningCond)
	running := s.sb.Select("id", "0", "0").From("xxl_job_log").Where(day).Where(runningCond)
	runSQL, runArgs, err := running.ToSql()
	if err != nil {
		return DayTally{}, err
	}
	rows, err := s.query(ctx, counts.Suffix("UNION ALL "+runSQL, runArgs...))
	if err != nil {
		return DayTally{}, fmt.Errorf("tally logs between %s and %s: %w", from, to, err)
	}
	defer rows.Close()
	var t DayTally
	for rows.Next() {
		var id int64
		var n, suc *int64
		if err := rows.Scan(&id, &n, &suc); err != nil {
			return DayTally{}, fmt.Errorf("tally logs between %s and %s: %w", from, to, err)
		}
		if id != 0 {
			t.Running = append(t.Running, id)
			continue
		}
		if n != nil {
			t.Settled = int(*n)
		}
		if suc != nil {
			t.Success = int(*suc)
		}
	}
	if err := rows.Err(); err != nil {
		return DayTally{}, fmt.Errorf("tally logs between %s and %s: %w", from, to, err)
	}
	return t, nil
}

// LogNextID is one above the highest log id (1 on an empty table).
func (s *Store) LogNextID(ctx context.Context) (int64, error) {
	var last *int64
	if err := s.queryRow(ctx, s.sb.Select("MAX(id)").From("xxl_job_log")).Scan(&last); err != nil {
		return 0, fmt.Errorf("last log id: %w", err)
	}
	if last == nil {
		return 1, nil
	}
	return *last + 1, nil
}
