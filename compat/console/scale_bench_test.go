package console

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// BenchmarkScaleLists measures the console's default job and log lists on
// MariaDB with 10,000 jobs and 1,000,000 log rows (issue 8, "Scale"): the
// p50 and p99 of one request, as metrics p50-ms and p99-ms. The sizes are
// XXL_BENCH_CONSOLE_JOBS and XXL_BENCH_CONSOLE_LOGS.
func BenchmarkScaleLists(b *testing.B) {
	if os.Getenv(storetest.EnvMySQL) == "" {
		b.Skip("[suite-off] the scale benchmark needs MariaDB: " + storetest.EnvMySQL)
	}
	jobs, logs := envInt(b, "XXL_BENCH_CONSOLE_JOBS", 10_000), envInt(b, "XXL_BENCH_CONSOLE_LOGS", 1_000_000)
	url, user, pass := storetest.MySQLURL(b)
	s := storetest.Open(b, url, user, pass)
	target, err := schema.ParseJDBC(url, user, pass)
	if err != nil {
		b.Fatal(err)
	}
	raw, err := sql.Open(target.Driver, target.DSN)
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	e := newEnv(b, s, "en", false)
	start := time.Now()
	seedScale(b, raw, jobs, logs, e.now)
	b.Logf("seeded %d jobs and %d logs in %v", jobs, logs, time.Since(start).Round(time.Second))

	c := e.login("admin", "123456")
	today := e.now.Format(time.DateOnly)
	for _, q := range []struct {
		name string
		path string
		kv   []string
	}{
		{"joblist-default", "/jobinfo/pageList", []string{"jobGroup", "1", "triggerStatus", "-1", "jobDesc", "", "executorHandler", "", "author", "", "start", "0", "length", "10"}},
		{"joblist-filter", "/jobinfo/pageList", []string{"jobGroup", "1", "triggerStatus", "1", "jobDesc", "job 9", "executorHandler", "", "author", "", "start", "0", "length", "10"}},
		{"loglist-default", "/joblog/pageList", []string{"jobGroup", "0", "jobId", "0", "logStatus", "-1", "filterTime", today + " 00:00:00 - " + today + " 23:59:59", "start", "0", "length", "10"}},
		{"loglist-group-failed", "/joblog/pageList", []string{"jobGroup", "2", "jobId", "0", "logStatus", "2", "filterTime", "", "start", "0", "length", "10"}},
		{"loglist-all-page-1000", "/joblog/pageList", []string{"jobGroup", "0", "jobId", "0", "logStatus", "-1", "filterTime", "", "start", "10000", "length", "10"}},
	} {
		b.Run(q.name, func(b *testing.B) {
			var d []time.Duration
			for b.Loop() {
				t0 := time.Now()
				r := c.post(q.path, q.kv...)
				d = append(d, time.Since(t0))
				if r.status != 200 || !strings.HasPrefix(r.body, `{"recordsFiltered":`) {
					b.Fatalf("%s: %d %.200s", q.name, r.status, r.body)
				}
			}
			slices.Sort(d)
			b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(d[len(d)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

func envInt(b *testing.B, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	return n
}

// seedScale writes jobs in 20 groups and logs spread over the last 30 days
// with multi-row inserts (the store's one-row statements would take minutes).
func seedScale(b *testing.B, db *sql.DB, jobs, logs int, now time.Time) {
	ctx := context.Background()
	exec := func(q string, args ...any) {
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			b.Fatal(err)
		}
	}
	for g := 2; g <= 20; g++ {
		exec("INSERT INTO xxl_job_group (app_name, title, address_type, address_list, update_time) VALUES (?, ?, 1, 'http://127.0.0.1:9999/', NOW())",
			fmt.Sprintf("scale-app-%d", g), fmt.Sprintf("scale %d", g))
	}
	batch := func(n, size int, row func(i int) (string, []any), head string) {
		for i := 0; i < n; i += size {
			var vals []string
			var args []any
			for k := i; k < min(n, i+size); k++ {
				v, a := row(k)
				vals, args = append(vals, v), append(args, a...)
			}
			exec(head+strings.Join(vals, ","), args...)
		}
	}
	batch(jobs, 500, func(i int) (string, []any) {
		return "(?, ?, NOW(), NOW(), 'bench', '', 'CRON', '0 0 1 * * ?', 'DO_NOTHING', 'FIRST', ?, '', 'SERIAL_EXECUTION', 0, 0, 'BEAN', '', 'init', NOW(), '', ?, 0, 0)",
			[]any{1 + i%20, fmt.Sprintf("job %d", i), fmt.Sprintf("handler%d", i%50), i % 2}
	}, "INSERT INTO xxl_job_info (job_group, job_desc, add_time, update_time, author, alarm_email, schedule_type, schedule_conf, "+
		"misfire_strategy, executor_route_strategy, executor_handler, executor_param, executor_block_strategy, executor_timeout, "+
		"executor_fail_retry_count, glue_type, glue_source, glue_remark, glue_updatetime, child_jobid, trigger_status, "+
		"trigger_last_time, trigger_next_time) VALUES ")
	msg := strings.Repeat("Job trigger type：Cron trigger<br>Trigger machine address：10.0.0.1<br>", 6)
	batch(logs, 1000, func(i int) (string, []any) {
		at := now.Add(-time.Duration(i%(30*24*3600)) * time.Second)
		handle := []int{200, 200, 200, 500, 0}[(i/20)%5] // every group has every status
		return "(?, ?, 'http://127.0.0.1:9999/', 'demoJobHandler', '', 0, ?, 200, ?, ?, ?, 'ok', 1)",
			[]any{1 + i%20, 1 + i%jobs, at, msg, at.Add(time.Second), handle}
	}, "INSERT INTO xxl_job_log (job_group, job_id, executor_address, executor_handler, executor_param, executor_fail_retry_count, "+
		"trigger_time, trigger_code, trigger_msg, handle_time, handle_code, handle_msg, alarm_status) VALUES ")
}
