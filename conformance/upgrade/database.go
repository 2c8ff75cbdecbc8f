package upgrade

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
)

// script24 is the 2.4.2 release's doc/db/tables_xxl_job.sql, kept beside
// the schema package's tests.
const script24 = "compat/schema/testdata/tables_xxl_job-2.4.2.sql"

// openSQL opens the datasource with database/sql, for fixtures and counts.
func openSQL(d datasource) (*sql.DB, error) {
	target, err := schema.ParseJDBC(d.url, d.user, d.pass)
	if err != nil {
		return nil, err
	}
	return sql.Open(target.Driver, target.DSN)
}

// create24 runs the 2.4.2 script's statements (its CREATE DATABASE and use
// lines aside): the tables and seed rows a 2.4.2 installation starts with.
func create24(ctx context.Context, db *sql.DB) error {
	root, err := javaadmin.ModuleRoot()
	if err != nil {
		return err
	}
	raw, err := os.ReadFile(filepath.Join(root, script24))
	if err != nil {
		return err
	}
	for _, stmt := range strings.Split(string(raw), ";\n") {
		var lines []string
		for _, line := range strings.Split(stmt, "\n") {
			if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
				lines = append(lines, line)
			}
		}
		stmt = strings.TrimSpace(strings.Join(lines, "\n"))
		lower := strings.ToLower(stmt)
		if stmt == "" || strings.HasPrefix(lower, "create database") || strings.HasPrefix(lower, "use ") || lower == "commit" {
			continue
		}
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("2.4.2 script: %w", err)
		}
	}
	return nil
}

// logBatch is the rows per INSERT: about 1 MB, well below MariaDB's
// default max_allowed_packet (16 MB).
const logBatch = 2000

// fillLogs inserts n finished log rows of job 1, spread over ten days up
// to an hour ago (inside the admins' 30-day retention, and older than what
// the upgrade counts as recent; successful, so that no monitor picks them
// up), as multi-row INSERTs.
func fillLogs(ctx context.Context, db *sql.DB, n int) error {
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return err
	}
	now := time.Now().In(loc).Add(-time.Hour)
	step := 10 * 24 * time.Hour / time.Duration(n)
	msg := "任务触发类型：Cron触发<br>调度机器：10.0.0.1<br>执行器-注册方式：自动注册<br>执行器-地址列表：[http://10.0.0.2:9999/]<br>路由策略：第一个<br>阻塞处理策略：单机串行<br>任务超时时间：0<br>失败重试次数：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>触发调度<<<<<<<<<<< </span><br>触发调度：<br>address：http://10.0.0.2:9999/<br>code：200<br>msg：null"
	var b strings.Builder
	for i := 0; i < n; i += logBatch {
		b.Reset()
		b.WriteString("INSERT INTO xxl_job_log (job_group, job_id, executor_address, executor_handler, executor_param, executor_sharding_param," +
			" executor_fail_retry_count, trigger_time, trigger_code, trigger_msg, handle_time, handle_code, handle_msg, alarm_status) VALUES ")
		for j := i; j < min(i+logBatch, n); j++ {
			if j > i {
				b.WriteString(", ")
			}
			at := now.Add(-time.Duration(n-j) * step)
			fmt.Fprintf(&b, "(1, 1, 'http://10.0.0.2:9999/', 'demoJobHandler', 'run-%d', NULL, 0, '%s', 200, '%s', '%s', 200, 'ok', 0)",
				j, at.Format("2006-01-02 15:04:05"), msg, at.Add(time.Second).Format("2006-01-02 15:04:05"))
		}
		if _, err := db.ExecContext(ctx, b.String()); err != nil {
			return fmt.Errorf("insert log rows %d-: %w", i, err)
		}
	}
	return nil
}

// count runs a count query.
func count(ctx context.Context, db *sql.DB, query string, args ...any) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, query, args...).Scan(&n)
	return n, err
}

// waitCount waits until query counts want or more rows (fires are written
// after the console has answered).
func waitCount(ctx context.Context, db *sql.DB, want int, query string, args ...any) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		n, err := count(ctx, db, query, args...)
		if err == nil && n >= want {
			return n, nil
		}
		select {
		case <-ctx.Done():
			return n, fmt.Errorf("%s: %d rows after a minute, want %d (%v)", query, n, want, err)
		case <-tick.C:
		}
	}
}

// waitLogged waits until an admin's output file holds text.
func waitLogged(ctx context.Context, file, text string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if b, err := os.ReadFile(file); err == nil && strings.Contains(string(b), text) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s does not hold %s after 30 s", file, text)
		case <-tick.C:
		}
	}
}
