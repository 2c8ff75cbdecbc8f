package report

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

var errRefused = errors.New("dial tcp 127.0.0.1:3306: connect: connection refused")

// faultyStore wraps the real store and fails every call while down, as a
// database outage does; it counts the cleanups that reached the DB.
type faultyStore struct {
	Store
	down    atomic.Bool
	selects atomic.Int32
}

func (f *faultyStore) LogDayTally(ctx context.Context, from, to time.Time, below int64) (schema.DayTally, error) {
	if f.down.Load() {
		return schema.DayTally{}, errRefused
	}
	return f.Store.LogDayTally(ctx, from, to, below)
}

func (f *faultyStore) LogNextID(ctx context.Context) (int64, error) {
	if f.down.Load() {
		return 0, errRefused
	}
	return f.Store.LogNextID(ctx)
}

func (f *faultyStore) LogStatesFrom(ctx context.Context, from, below int64, size int) ([]schema.LogState, error) {
	if f.down.Load() {
		return nil, errRefused
	}
	return f.Store.LogStatesFrom(ctx, from, below, size)
}

func (f *faultyStore) LogStatesByID(ctx context.Context, ids []int64) ([]schema.LogState, error) {
	if f.down.Load() {
		return nil, errRefused
	}
	return f.Store.LogStatesByID(ctx, ids)
}

func (f *faultyStore) ReportUpdate(ctx context.Context, r schema.LogReport) (int64, error) {
	if f.down.Load() {
		return 0, errRefused
	}
	return f.Store.ReportUpdate(ctx, r)
}

func (f *faultyStore) ReportSave(ctx context.Context, r schema.LogReport) error {
	if f.down.Load() {
		return errRefused
	}
	return f.Store.ReportSave(ctx, r)
}

func (f *faultyStore) LogClearBound(ctx context.Context, before time.Time) (int64, bool, error) {
	if f.down.Load() {
		return 0, false, errRefused
	}
	f.selects.Add(1)
	return f.Store.LogClearBound(ctx, before)
}

func (f *faultyStore) LogFindClearIDsAfter(ctx context.Context, after, bound int64, before time.Time, size int) ([]int64, error) {
	if f.down.Load() {
		return nil, errRefused
	}
	return f.Store.LogFindClearIDsAfter(ctx, after, bound, before, size)
}

func (f *faultyStore) LogClear(ctx context.Context, ids []int64) (int64, error) {
	if f.down.Load() {
		return 0, errRefused
	}
	return f.Store.LogClear(ctx, ids)
}

// syncBuffer is a log sink both loops write to.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines(level, msg string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, l := range strings.Split(s.b.String(), "\n") {
		if strings.Contains(l, `"level":"`+level+`"`) && strings.Contains(l, msg) {
			out = append(out, l)
		}
	}
	return out
}

type pass struct {
	duty string
	err  error
}

// TestOutage runs the component through a database outage (scheduler.md
// §11: the port logs and retries where Java's thread dies): each duty logs
// the cause once however many passes fail, logs one recovery line, and
// then works again; the daily cleanup that failed is redone on recovery and
// not again until 24 h later.
func TestOutage(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		loc := zone(t)
		now := time.Date(2024, 6, 30, 12, 0, 0, 0, loc)
		clock := &fixedClock{t: now}
		old := addLog(t, b.store, now.AddDate(0, 0, -40), 200, 200)
		fs := &faultyStore{Store: b.store}
		fs.down.Store(true)
		var logs syncBuffer
		r := New(Config{Store: fs, Loc: loc, RetentionDays: 30, Interval: time.Millisecond, Now: clock.now, Log: zerolog.New(&logs)})
		events, quit := make(chan pass), make(chan struct{})
		r.afterPass = func(duty string, err error) {
			select {
			case events <- pass{duty, err}:
			case <-quit:
			}
		}
		// wait consumes passes until done says it has seen enough.
		wait := func(done func(p pass) bool) {
			t.Helper()
			timeout := time.After(30 * time.Second)
			for {
				select {
				case p := <-events:
					if done(p) {
						return
					}
				case <-timeout:
					t.Fatal("timed out waiting for passes")
				}
			}
		}
		if err := r.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		stopped := false
		stop := func() {
			if !stopped {
				stopped = true
				close(quit)
				r.Stop()
			}
		}
		defer stop()

		failed := map[string]int{}
		wait(func(p pass) bool {
			if p.err == nil {
				t.Fatalf("%s pass succeeded during the outage", p.duty)
			}
			failed[p.duty]++
			return failed["refresh"] >= 3 && failed["retention"] >= 3
		})
		fs.down.Store(false)
		ok := map[string]int{}
		wait(func(p pass) bool {
			if p.err == nil {
				ok[p.duty]++
			}
			return ok["refresh"] >= 3 && ok["retention"] >= 3
		})
		if n := fs.selects.Load(); n != 1 {
			t.Errorf("cleanup selects after recovery %d, want 1 (once a day)", n)
		}
		if ids := logIDs(t, b); len(ids) != 0 {
			t.Errorf("logs left %v, want log %d deleted on recovery", ids, old)
		}
		clock.set(now.Add(24*time.Hour + time.Second))
		wait(func(p pass) bool { return fs.selects.Load() == 2 })
		stop()

		for _, c := range []struct {
			level, msg string
			cause      bool
		}{
			{"error", "log report refresh failed", true},
			{"error", "log retention cleanup failed", true},
			{"info", "log report refresh recovered", false},
			{"info", "log retention cleanup recovered", false},
		} {
			got := logs.lines(c.level, c.msg)
			if len(got) != 1 {
				t.Errorf("%q logged %d times, want once: %q", c.msg, len(got), got)
				continue
			}
			if c.cause && !strings.Contains(got[0], "connection refused") {
				t.Errorf("%q without its cause: %s", c.msg, got[0])
			}
		}
		rows, err := b.store.ReportQuery(context.Background(), time.Date(2024, 6, 28, 0, 0, 0, 0, loc), now)
		if err != nil || len(rows) != 3 {
			t.Errorf("report rows after recovery %d, %v; want 3", len(rows), err)
		}
	})
}
