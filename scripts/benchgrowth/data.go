package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// dataset is what buildData made: the database and the ids the console
// shapes ask for.
type dataset struct {
	name       string // database name
	rows       int
	firstGroup int // groups firstGroup … firstGroup+groups-1
	firstJob   int // jobs firstJob … firstJob+jobs-1; job k is in group firstGroup + k%groups
	start, end time.Time
}

const (
	groups = 5
	jobs   = 50
)

// days is the span of the data set (-days; 365 with -rows 100000000 is
// issue 27's "a year of one trigger every 0.3 s").
var days = 27

// buildData creates the database name as generation gen (our store's DDL,
// the same as each generation's script), 5 groups of 50 daily CRON jobs,
// all stopped (nothing fires), and rows log rows spread evenly over the
// last -days days, one in 100 failed and already alarmed; then the report
// rows the dashboard reads. MariaDB's SEQUENCE engine (seq_1_to_N) makes
// the rows in the server, a million per statement.
func buildData(ctx context.Context, srv server, name string, gen schema.Generation, rows int) (dataset, error) {
	ds := dataset{name: name, rows: rows}
	if _, err := srv.db.ExecContext(ctx, "CREATE DATABASE "+name+" DEFAULT CHARACTER SET utf8mb4"); err != nil {
		return ds, fmt.Errorf("create database: %w", err)
	}
	t, err := schema.ParseJDBC(srv.jdbc(name), srv.user, srv.pass)
	if err != nil {
		return ds, err
	}
	st, err := schema.Open(ctx, t, schema.PoolSettings{MaxOpen: 2})
	if err != nil {
		return ds, err
	}
	_, err = st.Prepare(ctx, schema.PrepareOptions{Create: gen})
	st.Close()
	if err != nil {
		return ds, fmt.Errorf("create tables: %w", err)
	}
	db, err := sql.Open("mysql", srv.dsn(name))
	if err != nil {
		return ds, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	exec := func(q string, args ...any) error {
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("%.60s…: %w", q, err)
		}
		return nil
	}
	// Groups and jobs with consecutive ids above the seed rows.
	if err := db.QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) + 1 FROM xxl_job_group").Scan(&ds.firstGroup); err != nil {
		return ds, err
	}
	for g := 0; g < groups; g++ {
		if err := exec("INSERT INTO xxl_job_group (id, app_name, title, address_type, address_list, update_time) VALUES (?, ?, ?, 1, 'http://127.0.0.1:9/', NOW())",
			ds.firstGroup+g, fmt.Sprintf("growth-%d", g), fmt.Sprintf("growth %d", g)); err != nil {
			return ds, err
		}
	}
	if err := db.QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) + 1 FROM xxl_job_info").Scan(&ds.firstJob); err != nil {
		return ds, err
	}
	for k := 0; k < jobs; k++ {
		if err := exec(`INSERT INTO xxl_job_info (id, job_group, job_desc, add_time, update_time, author, alarm_email,
 schedule_type, schedule_conf, misfire_strategy, executor_route_strategy, executor_handler, executor_param,
 executor_block_strategy, executor_timeout, executor_fail_retry_count, glue_type, glue_source, glue_remark,
 glue_updatetime, child_jobid, trigger_status, trigger_last_time, trigger_next_time)
 VALUES (?, ?, ?, NOW(), NOW(), 'bench', '', 'CRON', '0 0 0 * * ?', 'DO_NOTHING', 'FIRST', 'demoJobHandler', '',
 'SERIAL_EXECUTION', 0, 0, 'BEAN', '', 'GLUE', NOW(), '', 0, 0, 0)`,
			ds.firstJob+k, ds.firstGroup+k%groups, fmt.Sprintf("growth job %d", k)); err != nil {
			return ds, err
		}
	}
	ds.end = time.Now().UTC().Truncate(time.Second)
	ds.start = ds.end.Add(-time.Duration(days) * 24 * time.Hour)
	span := int64(days * 24 * 3600)
	const chunk = 1_000_000
	began := time.Now()
	for done := 0; done < rows; done += chunk {
		n := min(chunk, rows-done)
		q := fmt.Sprintf(`INSERT INTO xxl_job_log (job_group, job_id, executor_address, executor_handler, executor_param,
 executor_fail_retry_count, trigger_time, trigger_code, trigger_msg, handle_time, handle_code, handle_msg, alarm_status)
 SELECT %[1]d + (seq %% %[3]d) %% %[4]d, %[2]d + seq %% %[3]d, 'http://127.0.0.1:9999/', 'demoJobHandler', '', 0,
 ? + INTERVAL (seq * %[5]d DIV %[6]d) SECOND, 200,
 'Trigger type: Cron trigger<br>Admin address: 127.0.0.1<br>Executor route: FIRST<br>Executor address: http://127.0.0.1:9999/<br>Handler: demoJobHandler<br>Block strategy: SERIAL_EXECUTION<br>Timeout: 0<br>Retry: 0<br><br>Trigger result: success',
 ? + INTERVAL (seq * %[5]d DIV %[6]d + 1) SECOND,
 IF(seq %% 100 = 7, 500, 200), IF(seq %% 100 = 7, 'failed', ''), IF(seq %% 100 = 7, 2, 0)
 FROM seq_%[7]d_to_%[8]d`, ds.firstGroup, ds.firstJob, jobs, groups, span, rows, done+1, done+n)
		if err := exec(q, ds.start, ds.start); err != nil {
			return ds, err
		}
		fmt.Fprintf(os.Stderr, "\rbenchgrowth: %s: %d of %d log rows (%s)", name, done+n, rows, time.Since(began).Round(time.Second))
	}
	fmt.Fprintln(os.Stderr)
	// The report rows of the days (the dashboard and chart read them).
	for d := 0; d <= days; d++ {
		day := ds.start.Truncate(24 * time.Hour).Add(time.Duration(d) * 24 * time.Hour)
		per := rows / days
		if err := exec("INSERT INTO xxl_job_log_report (trigger_day, running_count, suc_count, fail_count) VALUES (?, 0, ?, ?)",
			day, per-per/100, per/100); err != nil {
			return ds, err
		}
	}
	return ds, exec("ANALYZE TABLE xxl_job_log")
}

// timeMariaDB times ours' list statements through the store on ds.
func timeMariaDB(ctx context.Context, w io.Writer, srv server, ds dataset, gen schema.Generation, runs int) error {
	t, err := schema.ParseJDBC(srv.jdbc(ds.name), srv.user, srv.pass)
	if err != nil {
		return err
	}
	st, err := schema.Open(ctx, t, schema.PoolSettings{MaxOpen: 4, MaxIdle: 4})
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.Prepare(ctx, schema.PrepareOptions{SkipPendingTable: true}); err != nil {
		return err
	}
	timeStore(ctx, w, fmt.Sprintf("MariaDB, %s schema, %d log rows (ours, the store's list statements)", gen, ds.rows), st, ds, gen, runs)
	return nil
}
