package schema

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// TestLogPageTotals pins where a bounded list's total comes from: the
// look-ahead when the list ends within it (no count), the count otherwise,
// and a page past the end counts; every total exact on a small table.
func TestLogPageTotals(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := at(s, 2026, 3, 1, 8, 0, 0)
		var ids []int64
		for i := range 25 {
			tt := base.Add(time.Duration(i) * time.Minute)
			id, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 1 + i%2, TriggerTime: &tt})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		bd := Bounds{Statement: 5 * time.Second, Count: time.Second}
		for _, c := range []struct {
			name         string
			offset, size int
			f            LogFilter
			rows, total  int
			first        int64
		}{
			{"first page, list ends in the look-ahead", 0, 10, LogFilter{}, 10, 25, ids[24]},
			{"last page", 20, 10, LogFilter{}, 5, 25, ids[4]},
			{"past the end counts", 30, 10, LogFilter{}, 0, 25, 0},
			{"small page, counted", 0, 2, LogFilter{}, 2, 25, ids[24]},
			{"one job, by id", 0, 3, LogFilter{JobID: 1, NewestID: true}, 3, 13, ids[24]},
			{"huge length", 0, 1 << 30, LogFilter{}, 25, 25, ids[24]},
			{"huge start", 1 << 40, 10, LogFilter{}, 0, 25, 0},
			{"a status that is not one: all", 0, 10, LogFilter{LogStatus: 7}, 10, 25, ids[24]},
			{"a ten-year window", 0, 10, LogFilter{From: ptrTime(base.AddDate(-5, 0, 0)), To: ptrTime(base.AddDate(5, 0, 0)), NewestID: true}, 10, 25, ids[24]},
		} {
			list, total, err := s.LogPage(ctx, c.offset, c.size, c.f, bd)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if len(list) != c.rows || total != (Total{N: c.total, Exact: true}) {
				t.Errorf("%s: %d rows, total %+v; want %d rows of %d, exact", c.name, len(list), total, c.rows, c.total)
			}
			if c.rows > 0 && list[0].ID != c.first {
				t.Errorf("%s: first id %d, want %d", c.name, list[0].ID, c.first)
			}
		}
		// Rows come in the order's order, with their columns.
		list, _, err := s.LogPage(ctx, 0, 25, LogFilter{}, bd)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range list {
			if l.ID != ids[24-i] || l.TriggerTime == nil || !l.TriggerTime.Equal(base.Add(time.Duration(24-i)*time.Minute)) {
				t.Fatalf("row %d: %+v", i, l)
			}
		}
	})
}

// slowCount is a count that runs for seconds on every backend (a
// cross join of three 1,000-row recursive CTEs, within MariaDB's default
// max_recursive_iterations), to hit time bounds.
func (s *Store) slowCount() string {
	return "(WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 1000) SELECT a.n FROM r a, r b, r c) slow"
}

// TestBoundedStatements pins the time bounds of the console's statements
// on every backend: a count past its bound gives the lower bound it has,
// a statement past the statement bound is ErrStatementTimeout, and the
// store answers afterwards; on MariaDB the server itself stopped it
// (max_statement_time's error 1969), not only our wait for it.
func TestBoundedStatements(t *testing.T) {
	forEachBackend(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		b := s.sb.Select("count(1)").From(s.slowCount())
		lower := Total{N: 41}
		got, err := s.boundedCount(ctx, b, lower, Bounds{Statement: 5 * time.Second, Count: 100 * time.Millisecond})
		if err != nil || got != lower {
			t.Fatalf("count past its bound: %+v, %v; want the lower bound %+v", got, err, lower)
		}
		_, err = s.boundedCount(ctx, b, lower, Bounds{Statement: 100 * time.Millisecond})
		if !errors.Is(err, ErrStatementTimeout) {
			t.Fatalf("statement past its bound: %v, want ErrStatementTimeout", err)
		}
		if s.Backend() == MySQL && !strings.Contains(err.Error(), "1969") {
			t.Errorf("MariaDB did not stop the statement itself (max_statement_time, error 1969): %v", err)
		}
		if err := s.Ping(ctx); err != nil {
			t.Fatalf("after the timeouts: %v", err)
		}
		// The count that hit its bound is not tried again for a while; the
		// same count with other values is.
		quick := func(group int) sq.SelectBuilder {
			return s.sb.Select("count(1)").From("(SELECT 1 AS n) one").Where(sq.Eq{"n": group})
		}
		q, args, _ := quick(1).ToSql()
		s.slow.add(fmt.Sprint(q, args))
		if got, err := s.boundedCount(ctx, quick(1), lower, Bounds{Statement: 5 * time.Second, Count: 5 * time.Second}); err != nil || !got.Exact {
			t.Errorf("a count that hit its bound once: %+v, %v; want it tried again", got, err)
		}
		s.slow.add(fmt.Sprint(q, args))
		s.slow.add(fmt.Sprint(q, args))
		bd := Bounds{Statement: 5 * time.Second, Count: 5 * time.Second}
		if got, err := s.boundedCount(ctx, quick(1), lower, bd); err != nil || got != lower {
			t.Errorf("a count remembered as slow: %+v, %v; want the lower bound", got, err)
		}
		if got, err := s.boundedCount(ctx, quick(2), lower, bd); err != nil || !got.Exact {
			t.Errorf("another count: %+v, %v; want it counted", got, err)
		}
		s.slow.now = func() time.Time { return time.Now().Add(slowCountTTL + time.Second) }
		if got, err := s.boundedCount(ctx, quick(1), lower, bd); err != nil || !got.Exact {
			t.Errorf("a slow count after its TTL: %+v, %v; want it counted again", got, err)
		}
		// A cancelled caller is the caller's error, not a time bound.
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := s.boundedCount(cctx, b, lower, Bounds{Statement: time.Second, Count: 100 * time.Millisecond}); err == nil || errors.Is(err, ErrStatementTimeout) {
			t.Fatalf("cancelled caller: %v", err)
		}
	})
}

func ptrTime(t time.Time) *time.Time { return &t }

// TestJobCountBounded pins the dashboard's job count: exact as Java's on
// a small table; on one the server estimates at bigJobTable rows or more,
// exact within its bound, else the estimate, flagged.
func TestJobCountBounded(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if n, exact, err := s.JobCountBounded(ctx, time.Nanosecond); err != nil || n != 1 || !exact {
			t.Fatalf("small table: %d %v %v; want the seed job, exact", n, exact, err)
		}
		cols := strings.Join(s.jobCols()[1:], ", ")
		all := 131072
		switch s.Backend() {
		case SQLite:
			// Its estimate is the id span: one job far up makes it large
			// (131,072 rows take pure-Go SQLite a minute under -race).
			rawExec(t, s, "INSERT INTO xxl_job_info (id, "+cols+") SELECT 200000, "+cols+" FROM xxl_job_info")
			all = 2
		default:
			for n := 1; n < bigJobTable; n *= 2 {
				rawExec(t, s, "INSERT INTO xxl_job_info ("+cols+") SELECT "+cols+" FROM xxl_job_info")
			}
		}
		switch s.Backend() {
		case MySQL:
			rawExec(t, s, "ANALYZE TABLE xxl_job_info")
		default:
			rawExec(t, s, "ANALYZE xxl_job_info")
		}
		if n, exact, err := s.JobCountBounded(ctx, 5*time.Second); err != nil || n != all || !exact {
			t.Errorf("large table, time enough: %d %v %v; want %d exact", n, exact, err, all)
		}
		n, exact, err := s.JobCountBounded(ctx, time.Nanosecond)
		if err != nil || exact || n < bigJobTable || n > 2*max(all, bigJobTable) {
			t.Errorf("large table, no time: %d %v %v; want the estimate, not exact", n, exact, err)
		}
	})
}

// TestLogPageWithoutTimeIndex: a database whose xxl_job_log lost
// I_trigger_time still lists its logs (the list never names an index the
// table lacks).
func TestLogPageWithoutTimeIndex(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := at(s, 2026, 3, 1, 8, 0, 0)
		for i := range 5 {
			tt := base.Add(time.Duration(i) * time.Hour)
			if _, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: 1, TriggerTime: &tt}); err != nil {
				t.Fatal(err)
			}
		}
		switch s.Backend() {
		case MySQL:
			rawExec(t, s, "DROP INDEX I_trigger_time ON xxl_job_log")
		case Postgres:
			rawExec(t, s, "DROP INDEX i_trigger_time")
		default:
			rawExec(t, s, "DROP INDEX I_trigger_time")
		}
		if _, err := s.Prepare(ctx, PrepareOptions{}); err != nil {
			t.Fatal(err)
		}
		from, to := base.Add(time.Hour), base.Add(2*time.Hour)
		for _, f := range []LogFilter{{}, {JobID: 1}, {From: &from, To: &to}, {From: &from, To: &to, NewestID: true}, {LogStatus: 2}} {
			if _, total, err := s.LogPage(ctx, 0, 10, f, Bounds{Statement: 5 * time.Second, Count: time.Second}); err != nil || !total.Exact {
				t.Errorf("%+v: %+v %v", f, total, err)
			}
		}
	})
}
