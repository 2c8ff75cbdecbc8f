// Package storetest opens fresh stores for tests: an SQLite file always, a
// MariaDB/MySQL database of its own when XXL_TEST_MYSQL_DSN is set and a
// PostgreSQL one when XXL_TEST_POSTGRES_DSN is (skipped otherwise, so `make
// test` passes on a machine without them and CI can count the skips).
package storetest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testdb"
)

// EnvMySQL and EnvPostgres name the variables that switch the MySQL and
// PostgreSQL stores on (see testdb).
const (
	EnvMySQL    = testdb.EnvMySQL
	EnvPostgres = testdb.EnvPostgres
)

// ForEach runs fn as subtests "sqlite", "mysql" and "postgres", each with a
// prepared store (2.4.x tables and seed rows) on a database of its own.
func ForEach(t *testing.T, fn func(t *testing.T, s *schema.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("mysql", func(t *testing.T) { fn(t, MySQL(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// ForEach3 is ForEach on databases created as xxl-job 3.4.2's (the 3.x
// generation: token login, Response envelope, 3.4.2 tables and seed rows).
func ForEach3(t *testing.T, fn func(t *testing.T, s *schema.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, OpenGen(t, schema.Gen3, SQLiteURL(t, ""), "", "")) })
	t.Run("mysql", func(t *testing.T) { url, user, pass := MySQLURL(t); fn(t, OpenGen(t, schema.Gen3, url, user, pass)) })
	t.Run("postgres", func(t *testing.T) {
		url, user, pass := PostgresURL(t)
		fn(t, OpenGen(t, schema.Gen3, url, user, pass))
	})
}

// SQLite opens a prepared store on a new file in t.TempDir().
func SQLite(t testing.TB) *schema.Store {
	t.Helper()
	return Open(t, SQLiteURL(t, ""), "", "")
}

// SQLiteURL is the JDBC URL of a new SQLite file in t.TempDir(), with an
// optional query (e.g. "serverTimezone=Asia/Shanghai").
func SQLiteURL(t testing.TB, query string) string {
	url := "jdbc:sqlite:" + filepath.Join(t.TempDir(), "xxl-job.db")
	if query != "" {
		url += "?" + query
	}
	return url
}

// MySQL creates a database, opens a prepared store on it and drops it at the
// end of the test; it skips the test when EnvMySQL is not set.
func MySQL(t testing.TB) *schema.Store {
	t.Helper()
	url, user, pass := MySQLURL(t)
	return Open(t, url, user, pass)
}

// MySQLURL creates an empty database for the test and returns its JDBC URL
// and credentials, for tests that start whole admins on it.
func MySQLURL(t testing.TB) (url, user, pass string) {
	t.Helper()
	return MySQLURLZone(t, "Asia/Shanghai")
}

// MySQLURLZone is MySQLURL with the given serverTimezone.
func MySQLURLZone(t testing.TB, zone string) (url, user, pass string) {
	t.Helper()
	db := testdb.MySQL(t)
	return db.JDBC("serverTimezone=" + zone + "&useSSL=false"), db.User(), db.Password()
}

// Postgres creates a database, opens a prepared store on it and drops it at
// the end of the test; it skips the test when EnvPostgres is not set.
func Postgres(t testing.TB) *schema.Store {
	t.Helper()
	url, user, pass := PostgresURL(t)
	return Open(t, url, user, pass)
}

// PostgresURL creates an empty PostgreSQL database for the test and returns
// its JDBC URL and credentials, for tests that start whole admins on it.
func PostgresURL(t testing.TB) (url, user, pass string) {
	t.Helper()
	return PostgresURLZone(t, "Asia/Shanghai")
}

// PostgresURLZone is PostgresURL with the given zone of the timestamp
// columns (serverTimezone, as on the MySQL URLs).
func PostgresURLZone(t testing.TB, zone string) (url, user, pass string) {
	t.Helper()
	db := testdb.Postgres(t)
	return db.JDBC("serverTimezone=" + zone), db.User(), db.Password()
}

// Open opens a store on url with a pool of 20 and prepares the schema
// (an empty database gets the 2.4.x tables).
func Open(t testing.TB, url, user, pass string) *schema.Store {
	t.Helper()
	return OpenGen(t, schema.Gen2, url, user, pass)
}

// OpenGen is Open creating an empty database as generation gen.
func OpenGen(t testing.TB, gen schema.Generation, url, user, pass string) *schema.Store {
	t.Helper()
	target, err := schema.ParseJDBC(url, user, pass)
	if err != nil {
		t.Fatal(err)
	}
	s, err := schema.Open(context.Background(), target, schema.PoolSettings{MaxOpen: 20, MaxIdle: 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Prepare(context.Background(), schema.PrepareOptions{Create: gen}); err != nil {
		t.Fatal(err)
	}
	return s
}

// WithScheduleTimezone adds the optional xxl_job_info.schedule_timezone
// column (per-job time zones) to a prepared store's database and returns
// the store, which reads and writes jobs with it from then on.
func WithScheduleTimezone(t testing.TB, s *schema.Store) *schema.Store {
	t.Helper()
	if err := s.AddScheduleTimezone(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// WaitScheduleLockWaiter returns once another session is blocked on the
// schedule lock (MariaDB/MySQL and PostgreSQL report it); it fails the test if done
// delivers first, i.e. the caller that should wait got through. SQLite has
// no such report: there the waiter only gets a short grace to wrongly get in.
func WaitScheduleLockWaiter(t testing.TB, s *schema.Store, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	grace := time.Duration(0)
	if s.Backend() == schema.SQLite {
		grace = 300 * time.Millisecond
	}
	for {
		select {
		case err := <-done:
			t.Fatalf("the waiter got past the schedule lock while it was held (err %v)", err)
		case <-time.After(grace):
		}
		n, ok, err := s.ScheduleLockWaiters(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !ok || n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no session ever blocked on the schedule lock")
		}
		grace = 10 * time.Millisecond // polling information_schema: no event to wait on
	}
}
