package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/procstat"
)

// envMySQL names the go-sql-driver DSN (without database) of the server.
const envMySQL = "XXL_TEST_MYSQL_DSN"

// database is where one run's admin and harness meet.
type database struct {
	url, user, pass string
	server          *sql.DB // MariaDB server connection for status counters; nil on SQLite
	drop            func()
}

// newDatabase creates an empty database: a MariaDB database of its own, or
// an SQLite file under dir.
func newDatabase(ctx context.Context, kind, dir string) (*database, error) {
	if kind == "sqlite" {
		return &database{url: "jdbc:sqlite:" + filepath.Join(dir, "bench.db"), drop: func() {}}, nil
	}
	dsn := os.Getenv(envMySQL)
	if dsn == "" {
		return nil, fmt.Errorf("-db mysql needs %s", envMySQL)
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", envMySQL, err)
	}
	server, err := sql.Open("mysql", dsn)
	if err != nil {
		return nil, err
	}
	server.SetMaxOpenConns(1)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "xxl_bench_" + hex.EncodeToString(b)
	if _, err := server.ExecContext(ctx, "CREATE DATABASE "+name+" DEFAULT CHARACTER SET utf8mb4"); err != nil {
		server.Close()
		return nil, fmt.Errorf("create database: %w", err)
	}
	return &database{
		url:  fmt.Sprintf("jdbc:mysql://%s/%s?serverTimezone=UTC", cfg.Addr, name),
		user: cfg.User, pass: cfg.Passwd, server: server,
		drop: func() {
			_, _ = server.Exec("DROP DATABASE IF EXISTS " + name)
			server.Close()
		},
	}, nil
}

// disarm switches the seeded jobs off until arm: an admin that starts
// (Java takes seconds) must not meet jobs due at time 0, misfire them and
// move them off the aligned grid.
func disarm(ctx context.Context, db *sql.DB, group int) error {
	if _, err := db.ExecContext(ctx, "UPDATE xxl_job_info SET trigger_status = 0 WHERE job_group = ?", group); err != nil {
		return fmt.Errorf("disarm jobs: %w", err)
	}
	return nil
}

// arm switches the jobs on, first due at first, under the schedule lock so
// that no schedule round of the running admin writes back older values.
func arm(ctx context.Context, db *sql.DB, group int, first time.Time) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	lock := "SELECT lock_name FROM xxl_job_lock WHERE lock_name = 'schedule_lock'"
	if !strings.HasPrefix(fmt.Sprintf("%T", db.Driver()), "*sqlite") {
		lock += " FOR UPDATE"
	}
	var name string
	if err := tx.QueryRowContext(ctx, lock).Scan(&name); err != nil {
		return fmt.Errorf("arm jobs: schedule lock: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE xxl_job_info SET trigger_status = 1, trigger_last_time = 0, trigger_next_time = ? WHERE job_group = ?",
		first.UnixMilli(), group); err != nil {
		return fmt.Errorf("arm jobs: %w", err)
	}
	return tx.Commit()
}

// serverPID is the MariaDB server's process id, from its pid file, for its
// CPU time; 0 when it cannot be read (another host, no permission).
func (d *database) serverPID(ctx context.Context) int {
	if d.server == nil {
		return 0
	}
	var file string
	if err := d.server.QueryRowContext(ctx, "SELECT @@pid_file").Scan(&file); err != nil {
		return 0
	}
	pid, err := procstat.PIDFile(file)
	if err != nil {
		return 0
	}
	return pid
}

// statusKeys are the server-wide counters read around a run. They count
// every client of the server, so a shared machine adds noise, measured
// before the run and reported.
var statusKeys = []string{"Questions", "Com_select", "Com_insert", "Com_update", "Com_commit", "Com_begin"}

// status reads statusKeys; empty on SQLite.
func (d *database) status(ctx context.Context) (map[string]int64, error) {
	out := map[string]int64{}
	if d.server == nil {
		return out, nil
	}
	rows, err := d.server.QueryContext(ctx, "SHOW GLOBAL STATUS")
	if err != nil {
		return nil, fmt.Errorf("global status: %w", err)
	}
	defer rows.Close()
	want := map[string]bool{}
	for _, k := range statusKeys {
		want[k] = true
	}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		if want[k] {
			var n int64
			_, _ = fmt.Sscan(v, &n)
			out[k] = n
		}
	}
	return out, rows.Err()
}

func delta(a, b map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for k, v := range b {
		out[k] = v - a[k]
	}
	return out
}
