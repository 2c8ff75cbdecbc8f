package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

const envPostgres = "XXL_TEST_POSTGRES_DSN"

// consoleBounds are the console's list bounds (console.DefaultListBounds).
var consoleBounds = schema.Bounds{Statement: 5 * time.Second, Count: 80 * time.Millisecond}

// measurePostgres builds the same data set in PostgreSQL (generate_series)
// for generation gen and times ours' list statements through the store —
// what the console's log and job lists run — median of runs after a
// warm-up. No Java admin runs on PostgreSQL.
func measurePostgres(ctx context.Context, w io.Writer, gen schema.Generation, rows, runs int, keep bool) error {
	dsn := os.Getenv(envPostgres)
	if dsn == "" {
		return fmt.Errorf("-postgres needs %s", envPostgres)
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return err
	}
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		return err
	}
	defer admin.Close()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	name := "xxl_growth_pg_" + hex.EncodeToString(b)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" ENCODING 'UTF8' TEMPLATE template0"); err != nil {
		return err
	}
	if !keep {
		defer func() { _, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") }()
	}
	t, err := schema.ParseJDBC(fmt.Sprintf("jdbc:postgresql://%s:%d/%s?sslmode=disable", cfg.Host, cfg.Port, name), cfg.User, cfg.Password)
	if err != nil {
		return err
	}
	st, err := schema.Open(ctx, t, schema.PoolSettings{MaxOpen: 4, MaxIdle: 4})
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.Prepare(ctx, schema.PrepareOptions{Create: gen}); err != nil {
		return err
	}
	db, err := sql.Open("pgx", fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Password, cfg.Host, cfg.Port, name))
	if err != nil {
		return err
	}
	defer db.Close()
	ds := dataset{name: name, rows: rows, firstGroup: 1000, firstJob: 1000}
	ds.end = time.Now().UTC().Truncate(time.Second)
	ds.start = ds.end.Add(-time.Duration(days) * 24 * time.Hour)
	began := time.Now()
	stmts := []string{
		fmt.Sprintf(`INSERT INTO xxl_job_info (id, job_group, job_desc, author, schedule_type, schedule_conf, misfire_strategy,
 executor_route_strategy, executor_handler, executor_block_strategy, glue_type, trigger_status)
 SELECT %d + k, %d + k %% %d, 'growth job ' || k, 'bench', 'CRON', '0 0 0 * * ?', 'DO_NOTHING', 'FIRST', 'demoJobHandler',
 'SERIAL_EXECUTION', 'BEAN', 0 FROM generate_series(0, %d) k`, ds.firstJob, ds.firstGroup, groups, jobs-1),
		fmt.Sprintf(`INSERT INTO xxl_job_log (job_group, job_id, executor_address, executor_handler, executor_param,
 executor_fail_retry_count, trigger_time, trigger_code, trigger_msg, handle_time, handle_code, handle_msg, alarm_status)
 SELECT %[1]d + (s %% %[3]d) %% %[4]d, %[2]d + s %% %[3]d, 'http://127.0.0.1:9999/', 'demoJobHandler', '', 0,
 $1::timestamp + make_interval(secs => (s::bigint * %[5]d / %[6]d)), 200,
 'Trigger type: Cron trigger<br>Admin address: 127.0.0.1<br>Executor route: FIRST<br>Executor address: http://127.0.0.1:9999/<br>Handler: demoJobHandler<br>Trigger result: success',
 $1::timestamp + make_interval(secs => (s::bigint * %[5]d / %[6]d + 1)),
 CASE WHEN s %% 100 = 7 THEN 500 ELSE 200 END, CASE WHEN s %% 100 = 7 THEN 'failed' ELSE '' END,
 CASE WHEN s %% 100 = 7 THEN 2 ELSE 0 END FROM generate_series(1, %[7]d) s`,
			ds.firstGroup, ds.firstJob, jobs, groups, days*24*3600, rows, rows),
		"VACUUM ANALYZE xxl_job_log",
	}
	for i, q := range stmts {
		var args []any
		if i == 1 {
			args = []any{ds.start}
		}
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("build %s: %.50s…: %w", name, q, err)
		}
	}
	fmt.Fprintf(os.Stderr, "benchgrowth: %s (%s schema) built in %s\n", name, gen, time.Since(began).Round(time.Second))
	timeStore(ctx, w, fmt.Sprintf("PostgreSQL, %s schema, %d log rows (ours, the store's list statements)", gen, rows), st, ds, gen, runs)
	return nil
}

// timeStore times ours' list statements through the store st on the data
// set ds — what the console's log and job lists run — median of runs
// after a warm-up, and appends the table titled title to w.
func timeStore(ctx context.Context, w io.Writer, title string, st *schema.Store, ds dataset, gen schema.Generation, runs int) {
	rows := ds.rows
	day := ds.end.Add(-24 * time.Hour).Truncate(24 * time.Hour)
	dayEnd := day.Add(24*time.Hour - time.Second)
	week := day.Add(-6 * 24 * time.Hour)
	weekEnd := week.Add(24*time.Hour - time.Second)
	g3 := gen == schema.Gen3
	lf := func(f schema.LogFilter) schema.LogFilter { f.NewestID, f.GroupWithJob = g3, g3; return f }
	type pgShape struct {
		name string
		run  func() (schema.Total, error)
	}
	logs := func(name string, offset int, f schema.LogFilter) pgShape {
		return pgShape{name, func() (schema.Total, error) {
			_, t, err := st.LogPage(ctx, offset, 10, lf(f), consoleBounds)
			return t, err
		}}
	}
	shapes := []pgShape{
		logs("log list, all groups, first page", 0, schema.LogFilter{}),
		logs("log list, one group", 0, schema.LogFilter{JobGroup: ds.firstGroup}),
		logs("log list, one job", 0, schema.LogFilter{JobGroup: ds.firstGroup, JobID: ds.firstJob}),
		logs("log list, failed only", 0, schema.LogFilter{LogStatus: 2}),
		logs("log list, page 5,000", 49_990, schema.LogFilter{}),
		logs("log list, a one-day window", 0, schema.LogFilter{From: &day, To: &dayEnd}),
		logs("log list, a one-day window a week back", 0, schema.LogFilter{From: &week, To: &weekEnd}),
		logs(fmt.Sprintf("log list, page %d (offset rows/2)", rows/20), rows/2, schema.LogFilter{}),
		{"job list, one group", func() (schema.Total, error) {
			_, t, err := st.JobPage(ctx, 0, 10, schema.JobFilter{JobGroup: ds.firstGroup}, consoleBounds)
			return t, err
		}},
	}
	fmt.Fprintf(w, "\n### %s\n\n| request | ours | total |\n|---|---|---|\n", title)
	for _, s := range shapes {
		var all []time.Duration
		var t schema.Total
		var failed error
		for i := 0; i <= runs; i++ {
			began := time.Now()
			var err error
			t, err = s.run()
			if err != nil {
				failed = err
				break
			}
			if i > 0 {
				all = append(all, time.Since(began))
			}
		}
		cell, total := "—", fmt.Sprint(t.N)
		if failed != nil {
			total = "error: " + strings.SplitN(failed.Error(), ":", 2)[0]
		} else {
			sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
			cell = fmtDur(all[len(all)/2])
			if !t.Exact {
				total = "≥ " + total
			}
		}
		fmt.Fprintf(os.Stderr, "  %-40s %10s  %s\n", s.name, cell, total)
		fmt.Fprintf(w, "| %s | %s | %s |\n", s.name, cell, total)
	}
}
