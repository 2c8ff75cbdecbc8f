package schema

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testdb"
	"go.uber.org/goleak"
)

// mysqlDSNEnv and postgresDSNEnv switch the MySQL/MariaDB and PostgreSQL
// runs of every backend test on (see testdb).
const (
	mysqlDSNEnv    = testdb.EnvMySQL
	postgresDSNEnv = testdb.EnvPostgres
)

// testZone is the zone every test store uses, the one of the default
// spring.datasource.url (schema.md §3), so that wall times differ from UTC.
const testZone = "Asia/Shanghai"

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// forEachBackend runs fn once per backend, each on a fresh empty database:
// subtest "sqlite" always, subtest "mysql" only when XXL_TEST_MYSQL_DSN is
// set, subtest "postgres" only when XXL_TEST_POSTGRES_DSN is (they are
// skipped otherwise, so CI can see the gap).
func forEachBackend(t *testing.T, fn func(t *testing.T, s *Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		fn(t, openSQLite(t))
	})
	t.Run("mysql", func(t *testing.T) {
		if os.Getenv(mysqlDSNEnv) == "" {
			t.Skip(mysqlDSNEnv + " not set")
		}
		t.Parallel()
		fn(t, openMySQL(t))
	})
	t.Run("postgres", func(t *testing.T) {
		if os.Getenv(postgresDSNEnv) == "" {
			t.Skip("[suite-off] " + postgresDSNEnv + " not set")
		}
		t.Parallel()
		fn(t, openPostgres(t))
	})
}

// forEachPrepared is forEachBackend on a database Prepare has created, i.e.
// the 2.4.2 tables with their seed rows (schema.md §1, §2).
func forEachPrepared(t *testing.T, fn func(t *testing.T, s *Store)) {
	t.Helper()
	forEachBackend(t, func(t *testing.T, s *Store) {
		if _, err := s.Prepare(context.Background(), PrepareOptions{}); err != nil {
			t.Fatalf("Prepare: %v", err)
		}
		fn(t, s)
	})
}

func openSQLite(tb testing.TB) *Store {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "data", "xxl_job.db")
	target, err := ParseJDBC("jdbc:sqlite:"+path+"?serverTimezone="+testZone, "", "")
	if err != nil {
		tb.Fatalf("ParseJDBC: %v", err)
	}
	return openTarget(tb, target)
}

// openMySQL opens a new database (testdb) the way the admin does: through
// a jdbc:mysql URL with the usual options and serverTimezone set.
func openMySQL(tb testing.TB) *Store {
	tb.Helper()
	db := testdb.MySQL(tb)
	return openURL(tb, db.JDBC("useUnicode=true&characterEncoding=UTF-8&autoReconnect=true&serverTimezone="+testZone+"&useSSL=false"),
		db.User(), db.Password())
}

// openPostgres opens a new PostgreSQL database (testdb) through a
// jdbc:postgresql URL.
func openPostgres(tb testing.TB) *Store {
	tb.Helper()
	db := testdb.Postgres(tb)
	return openURL(tb, db.JDBC("serverTimezone="+testZone), db.User(), db.Password())
}

func openURL(tb testing.TB, url, user, pass string) *Store {
	tb.Helper()
	target, err := ParseJDBC(url, user, pass)
	if err != nil {
		tb.Fatalf("ParseJDBC: %v", err)
	}
	return openTarget(tb, target)
}

func openTarget(tb testing.TB, target Target) *Store {
	tb.Helper()
	s, err := Open(context.Background(), target, PoolSettings{MaxOpen: 10, MaxIdle: 10})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

// at is a whole-second wall time in the store's zone (DATETIME has no
// fraction, schema.md §3).
func at(s *Store, y int, mo time.Month, d, h, mi, sec int) time.Time {
	return time.Date(y, mo, d, h, mi, sec, 0, s.Location())
}

// rawExec runs a statement outside the Store's methods, for fixtures the
// store API cannot produce (hand-made tables, raw column reads). '?'
// placeholders work on every backend.
func rawExec(t *testing.T, s *Store, stmt string, args ...any) {
	t.Helper()
	if _, err := s.q.ExecContext(context.Background(), stmt, args...); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// rawString reads one value as text. CAST(x AS CHAR) is MySQL's spelling
// (PostgreSQL's CHAR is one character): it becomes AS TEXT there.
func rawString(t *testing.T, s *Store, query string, args ...any) *string {
	t.Helper()
	if s.Backend() == Postgres {
		query = strings.ReplaceAll(query, " AS CHAR)", " AS TEXT)")
	}
	var v sql.NullString
	if err := s.q.QueryRowContext(context.Background(), query, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	if !v.Valid {
		return nil
	}
	return &v.String
}

// assertRow compares two rows field by field: times by instant, pointers by
// what they point to (nil only equals nil), everything else exactly.
func assertRow(t *testing.T, got, want any) {
	t.Helper()
	gv, wv := reflect.ValueOf(got), reflect.ValueOf(want)
	if gv.Type() != wv.Type() {
		t.Fatalf("type %s != %s", gv.Type(), wv.Type())
	}
	for i := range gv.NumField() {
		name := gv.Type().Field(i).Name
		if msg := fieldDiff(gv.Field(i), wv.Field(i)); msg != "" {
			t.Errorf("%s.%s: %s", gv.Type().Name(), name, msg)
		}
	}
}

func fieldDiff(g, w reflect.Value) string {
	if g.Kind() == reflect.Pointer {
		switch {
		case g.IsNil() && w.IsNil():
			return ""
		case g.IsNil() || w.IsNil():
			return fmt.Sprintf("got %s, want %s", show(g), show(w))
		}
		g, w = g.Elem(), w.Elem()
	}
	if gt, ok := g.Interface().(time.Time); ok {
		if !gt.Equal(w.Interface().(time.Time)) {
			return fmt.Sprintf("got %s, want %s", gt, w.Interface())
		}
		return ""
	}
	if !reflect.DeepEqual(g.Interface(), w.Interface()) {
		return fmt.Sprintf("got %s, want %s", show(g), show(w))
	}
	return ""
}

func show(v reflect.Value) string {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return "nil"
		}
		v = v.Elem()
	}
	s := fmt.Sprintf("%q", fmt.Sprint(v.Interface()))
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

func mustNoErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
