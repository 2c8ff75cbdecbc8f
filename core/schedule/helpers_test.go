package schedule

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/clock"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// t0 is a whole minute, so ring slots equal the seconds added to it.
var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func ms(d time.Duration) int64 { return t0.Add(d).UnixMilli() }

// opener opens further stores on one database, as separate admins would.
type opener func(tb testing.TB) *schema.Store

// forEachBackend runs fn on a fresh prepared database per backend:
// "sqlite" always, "mysql" when XXL_TEST_MYSQL_DSN is set, "postgres" when
// XXL_TEST_POSTGRES_DSN is.
func forEachBackend(t *testing.T, fn func(t *testing.T, open opener)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		fn(t, sqliteDB(t))
	})
	forEachServer(t, true, fn)
}

// forEachServer runs fn on a fresh prepared database per server backend,
// the ones with row locks and separate connections: "mysql" and
// "postgres", each skipped when its suite is off. Tests that count fires
// to the second run them one after the other (parallel false).
func forEachServer(t *testing.T, parallel bool, fn func(t *testing.T, open opener)) {
	t.Helper()
	for _, b := range []struct {
		name string
		db   func(testing.TB) opener
	}{{"mysql", mysqlDB}, {"postgres", postgresDB}} {
		t.Run(b.name, func(t *testing.T) {
			open := b.db(t)
			if parallel {
				t.Parallel()
			}
			fn(t, open)
		})
	}
}

func sqliteDB(tb testing.TB) opener {
	return prepared(tb, storetest.SQLiteURL(tb, ""), "", "")
}

// mysqlDB creates a database of its own (skipping without MariaDB).
func mysqlDB(tb testing.TB) opener {
	url, user, pass := storetest.MySQLURLZone(tb, "UTC")
	return prepared(tb, url, user, pass)
}

// postgresDB creates a PostgreSQL database of its own (skipping without
// XXL_TEST_POSTGRES_DSN).
func postgresDB(tb testing.TB) opener {
	url, user, pass := storetest.PostgresURLZone(tb, "UTC")
	return prepared(tb, url, user, pass)
}

// prepared creates the schema once and returns an opener of new pools.
func prepared(tb testing.TB, url, user, pass string) opener {
	open := func(tb testing.TB) *schema.Store {
		target, err := schema.ParseJDBC(url, user, pass)
		if err != nil {
			tb.Fatalf("ParseJDBC: %v", err)
		}
		s, err := schema.Open(context.Background(), target, schema.PoolSettings{MaxOpen: 10, MaxIdle: 10})
		if err != nil {
			tb.Fatalf("Open: %v", err)
		}
		tb.Cleanup(func() { _ = s.Close() })
		return s
	}
	if _, err := open(tb).Prepare(context.Background(), schema.PrepareOptions{}); err != nil {
		tb.Fatalf("Prepare: %v", err)
	}
	return open
}

// jobSpec is the scheduling part of an xxl_job_info row.
type jobSpec struct {
	typ, conf, misfire string
	status             int
	next               int64
}

func addJob(tb testing.TB, st *schema.Store, j jobSpec) int {
	tb.Helper()
	if j.misfire == "" {
		j.misfire = "DO_NOTHING"
	}
	id, err := st.JobSave(context.Background(), testfactory.JobRow(testfactory.JobOpts{Desc: "t",
		ScheduleType: j.typ, ScheduleConf: j.conf, Misfire: j.misfire, Handler: "h", Status: j.status, Next: j.next}))
	if err != nil {
		tb.Fatalf("JobSave: %v", err)
	}
	return id
}

// triggerState is the part of a job row the loop writes.
type triggerState struct {
	status     int
	last, next int64
}

func loadState(tb testing.TB, st *schema.Store, id int) triggerState {
	tb.Helper()
	j, err := st.JobLoad(context.Background(), id)
	if err != nil {
		tb.Fatalf("JobLoad: %v", err)
	}
	return triggerState{j.TriggerStatus, j.TriggerLastTime, j.TriggerNextTime}
}

// recorder is a Submitter that remembers every request and the clock time.
type recorder struct {
	clock clock.Clock
	mu    sync.Mutex
	calls []call
	err   error
}

type call struct {
	req trigger.Request
	at  time.Time
}

func (r *recorder) Submit(req trigger.Request) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var at time.Time
	if r.clock != nil {
		at = r.clock.Now()
	}
	r.calls = append(r.calls, call{req, at})
	return r.err
}

// take returns and forgets the calls so far.
func (r *recorder) take() []call {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.calls
	r.calls = nil
	return out
}

// fired is a compact view of a call for table comparisons.
type fired struct {
	job int
	typ trigger.Type
}

func firedOf(cs []call) []fired {
	out := make([]fired, 0, len(cs))
	for _, c := range cs {
		if c.req.FailRetryCount != -1 || c.req.ExecutorParam != nil || c.req.ShardingParam != "" || c.req.AddressList != "" {
			panic(fmt.Sprintf("scheduler trigger carries overrides: %+v", c.req))
		}
		out = append(out, fired{c.req.JobID, c.req.Type})
	}
	return out
}

func newScheduler(tb testing.TB, st *schema.Store, sub trigger.Submitter, clk clock.Clock) *Scheduler {
	tb.Helper()
	s, err := New(Config{Store: st, Submit: sub, PreReadCount: 6000, Loc: time.UTC, Clock: clk, Log: zerolog.Nop()})
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	return s
}

// testCtx bounds waits on the fake clock so a broken loop fails the test
// instead of hanging it.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
