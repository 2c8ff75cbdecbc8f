// Package testdb makes an empty MariaDB/MySQL or PostgreSQL database for one
// test and drops it at the test's end. It knows nothing of the schema, so
// the store's own tests (package schema) and the helpers built on the store
// (internal/testsupport/storetest) share it.
package testdb

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

const (
	// EnvMySQL names a go-sql-driver DSN without a database (for example
	// "xxl:xxl_pwd@tcp(127.0.0.1:3306)/") of a user that may create
	// databases; unset, MySQL tests are skipped.
	EnvMySQL = "XXL_TEST_MYSQL_DSN"
	// EnvPostgres names a pgx DSN (for example
	// "postgres://xxl:xxl_pwd@127.0.0.1:5432/postgres?sslmode=disable") of a
	// role that may create databases; unset, PostgreSQL tests are skipped.
	EnvPostgres = "XXL_TEST_POSTGRES_DSN"
)

// Database is an empty database made for one test.
type Database struct {
	mysql          bool
	addr           string // host:port
	name           string
	user, password string
	tls            bool
}

// Name is the database's name.
func (d Database) Name() string { return d.name }

// User and Password are the credentials of the DSN that made it.
func (d Database) User() string     { return d.user }
func (d Database) Password() string { return d.password }

// JDBC is the database's JDBC URL, as a spring.datasource.url, with query
// appended (e.g. "serverTimezone=UTC&useSSL=false"); a PostgreSQL URL
// starts its query with the DSN's sslmode.
func (d Database) JDBC(query string) string {
	if d.mysql {
		return "jdbc:mysql://" + d.addr + "/" + d.name + "?" + query
	}
	sslmode := "disable"
	if d.tls {
		sslmode = "require"
	}
	if query != "" {
		query = "&" + query
	}
	return "jdbc:postgresql://" + d.addr + "/" + d.name + "?sslmode=" + sslmode + query
}

// MySQL creates database xxl_t_<random> (utf8mb4) through EnvMySQL's DSN
// and drops it when the test ends; it skips the test when EnvMySQL is not
// set.
func MySQL(tb testing.TB) Database {
	tb.Helper()
	dsn := os.Getenv(EnvMySQL)
	if dsn == "" {
		tb.Skip("mysql: " + EnvMySQL + " not set")
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		tb.Fatalf("%s: %v", EnvMySQL, err)
	}
	name := randomName()
	MySQLExec(tb, "CREATE DATABASE "+name+" DEFAULT CHARACTER SET utf8mb4")
	tb.Cleanup(func() { MySQLExec(tb, "DROP DATABASE IF EXISTS "+name) })
	return Database{mysql: true, addr: cfg.Addr, name: name, user: cfg.User, password: cfg.Passwd}
}

// MySQLExec runs one statement on EnvMySQL's DSN (no database selected).
func MySQLExec(tb testing.TB, stmt string) {
	tb.Helper()
	db, err := sql.Open("mysql", os.Getenv(EnvMySQL))
	if err != nil {
		tb.Fatalf("open %s: %v", EnvMySQL, err)
	}
	defer db.Close()
	if _, err := db.Exec(stmt); err != nil {
		tb.Fatalf("%s: %v", stmt, err)
	}
}

// Postgres creates database xxl_t_<random> (UTF8) through EnvPostgres's
// DSN and drops it when the test ends; it skips the test when EnvPostgres
// is not set.
func Postgres(tb testing.TB) Database {
	tb.Helper()
	dsn := os.Getenv(EnvPostgres)
	if dsn == "" {
		tb.Skip("[suite-off] postgres: " + EnvPostgres + " not set")
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		tb.Fatalf("%s: %v", EnvPostgres, err)
	}
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		tb.Fatalf("open %s: %v", EnvPostgres, err)
	}
	admin.SetMaxOpenConns(1)
	name := randomName()
	if _, err := admin.Exec("CREATE DATABASE " + name + " ENCODING 'UTF8' TEMPLATE template0"); err != nil {
		admin.Close()
		tb.Fatalf("create database: %v", err)
	}
	tb.Cleanup(func() {
		defer admin.Close()
		dropPostgres(tb, admin, name)
	})
	return Database{addr: fmt.Sprintf("%s:%d", cfg.Host, cfg.Port), name: name, user: cfg.User,
		password: cfg.Password, tls: cfg.TLSConfig != nil}
}

// dropPostgres drops a test database, retrying for a few seconds: WITH
// (FORCE) ends the sessions of our role (a store a test leaked must not keep
// the database alive), but an autovacuum worker in it belongs to the
// superuser, which a CREATEDB role may not end (42501), and it is gone a
// moment later. A database still there after that is logged, not failed:
// the test itself has passed.
func dropPostgres(tb testing.TB, admin *sql.DB, name string) {
	for attempt := 0; ; attempt++ {
		_, err := admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		if err == nil {
			return
		}
		if attempt == 20 {
			tb.Logf("test database %s left behind: %v", name, err)
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func randomName() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "xxl_t_" + hex.EncodeToString(b)
}
