package report

import (
	"context"
	"database/sql"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// testZone is the admin zone of the tests: the official image's TZ=PRC
// (scheduler.md §13), so local days differ from UTC days.
const testZone = "Asia/Shanghai"

// backend is a prepared store plus a raw handle on the same database, for
// fixtures and independent counts the store API does not offer.
type backend struct {
	store *schema.Store
	raw   *sql.DB
}

// forEachBackend runs fn as subtests "sqlite", "mysql" (skipped without
// XXL_TEST_MYSQL_DSN) and "postgres" (skipped without
// XXL_TEST_POSTGRES_DSN), each on a fresh database.
func forEachBackend(t *testing.T, fn func(t *testing.T, b backend)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, openSQLite(t)) })
	t.Run("mysql", func(t *testing.T) { fn(t, openMySQL(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, openPostgres(t)) })
}

func openPostgres(tb testing.TB) backend {
	tb.Helper()
	url, user, pass := storetest.PostgresURL(tb)
	return openURL(tb, url, user, pass)
}

func openSQLite(tb testing.TB) backend {
	tb.Helper()
	return openURL(tb, "jdbc:sqlite:"+filepath.Join(tb.TempDir(), "x.db")+"?serverTimezone="+testZone, "", "")
}

func openMySQL(tb testing.TB) backend {
	tb.Helper()
	url, user, pass := storetest.MySQLURL(tb)
	return openURL(tb, url, user, pass)
}

func openURL(tb testing.TB, url, user, pass string) backend {
	tb.Helper()
	target, err := schema.ParseJDBC(url, user, pass)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := schema.Open(context.Background(), target, schema.PoolSettings{MaxOpen: 10, MaxIdle: 10})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	if _, err := s.Prepare(context.Background(), schema.PrepareOptions{}); err != nil {
		tb.Fatal(err)
	}
	raw, err := sql.Open(target.Driver, target.DSN)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = raw.Close() })
	return backend{store: s, raw: raw}
}

func zone(tb testing.TB) *time.Location {
	tb.Helper()
	loc, err := time.LoadLocation(testZone)
	if err != nil {
		tb.Fatal(err)
	}
	return loc
}

// fixedClock is an injectable clock tests move by hand while loops read it.
type fixedClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fixedClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fixedClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// addLog writes a log the way the trigger flow and a callback do: save,
// trigger info, handle info (schema.md §4.3).
func addLog(tb testing.TB, s *schema.Store, at time.Time, triggerCode, handleCode int) int64 {
	tb.Helper()
	return testfactory.Log(tb, s, testfactory.LogOpts{TriggerTime: at, TriggerCode: triggerCode, HandleCode: handleCode}).ID
}
