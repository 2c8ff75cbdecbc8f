package report

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// BenchmarkRetention measures the retention cleanup on a large backlog
// (scheduler.md §11 leaves the batch size to us; Java deletes 1000 at a
// time): XXL_BENCH_RETENTION_ROWS old logs (default 1,000,000) plus 10,000
// recent ones that must survive, deleted in batches of 500, 1000 and 5000 while a
// concurrent writer inserts and reads logs as triggers do. It reports the
// total time, per-batch p50/p99/max and the writer's latency during the
// cleanup next to its latency before it. Seeding is not timed.
// XXL_BENCH_RETENTION_BATCHES=500,1000 picks the sizes and
// XXL_BENCH_RETENTION_NOREST=1 drops the pause between batches.
// Run: go test -run '^$' -bench Retention -benchtime 1x ./core/report/
func BenchmarkRetention(b *testing.B) {
	rows := 1_000_000
	if v := os.Getenv("XXL_BENCH_RETENTION_ROWS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			b.Fatalf("XXL_BENCH_RETENTION_ROWS: %v", err)
		}
		rows = n
	}
	sizes := []int{500, 1000, 5000}
	if v := os.Getenv("XXL_BENCH_RETENTION_BATCHES"); v != "" {
		sizes = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				b.Fatalf("XXL_BENCH_RETENTION_BATCHES: %v", err)
			}
			sizes = append(sizes, n)
		}
	}
	opens := map[string]func(testing.TB) backend{"sqlite": openSQLite, "mysql": openMySQL}
	for _, name := range []string{"sqlite", "mysql"} {
		for _, size := range sizes {
			b.Run(fmt.Sprintf("%s/batch=%d", name, size), func(b *testing.B) {
				for range b.N {
					b.StopTimer()
					be := opens[name](b)
					runRetentionBench(b, be, rows, size)
				}
			})
		}
	}
}

func runRetentionBench(b *testing.B, be backend, rows, size int) {
	loc := zone(b)
	now := time.Date(2024, 6, 30, 12, 0, 0, 0, loc)
	const keep = 10_000
	seedBacklog(b, be, loc, now, rows, keep)

	var batches []time.Duration
	r := New(Config{Store: be.store, Loc: loc, RetentionDays: 30, BatchSize: size, Now: func() time.Time { return now }})
	r.noRest = os.Getenv("XXL_BENCH_RETENTION_NOREST") == "1"
	r.afterBatch = func(_ int, took time.Duration) { batches = append(batches, took) }

	ctx := context.Background()
	base := measureWriter(b, be.store, loc, func() { time.Sleep(time.Second) })
	var deleted int
	b.StartTimer()
	start := time.Now()
	during := measureWriter(b, be.store, loc, func() {
		var err error
		if deleted, err = r.CleanNow(ctx); err != nil {
			b.Error(err)
		}
	})
	total := time.Since(start)
	b.StopTimer()

	if deleted != rows {
		b.Fatalf("deleted %d, want %d", deleted, rows)
	}
	var left int
	if err := be.raw.QueryRow("SELECT COUNT(*) FROM xxl_job_log WHERE job_group = 1").Scan(&left); err != nil {
		b.Fatal(err)
	}
	if left != keep {
		b.Fatalf("%d recent logs left, want %d", left, keep)
	}
	slices.Sort(batches)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(total.Seconds(), "total-s")
	b.ReportMetric(ms(pct(batches, 50)), "batch-p50-ms")
	b.ReportMetric(ms(pct(batches, 99)), "batch-p99-ms")
	b.ReportMetric(ms(pct(batches, 100)), "batch-max-ms")
	b.ReportMetric(ms(pct(during.lat, 99)), "writer-p99-ms")
	b.ReportMetric(ms(pct(during.lat, 100)), "writer-max-ms")
	b.ReportMetric(ms(pct(base.lat, 100)), "writer-idle-max-ms")
	b.ReportMetric(float64(len(during.lat))/total.Seconds(), "writer-ops/s")
	b.ReportMetric(float64(len(base.lat)), "writer-idle-ops/s")
}

func pct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	slices.Sort(sorted)
	i := (len(sorted) - 1) * p / 100
	return sorted[i]
}

type writerStats struct{ lat []time.Duration }

// measureWriter runs a trigger-like writer (insert a log, update its
// trigger info, read it back by id) while work runs, and returns the
// latency of each round.
func measureWriter(b *testing.B, s *schema.Store, loc *time.Location, work func()) writerStats {
	ctx := context.Background()
	stop := make(chan struct{})
	var st writerStats
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		msg := strings.Repeat("m", 300)
		for {
			select {
			case <-stop:
				return
			default:
			}
			t0 := time.Now()
			tt := time.Now().In(loc)
			id, err := s.LogSave(ctx, schema.JobLog{JobGroup: 2, JobID: 2, TriggerTime: &tt})
			if err == nil {
				err = s.LogUpdateTriggerInfo(ctx, schema.JobLog{ID: id, TriggerTime: &tt, TriggerCode: 200, TriggerMsg: &msg})
			}
			if err == nil {
				_, err = s.LogLoad(ctx, id)
			}
			if err != nil {
				b.Error(err)
				return
			}
			st.lat = append(st.lat, time.Since(t0))
		}
	}()
	work()
	close(stop)
	wg.Wait()
	return st
}

// seedBacklog writes rows logs (job_group 3) spread over the 90 days before
// the retention limit, ids rising with time as in production, and keep logs
// (job_group 1) after it, with a realistic trigger_msg size.
func seedBacklog(b *testing.B, be backend, loc *time.Location, now time.Time, rows, keep int) {
	limit := clearBefore(now, loc, 30)
	first := limit.AddDate(0, 0, -90)
	step := limit.Sub(first) / time.Duration(rows)
	msg := strings.Repeat("x", 400)
	ts := func(t time.Time) string { return t.In(be.store.Location()).Format(time.DateTime) }
	const chunk = 500
	insert := func(tx *sql.Tx, group, n int, at func(i int) time.Time) {
		for off := 0; off < n; off += chunk {
			m := min(chunk, n-off)
			var q strings.Builder
			q.WriteString("INSERT INTO xxl_job_log (job_group, job_id, trigger_time, trigger_code, trigger_msg, handle_code) VALUES ")
			args := make([]any, 0, m*6)
			for i := range m {
				if i > 0 {
					q.WriteString(",")
				}
				q.WriteString("(?,?,?,?,?,?)")
				args = append(args, group, 1+(off+i)%50, ts(at(off+i)), 200, msg, 200)
			}
			if _, err := tx.Exec(q.String(), args...); err != nil {
				b.Fatal(err)
			}
		}
	}
	const txRows = 100_000
	for off := 0; off < rows; off += txRows {
		tx, err := be.raw.Begin()
		if err != nil {
			b.Fatal(err)
		}
		base := off
		insert(tx, 3, min(txRows, rows-off), func(i int) time.Time { return first.Add(time.Duration(base+i) * step) })
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	tx, err := be.raw.Begin()
	if err != nil {
		b.Fatal(err)
	}
	insert(tx, 1, keep, func(i int) time.Time { return limit.Add(time.Second + time.Duration(i)*time.Minute) })
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}
