package schema

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	sq "github.com/Masterminds/squirrel"
)

// The console's hot queries, pinned by their plans (issue 27): on every
// backend and both generations' tables, with a few thousand rows, no page
// of the log or job list reads xxl_job_log or xxl_job_info whole (a full
// scan, or a whole index sorted), and the counts an index serves use it.
// Timings live in the benchmark (make bench-growth); a plan is what a
// test can hold at this size. PostgreSQL plans with enable_seqscan off,
// which it ignores only where no index can serve the query, so the test
// says "an index path exists and is taken" whatever the row count.

const (
	planLogs = 3000
	planJobs = 1024
)

// fillForPlans writes planLogs logs over 27 days (50 jobs in 5 groups, 1
// in 100 failed) and planJobs jobs, then refreshes the statistics.
func fillForPlans(t *testing.T, s *Store) time.Time {
	t.Helper()
	ctx := context.Background()
	end := at(s, 2026, 3, 28, 0, 0, 0)
	step := 27 * 24 * time.Hour / planLogs
	for done := 0; done < planLogs; done += 500 {
		b := s.sb.Insert("xxl_job_log").Columns("job_group", "job_id", "trigger_time", "trigger_code", "handle_code", "alarm_status")
		for i := done; i < done+500; i++ {
			code := 200
			if i%100 == 7 {
				code = 500
			}
			b = b.Values(1+i%5, 1+i%50, s.dbTime(end.Add(-time.Duration(planLogs-i)*step)), 200, code, 0)
		}
		if _, err := s.exec(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	cols := strings.Join(s.jobCols()[1:], ", ")
	for n := 1; n < planJobs; n *= 2 {
		rawExec(t, s, "INSERT INTO xxl_job_info ("+cols+") SELECT "+cols+" FROM xxl_job_info")
	}
	for _, table := range []string{"xxl_job_log", "xxl_job_info"} {
		switch s.Backend() {
		case MySQL:
			rawExec(t, s, "ANALYZE TABLE "+table)
		default:
			rawExec(t, s, "ANALYZE "+table)
		}
	}
	return end
}

// explainPlan explains b on one connection: MySQL's EXPLAIN rows as
// "table type key extra", PostgreSQL's text plan (enable_seqscan off),
// SQLite's EXPLAIN QUERY PLAN details.
func explainPlan(t *testing.T, s *Store, b sq.Sqlizer) []string {
	t.Helper()
	ctx := context.Background()
	q, args, err := b.ToSql()
	if err != nil {
		t.Fatal(err)
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := s.d.wrap(conn)
	prefix := "EXPLAIN "
	switch s.Backend() {
	case Postgres:
		if _, err := conn.ExecContext(ctx, "SET enable_seqscan = off"); err != nil {
			t.Fatal(err)
		}
		defer func() { _, _ = conn.ExecContext(ctx, "RESET enable_seqscan") }()
	case SQLite:
		prefix = "EXPLAIN QUERY PLAN "
	}
	rows, err := r.QueryContext(ctx, prefix+q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	names, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(names))
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		col := map[string]string{}
		for i, n := range names {
			col[strings.ToLower(n)] = vals[i].String
		}
		switch s.Backend() {
		case MySQL:
			out = append(out, fmt.Sprintf("%s %s %s %s key_len=%s", col["table"], col["type"], col["key"], col["extra"], col["key_len"]))
		case Postgres:
			out = append(out, vals[0].String)
		default:
			out = append(out, col["detail"])
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// listFullScan names what in a plan reads a table whole: a full table scan,
// or a whole index walked and then sorted (a walk in the list's order
// stops at the page, and is fine).
func listFullScan(backend Backend, lines []string) string {
	for _, l := range lines {
		f := strings.Fields(l)
		switch backend {
		case MySQL:
			// index_merge: MariaDB's intersection of I_jobid and I_jobgroup,
			// then sorted (the 3.4.2 jar's one-job list: 4.5 s on 2M rows).
			if len(f) >= 2 && strings.HasPrefix(f[0], "xxl_job_") && (f[1] == "ALL" ||
				(f[1] == "index" || f[1] == "index_merge") && strings.Contains(l, "filesort")) {
				return l
			}
		case Postgres:
			if strings.Contains(l, "Seq Scan on xxl_job_") {
				return l
			}
		default:
			if strings.HasPrefix(l, "SCAN xxl_job_") && !strings.Contains(l, " USING ") {
				for _, m := range lines {
					if strings.Contains(m, "TEMP B-TREE") {
						return l + " + " + m
					}
				}
			}
		}
	}
	return ""
}

func TestConsolePlans(t *testing.T) {
	for _, gen := range []Generation{Gen2, Gen3} {
		t.Run(string(gen), func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, s *Store) {
				ctx := context.Background()
				if _, err := s.Prepare(ctx, PrepareOptions{Create: gen}); err != nil {
					t.Fatal(err)
				}
				end := fillForPlans(t, s)
				day := end.Add(-10 * 24 * time.Hour)
				dayEnd := day.Add(24*time.Hour - time.Second)
				newest := gen == Gen3
				logs := func(f LogFilter) sq.Sqlizer {
					f.NewestID, f.GroupWithJob = newest, newest
					b, err := s.logIDsQuery(ctx, f)
					if err != nil {
						t.Fatal(err)
					}
					return page(b, 0, 51)
				}
				cases := []struct {
					name string
					b    sq.Sqlizer
				}{
					{"log list, all", logs(LogFilter{})},
					{"log list, one group", logs(LogFilter{JobGroup: 2})},
					{"log list, one job", logs(LogFilter{JobGroup: 2, JobID: 7})},
					{"log list, failed only", logs(LogFilter{LogStatus: 2})},
					{"log list, running", logs(LogFilter{LogStatus: 3})},
					{"log list, success", logs(LogFilter{LogStatus: 1})},
					{"log list, a permitted user's groups", logs(LogFilter{JobGroups: []int{1, 3}})},
					{"log list, a one-day window", logs(LogFilter{From: &day, To: &dayEnd})},
					{"log list, deep page", func() sq.Sqlizer {
						b, _ := s.logIDsQuery(ctx, LogFilter{NewestID: newest})
						return page(b, 2000, 51)
					}()},
					{"log count, a one-day window", s.logCountQuery(LogFilter{From: &day, To: &dayEnd})},
					{"job list, all", page(s.sb.Select("id").From("xxl_job_info").OrderBy("id DESC"), 0, 51)},
					{"job list, one group", page(JobFilter{JobGroup: 1}.apply(s, s.sb.Select("id").From("xxl_job_info")).OrderBy("id DESC"), 0, 51)},
				}
				if gen == Gen3 && s.Backend() == MySQL {
					// 3.4.2's I_jobid (its PostgreSQL and SQLite DDL here has
					// none; db tune offers it).
					cases = append(cases, struct {
						name string
						b    sq.Sqlizer
					}{"log count, one job", s.logCountQuery(LogFilter{JobGroup: 2, JobID: 7, GroupWithJob: true})})
				}
				for _, c := range cases {
					lines := explainPlan(t, s, c.b)
					if bad := listFullScan(s.Backend(), lines); bad != "" {
						t.Errorf("%s: reads a table whole: %s\nplan:\n%s", c.name, bad, strings.Join(lines, "\n"))
					}
				}
				if s.Backend() == MySQL {
					// 3.4.2's order by id (the statements are the same on
					// both generations' tables).
					window, err := s.logIDsQuery(ctx, LogFilter{NewestID: true, From: &day, To: &dayEnd})
					if err != nil {
						t.Fatal(err)
					}
					deepPlans(t, s, page(window, 0, 51))
				}
			})
		})
	}
}

// deepPlans pins, on MariaDB, the statements a deep page of 3.4.2's list
// of all logs runs (store_log_deep.go) and the sorted window's found-rows
// form: the handle codes by a loose scan of I_handle_code (a dive a code),
// the count of an id stretch by ranges over I_handle_code's extended key
// (handle_code, id) — key_len 12, the id bounds in the range, not a scan
// of each code's entries —, the walk from an id by the primary key, and
// the window's ids with SQL_CALC_FOUND_ROWS read from I_trigger_time's
// range and sorted (the plan the count would have repeated).
func deepPlans(t *testing.T, s *Store, window sq.SelectBuilder) {
	t.Helper()
	for _, c := range []struct {
		name string
		b    sq.Sqlizer
		want []string // each must be in the plan's one line
	}{
		{"handle codes", s.handleCodesQuery(), []string{"xxl_job_log range I_handle_code", "Using index for group-by"}},
		{"deep count", s.deepCountQuery([]int{0, 200, 500}, 1000, 2000), []string{"xxl_job_log range I_handle_code", "Using index", "key_len=12"}},
		{"deep walk", page(s.sb.Select("id").From("xxl_job_log").Where(sq.LtOrEq{"id": 2000}).OrderBy("id DESC"), 5, 51),
			[]string{"xxl_job_log range PRIMARY"}},
		{"window, found rows", window.Options("SQL_CALC_FOUND_ROWS"), []string{"xxl_job_log range I_trigger_time", "Using index; Using filesort"}},
	} {
		lines := explainPlan(t, s, c.b)
		if len(lines) != 1 {
			t.Errorf("%s: plan of %d lines:\n%s", c.name, len(lines), strings.Join(lines, "\n"))
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(lines[0], w) {
				t.Errorf("%s: plan %q lacks %q", c.name, lines[0], w)
			}
		}
	}
}
