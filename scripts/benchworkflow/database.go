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
	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

const (
	envMySQL    = "XXL_TEST_MYSQL_DSN"
	envPostgres = "XXL_TEST_POSTGRES_DSN"
)

// database is one run's empty database: its JDBC URL and credentials,
// and how to drop it.
type database struct {
	url, user, pass string
	drop            func()
}

// newDatabase creates an empty database of kind mysql (through
// XXL_TEST_MYSQL_DSN), postgres (XXL_TEST_POSTGRES_DSN) or sqlite (a file
// under dir).
func newDatabase(ctx context.Context, kind, dir string) (*database, error) {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "xxl_wfbench_" + hex.EncodeToString(b)
	switch kind {
	case "sqlite":
		return &database{url: "jdbc:sqlite:" + filepath.Join(dir, "bench.db"), drop: func() {}}, nil
	case "mysql":
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
		if _, err := server.ExecContext(ctx, "CREATE DATABASE "+name+" DEFAULT CHARACTER SET utf8mb4"); err != nil {
			server.Close()
			return nil, fmt.Errorf("create database: %w", err)
		}
		return &database{url: fmt.Sprintf("jdbc:mysql://%s/%s?serverTimezone=UTC", cfg.Addr, name), user: cfg.User, pass: cfg.Passwd,
			drop: func() {
				_, _ = server.Exec("DROP DATABASE IF EXISTS " + name)
				server.Close()
			}}, nil
	case "postgres":
		dsn := os.Getenv(envPostgres)
		if dsn == "" {
			return nil, fmt.Errorf("-db postgres needs %s", envPostgres)
		}
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", envPostgres, err)
		}
		server, err := sql.Open("pgx", dsn)
		if err != nil {
			return nil, err
		}
		server.SetMaxOpenConns(1)
		if _, err := server.ExecContext(ctx, "CREATE DATABASE "+name+" ENCODING 'UTF8' TEMPLATE template0"); err != nil {
			server.Close()
			return nil, fmt.Errorf("create database: %w", err)
		}
		return &database{url: fmt.Sprintf("jdbc:postgresql://%s:%d/%s?sslmode=disable", cfg.Host, cfg.Port, name),
			user: cfg.User, pass: cfg.Password,
			drop: func() {
				_, _ = server.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
				server.Close()
			}}, nil
	}
	return nil, fmt.Errorf("-db %q: want mysql, postgres or sqlite", kind)
}
