// Package growthdata builds large xxl_job_log and xxl_job_info tables on
// MariaDB for the growth benchmarks (issue 27): a month of logs and a
// million jobs, by multi-row INSERTs, in a database of the benchmark's own.
package growthdata

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testdb"
)

// EnvRows switches the growth benchmarks on: the number of log rows to
// build (e.g. 2000000); EnvJobs sets the number of jobs (default 1,000,000).
const (
	EnvRows = "XXL_BENCH_GROWTH_ROWS"
	EnvJobs = "XXL_BENCH_GROWTH_JOBS"
)

// Sizes reads the sizes from the environment and skips the benchmark
// when EnvRows is unset: building the data takes minutes.
func Sizes(tb testing.TB) (rows, jobs int) {
	tb.Helper()
	rows, _ = strconv.Atoi(os.Getenv(EnvRows))
	if rows <= 0 {
		tb.Skip(EnvRows + " not set (log rows of the growth data set, e.g. 2000000)")
	}
	jobs = 1000000
	if v, err := strconv.Atoi(os.Getenv(EnvJobs)); err == nil && v > 0 {
		jobs = v
	}
	return rows, jobs
}

// DB is a benchmark's MariaDB database: its store and a raw handle.
type DB struct {
	Store *schema.Store
	Raw   *sql.DB
}

// MySQL creates a prepared database of the given generation.
func MySQL(tb testing.TB, gen schema.Generation) DB {
	tb.Helper()
	db := testdb.MySQL(tb)
	st := storetest.OpenGen(tb, gen, db.JDBC("serverTimezone=Asia/Shanghai&useSSL=false"), db.User(), db.Password())
	cfg, err := mysql.ParseDSN(os.Getenv(testdb.EnvMySQL))
	if err != nil {
		tb.Fatal(err)
	}
	cfg.DBName = db.Name()
	raw, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { raw.Close() })
	return DB{Store: st, Raw: raw}
}

// Exec runs statements on the raw handle.
func (d DB) Exec(tb testing.TB, stmts ...string) {
	tb.Helper()
	for _, s := range stmts {
		if _, err := d.Raw.ExecContext(context.Background(), s); err != nil {
			tb.Fatalf("%s: %v", s, err)
		}
	}
}

// Logs inserts n logs spread evenly over the 30 days before now (oldest
// first): one in 100 failed and alarmed, the newest 100 running (triggered
// in the last minute), the rest succeeded.
func (d DB) Logs(tb testing.TB, n int, now time.Time) {
	tb.Helper()
	loc := d.Store.Location()
	step := 30 * 24 * time.Hour / time.Duration(n)
	const per = 2000
	var b strings.Builder
	for start := 0; start < n; start += per {
		b.Reset()
		b.WriteString("INSERT INTO xxl_job_log (job_group, job_id, executor_address, executor_handler, trigger_time, trigger_code, trigger_msg, handle_time, handle_code, alarm_status) VALUES ")
		for i := start; i < min(start+per, n); i++ {
			at := now.Add(-time.Duration(n-i) * step)
			tc, hc, alarm := 200, 200, 0
			switch {
			case i >= n-100:
				hc, at = 0, now.Add(-time.Duration(n-i)*100*time.Millisecond)
			case i%100 == 0:
				hc, alarm = 500, 2
			}
			if i > start {
				b.WriteString(", ")
			}
			ts := at.In(loc).Format(time.DateTime)
			fmt.Fprintf(&b, "(%d, %d, 'http://10.0.0.%d:9999/', 'demoJobHandler', '%s', %d, 'ok', '%s', %d, %d)",
				1+i%5, 1+i%50, i%50, ts, tc, ts, hc, alarm)
		}
		d.Exec(tb, b.String())
	}
	d.Exec(tb, "ANALYZE TABLE xxl_job_log")
}

// Jobs doubles the seed job up to at least n rows, all running and next
// due in a day, and makes the first due of them due now.
func (d DB) Jobs(tb testing.TB, n, due int, now time.Time) int {
	tb.Helper()
	cols := "job_group, job_desc, add_time, update_time, author, alarm_email, schedule_type, schedule_conf, misfire_strategy, " +
		"executor_route_strategy, executor_handler, executor_param, executor_block_strategy, executor_timeout, " +
		"executor_fail_retry_count, glue_type, glue_source, glue_remark, glue_updatetime, child_jobid"
	count := 1
	for ; count < n; count *= 2 {
		d.Exec(tb, "INSERT INTO xxl_job_info ("+cols+") SELECT "+cols+" FROM xxl_job_info")
	}
	d.Exec(tb, fmt.Sprintf("UPDATE xxl_job_info SET trigger_status = 1, trigger_next_time = %d", now.Add(24*time.Hour).UnixMilli()),
		fmt.Sprintf("UPDATE xxl_job_info SET trigger_next_time = %d ORDER BY id LIMIT %d", now.UnixMilli(), due),
		"ANALYZE TABLE xxl_job_info")
	return count
}
