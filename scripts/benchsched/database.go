package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-sql-driver/mysql"
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
