package schema

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// planRecorder runs EXPLAIN of every SELECT before running it, and keeps
// the plans: the store's own statements, whatever their builder made.
type planRecorder struct {
	runner
	d     dialect
	t     *testing.T
	plans []string
}

func (p *planRecorder) explain(ctx context.Context, query string, args ...any) {
	if !strings.HasPrefix(strings.TrimSpace(query), "SELECT") {
		return
	}
	prefix := "EXPLAIN "
	if p.d.backend() == SQLite {
		prefix = "EXPLAIN QUERY PLAN "
	}
	rows, err := p.runner.QueryContext(ctx, prefix+query, args...)
	if err != nil {
		p.t.Fatalf("explain %s: %v", query, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var lines []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			p.t.Fatal(err)
		}
		var cells []string
		for i, v := range vals {
			cells = append(cells, cols[i]+"="+v.String)
		}
		lines = append(lines, strings.Join(cells, " "))
	}
	p.plans = append(p.plans, query+"\n  "+strings.Join(lines, "\n  "))
}

func (p *planRecorder) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	p.explain(ctx, query, args...)
	return p.runner.QueryContext(ctx, query, args...)
}

func (p *planRecorder) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	p.explain(ctx, query, args...)
	return p.runner.QueryRowContext(ctx, query, args...)
}

// fullScan finds a full scan of xxl_job_log or xxl_job_info (t is the log's
// alias in findLostJobIds) in a plan: MySQL's access type ALL or index (the
// whole index), PostgreSQL's Seq Scan or an index scan without an Index
// Cond, SQLite's SCAN.
func fullScan(b Backend, plan string) string {
	table := `(xxl_job_log|xxl_job_info|t)\b`
	switch b {
	case MySQL:
		for _, l := range strings.Split(plan, "\n") {
			if regexp.MustCompile(`table=`+table).MatchString(l) && regexp.MustCompile(`type=(ALL|index)\b`).MatchString(l) {
				return l
			}
		}
	case Postgres:
		lines := strings.Split(plan, "\n")
		for i, l := range lines {
			if regexp.MustCompile(`Seq Scan on ` + table).MatchString(l) {
				return l
			}
			if regexp.MustCompile(`Index (Only )?Scan (Backward )?using \S+ on ` + table).MatchString(l) {
				cond := false
				for _, d := range lines[i+1:] {
					if strings.Contains(d, "->") {
						break
					}
					cond = cond || strings.Contains(d, "Index Cond")
				}
				if !cond {
					return l
				}
			}
		}
	case SQLite:
		if m := regexp.MustCompile(`detail=SCAN ` + table).FindString(plan); m != "" {
			return m
		}
	}
	return ""
}

// TestMonitorPlans (issue 27): each statement the fail and lost monitors,
// retention, the report and the pre-read's due index send is served by an
// index — no full scan of xxl_job_log or xxl_job_info — on every backend
// and both generations' schemas, at a few thousand rows (the timings live in
// BenchmarkMonitorScans).
func TestMonitorPlans(t *testing.T) {
	for _, gen := range []Generation{Gen2, Gen3} {
		t.Run(fmt.Sprint(gen), func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, s *Store) {
				ctx := context.Background()
				if _, err := s.Prepare(ctx, PrepareOptions{Create: gen}); err != nil {
					t.Fatal(err)
				}
				now := time.Now().Truncate(time.Second)
				const logs, jobs = 4000, 4096
				fillLogs(t, s, logs, now)
				fillJobs(t, s, jobs, now)
				analyze(t, s)
				rec := &planRecorder{runner: s.q, d: s.d, t: t}
				rs := *s
				rs.q = rec
				day := now.Add(-24 * time.Hour)
				calls := []struct {
					name string
					fn   func() error
				}{
					{"fail tail", func() error { _, err := rs.LogStatesFrom(ctx, logs-50, 0, 5000); return err }},
					{"fail sweep", func() error { _, err := rs.LogStatesFrom(ctx, 1000, 3000, 1000); return err }},
					{"fail open rows", func() error { _, err := rs.LogStatesByID(ctx, []int64{5, 700, 3990}); return err }},
					{"fail start", func() error { _, err := rs.LogUnsettledStates(ctx); return err }},
					{"first id since", func() error { _, err := rs.LogFirstIDSince(ctx, now.Add(-time.Minute)); return err }},
					{"lost", func() error { _, err := rs.LogFindLostIDsFrom(ctx, logs-50, now.Add(-10*time.Minute)); return err }},
					{"lost watermark", func() error { _, _, err := rs.LogFirstRunningID(ctx, logs-50); return err }},
					{"report", func() error { _, err := rs.LogCountsBetween(ctx, day, day.Add(24*time.Hour-time.Second)); return err }},
					{"report tally", func() error {
						_, err := rs.LogDayTally(ctx, day, day.Add(24*time.Hour-time.Second), logs+1)
						return err
					}},
					{"report next id", func() error { _, err := rs.LogNextID(ctx); return err }},
					{"retention bound", func() error { _, _, err := rs.LogClearBound(ctx, now.Add(-20*24*time.Hour)); return err }},
					{"retention page", func() error {
						_, err := rs.LogFindClearIDsAfter(ctx, 100, 2000, now.Add(-20*24*time.Hour), 1000)
						return err
					}},
					{"due index tail", func() error { _, err := rs.JobDueFrom(ctx, jobs-10, 10000); return err }},
					{"due index keys", func() error { _, err := rs.JobDueByID(ctx, []int{3, 99, 4000}); return err }},
					{"pre-read by key", func() error {
						return rs.WithTx(ctx, func(tx *Store) error {
							_, err := tx.JobScheduleQueryIDs(ctx, []int{1, 2, 3, 4, 5}, now.UnixMilli())
							return err
						})
					}},
					{"highest job id", func() error { _, err := rs.JobMaxID(ctx); return err }},
					// A workflow started after job 7 reads its parent's logs
					// from its mark (core/workflow parent.go).
					{"workflow parent logs", func() error { _, err := rs.WorkflowParentLogs(ctx, 7, logs-50, 500); return err }},
				}
				for _, c := range calls {
					rec.plans = rec.plans[:0]
					if err := c.fn(); err != nil {
						t.Fatalf("%s: %v", c.name, err)
					}
					for _, p := range rec.plans {
						if scan := fullScan(s.d.backend(), p); scan != "" {
							t.Errorf("%s: full scan (%s) in\n%s", c.name, scan, p)
						}
					}
				}
			})
		})
	}
}

// fillLogs inserts n logs, one an hour back from now: one in 100 failed and
// alarmed, the newest ten running, the rest succeeded.
func fillLogs(t *testing.T, s *Store, n int, now time.Time) {
	t.Helper()
	var vals []string
	var args []any
	flush := func() {
		if len(vals) > 0 {
			rawExec(t, s, "INSERT INTO xxl_job_log (job_group, job_id, trigger_time, trigger_code, handle_code, alarm_status, executor_address) VALUES "+
				strings.Join(vals, ", "), args...)
			vals, args = vals[:0], args[:0]
		}
	}
	for i := range n {
		tc, hc, alarm := 200, 200, 0
		switch {
		case i >= n-10:
			hc = 0
		case i%100 == 0:
			hc, alarm = 500, 2
		}
		vals = append(vals, "(?, ?, ?, ?, ?, ?, ?)")
		args = append(args, 1+i%5, 1+i%50, s.dbTime(now.Add(-time.Duration(n-i)*time.Hour)), tc, hc, alarm, "http://e:9999/")
		if len(vals) == 200 {
			flush()
		}
	}
	flush()
}

// fillJobs doubles the seed job up to n rows, all running and due in a
// day but for the first five, due now.
func fillJobs(t *testing.T, s *Store, n int, now time.Time) {
	t.Helper()
	cols := strings.Join(s.jobCols()[1:], ", ")
	for count := 1; count < n; count *= 2 {
		rawExec(t, s, "INSERT INTO xxl_job_info ("+cols+") SELECT "+cols+" FROM xxl_job_info")
	}
	rawExec(t, s, "UPDATE xxl_job_info SET trigger_status = 1, trigger_next_time = ?", now.Add(24*time.Hour).UnixMilli())
	rawExec(t, s, "UPDATE xxl_job_info SET trigger_next_time = ? WHERE id <= 5", now.UnixMilli())
}

func analyze(t *testing.T, s *Store) {
	t.Helper()
	switch s.d.backend() {
	case MySQL:
		rawExec(t, s, "ANALYZE TABLE xxl_job_log, xxl_job_info, xxl_job_registry")
	case Postgres:
		rawExec(t, s, "ANALYZE xxl_job_log")
		rawExec(t, s, "ANALYZE xxl_job_info")
		rawExec(t, s, "ANALYZE xxl_job_registry")
	case SQLite:
		rawExec(t, s, "ANALYZE")
	}
}
