package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// latenessOptions shape -mode lateness.
type latenessOptions struct {
	rate, expired    int
	warmup, duration time.Duration
	rounds           int
	keep             bool
	reuse            string // database to reuse (built when empty)
}

// period is how often each job fires: rate jobs/s take period × rate jobs,
// job k firing at the seconds s with s % period == k % period, so a fire's
// scheduled second is known from its arrival (lateness under period).
const period = 5

// expiredAge is how old the expired rows are (retention keeps 7 days).
const (
	expiredFrom = 30 * 24 * time.Hour
	expiredTo   = 10 * 24 * time.Hour
	retainDays  = 7
)

// runLateness measures trigger lateness (issue 27 goal 2): rate jobs/s
// fire at an executor of the harness (it answers at once and calls back
// every 100 ms, as Java's callback thread does); each run's p99 of
// arrival minus scheduled second, with retention deleting the expired
// rows (xxl.job.logretentiondays=7, which cleans at start) and without
// (retention off), the two alternating. Before each run the expired rows
// are topped up to o.expired, so both see the same table.
func runLateness(ctx context.Context, w io.Writer, srv server, c candidate, o latenessOptions, work string) error {
	name := o.reuse
	nJobs := period * o.rate
	if name == "" {
		name = fmt.Sprintf("xxl_growth_late_%d", time.Now().Unix())
		if err := buildLateness(ctx, srv, name, nJobs); err != nil {
			return err
		}
		if !o.keep {
			defer func() { _, _ = srv.db.Exec("DROP DATABASE IF EXISTS " + name) }()
		} else {
			fmt.Fprintln(os.Stderr, "benchgrowth: keeping database", name)
		}
	}
	db, err := sql.Open("mysql", srv.dsn(name))
	if err != nil {
		return err
	}
	defer db.Close()
	ex, err := startBenchExecutor()
	if err != nil {
		return err
	}
	defer ex.close()
	if _, err := db.ExecContext(ctx, "UPDATE xxl_job_group SET address_list = ?", ex.address()); err != nil {
		return err
	}
	type run struct {
		with                   bool
		p50, p99, p999, max    time.Duration
		fires                  int
		perSecond              float64
		expiredBefore, deleted int
		load                   string
	}
	var runs []run
	for r := 0; r < o.rounds; r++ {
		order := []bool{false, true}
		if r%2 == 1 {
			order = []bool{true, false}
		}
		for _, with := range order {
			if err := topUpExpired(ctx, db, o.expired); err != nil {
				return err
			}
			// nJobs jobs running (a reused database may have more), due
			// from now on: a next time of 0 is a misfire, DO_NOTHING.
			if _, err := db.ExecContext(ctx, "UPDATE xxl_job_info SET trigger_status = 0 WHERE executor_handler = 'late'"); err != nil {
				return err
			}
			if _, err := db.ExecContext(ctx, "UPDATE xxl_job_info SET trigger_next_time = 0, trigger_status = 1 WHERE executor_handler = 'late' ORDER BY id LIMIT ?", nJobs); err != nil {
				return err
			}
			days := "-1"
			if with {
				days = fmt.Sprint(retainDays)
			}
			a, err := startAdmin(ctx, srv, name, schema.Gen2, c, work, "--xxl.job.accessToken=bench", "--xxl.job.logretentiondays="+days)
			if err != nil {
				return err
			}
			ex.setAdmin(a.base)
			sleepCtx(ctx, o.warmup)
			before, _ := countExpired(ctx, db)
			ex.record(true)
			began := time.Now()
			sleepCtx(ctx, o.duration)
			arrivals := ex.record(false)
			secs := time.Since(began).Seconds()
			after, _ := countExpired(ctx, db)
			_, _ = db.ExecContext(ctx, "UPDATE xxl_job_info SET trigger_status = 0 WHERE executor_handler = 'late'")
			a.stop()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			late := make([]time.Duration, len(arrivals))
			for i, ar := range arrivals {
				late[i] = lateness(ar.at, ar.job)
			}
			sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
			q := func(p float64) time.Duration {
				if len(late) == 0 {
					return 0
				}
				return late[min(len(late)-1, int(p*float64(len(late))))]
			}
			rr := run{with: with, p50: q(0.5), p99: q(0.99), p999: q(0.999), fires: len(late), perSecond: float64(len(late)) / secs,
				expiredBefore: before, deleted: before - after, load: loadAverage()}
			if len(late) > 0 {
				rr.max = late[len(late)-1]
			}
			runs = append(runs, rr)
			fmt.Fprintf(os.Stderr, "benchgrowth: lateness round %d, deletion %v: %d fires (%.0f/s), p50 %s p99 %s p99.9 %s max %s; expired rows %d → %d (load %s)\n",
				r+1, with, rr.fires, rr.perSecond, rr.p50, rr.p99, rr.p999, rr.max, before, after, rr.load)
		}
	}
	fmt.Fprintf(w, "\nTrigger lateness (arrival at the executor minus the scheduled second): %d jobs firing every %d s (%d/s asked), %s measured after a %s warm-up, with retention deleting expired rows (of %d) and without; %s, %s.\n\n",
		nJobs, period, o.rate, o.duration, o.warmup, o.expired, c.label, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintln(w, "| run | deletion | fires (per s) | p50 | p99 | p99.9 | max | expired rows deleted in the window | load average |\n|---|---|---|---|---|---|---|---|---|")
	var p99 = map[bool][]float64{}
	for i, rr := range runs {
		fmt.Fprintf(w, "| %d | %v | %d (%.0f) | %s | %s | %s | %s | %d of %d | %s |\n", i+1, yesNo(rr.with), rr.fires, rr.perSecond,
			fmtDur(rr.p50), fmtDur(rr.p99), fmtDur(rr.p999), fmtDur(rr.max), rr.deleted, rr.expiredBefore, rr.load)
		p99[rr.with] = append(p99[rr.with], float64(rr.p99))
	}
	mw, mo := median(p99[true]), median(p99[false])
	if mo > 0 {
		fmt.Fprintf(w, "\nMedian p99: with deletion %s, without %s: %+.0f %%.\n", time.Duration(mw).Round(time.Millisecond),
			time.Duration(mo).Round(time.Millisecond), 100*(mw-mo)/mo)
	}
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func sleepCtx(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// lateness is arrival minus the second job was scheduled for: the last
// second s at or before the arrival with s % period == job % period.
func lateness(at time.Time, job int) time.Duration {
	ms := at.UnixMilli()
	s := ms / 1000
	back := ((s-int64(job))%period + period) % period
	return time.Duration(ms-(s-back)*1000) * time.Millisecond
}

// buildLateness makes the database: one group (manual address, set to the
// executor later) and jobs jobs of handler "late", job k firing at the
// seconds k % 5 of every 5 (CRON "k/5 * * * * ?"), stopped until a run
// starts them.
func buildLateness(ctx context.Context, srv server, name string, jobs int) error {
	if _, err := srv.db.ExecContext(ctx, "CREATE DATABASE "+name+" DEFAULT CHARACTER SET utf8mb4"); err != nil {
		return fmt.Errorf("create database: %w", err)
	}
	t, err := schema.ParseJDBC(srv.jdbc(name), srv.user, srv.pass)
	if err != nil {
		return err
	}
	st, err := schema.Open(ctx, t, schema.PoolSettings{MaxOpen: 2})
	if err != nil {
		return err
	}
	_, err = st.Prepare(ctx, schema.PrepareOptions{Create: schema.Gen2})
	st.Close()
	if err != nil {
		return fmt.Errorf("create tables: %w", err)
	}
	db, err := sql.Open("mysql", srv.dsn(name))
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range []string{
		"INSERT INTO xxl_job_group (app_name, title, address_type, address_list, update_time) VALUES ('late-bench', 'lateness', 1, 'http://127.0.0.1:9/', NOW())",
		fmt.Sprintf(`INSERT INTO xxl_job_info (job_group, job_desc, add_time, update_time, author, alarm_email,
 schedule_type, schedule_conf, misfire_strategy, executor_route_strategy, executor_handler, executor_param,
 executor_block_strategy, executor_timeout, executor_fail_retry_count, glue_type, glue_source, glue_remark,
 glue_updatetime, child_jobid, trigger_status, trigger_last_time, trigger_next_time)
 SELECT (SELECT MAX(id) FROM xxl_job_group), CONCAT('late ', seq), NOW(), NOW(), 'bench', '', 'CRON', '', 'DO_NOTHING', 'FIRST', 'late', '',
 'SERIAL_EXECUTION', 0, 0, 'BEAN', '', 'GLUE', NOW(), '', 0, 0, 0 FROM seq_1_to_%d`, jobs),
		fmt.Sprintf("UPDATE xxl_job_info SET schedule_conf = CONCAT(id %% %d, '/%d * * * * ?') WHERE executor_handler = 'late'", period, period),
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%.60s…: %w", q, err)
		}
	}
	return nil
}

// countExpired counts the rows retention would delete (I_trigger_time).
func countExpired(ctx context.Context, db *sql.DB) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM xxl_job_log WHERE trigger_time <= UTC_TIMESTAMP() - INTERVAL ? DAY", retainDays+1).Scan(&n)
	return n, err
}

// topUpExpired inserts expired rows (finished, 10–30 days old) until there
// are want.
func topUpExpired(ctx context.Context, db *sql.DB, want int) error {
	have, err := countExpired(ctx, db)
	if err != nil {
		return err
	}
	began := time.Now()
	start := time.Now().UTC().Add(-expiredFrom)
	span := int64((expiredFrom - expiredTo) / time.Second)
	const chunk = 1_000_000
	for done := have; done < want; done += chunk {
		n := min(chunk, want-done)
		q := fmt.Sprintf(`INSERT INTO xxl_job_log (job_group, job_id, executor_address, executor_handler, executor_param,
 executor_fail_retry_count, trigger_time, trigger_code, trigger_msg, handle_time, handle_code, handle_msg, alarm_status)
 SELECT 1, 1, 'http://127.0.0.1:9999/', 'late', '', 0, ? + INTERVAL (seq * %[1]d DIV %[2]d) SECOND, 200, 'expired',
 ? + INTERVAL (seq * %[1]d DIV %[2]d + 1) SECOND, 200, '', 0 FROM seq_1_to_%[2]d`, span, n)
		if _, err := db.ExecContext(ctx, q, start, start); err != nil {
			return fmt.Errorf("expired rows: %w", err)
		}
	}
	if have < want {
		fmt.Fprintf(os.Stderr, "benchgrowth: %d expired rows added in %s\n", want-have, time.Since(began).Round(time.Second))
	}
	return nil
}
