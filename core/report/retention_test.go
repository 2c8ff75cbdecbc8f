package report

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

func logIDs(t *testing.T, b backend) []int64 {
	t.Helper()
	rows, err := b.raw.Query("SELECT id FROM xxl_job_log ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// TestRetention checks that cleanup deletes exactly the logs triggered at
// or before local midnight of today − N days (trigger_time <= clearBefore,
// scheduler.md §11, schema.md §4.3 findClearLogIds), over several batches,
// and that values below 7 disable it (config.md §2.4).
func TestRetention(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		loc := zone(t)
		now := time.Date(2024, 6, 30, 12, 0, 0, 0, loc)
		limit := time.Date(2024, 5, 31, 0, 0, 0, 0, loc) // 30 days before 30 June
		old := []int64{
			addLog(t, b.store, limit.AddDate(-1, 0, 0), 200, 200),
			addLog(t, b.store, limit.Add(-time.Second), 200, 0),
			addLog(t, b.store, limit, 500, 0), // exactly at the limit: deleted
		}
		for i := range 5 {
			old = append(old, addLog(t, b.store, limit.Add(-time.Duration(i+2)*time.Hour), 200, 200))
		}
		kept := []int64{
			addLog(t, b.store, limit.Add(time.Second), 200, 200), // one second after: kept
			addLog(t, b.store, now, 200, 0),
			addLog(t, b.store, limit.AddDate(0, 0, 1), 200, 500),
		}

		for _, days := range []int{-1, 0, 6} {
			r := New(Config{Store: b.store, Loc: loc, RetentionDays: days, Now: func() time.Time { return now }})
			n, err := r.CleanNow(ctx)
			if err != nil || n != 0 {
				t.Fatalf("retention %d days: CleanNow = %d, %v; want disabled", days, n, err)
			}
		}
		if got := logIDs(t, b); len(got) != len(old)+len(kept) {
			t.Fatalf("disabled retention deleted logs: %d left", len(got))
		}

		var batches []int
		obs := &reportObserver{}
		r := New(Config{Store: b.store, Loc: loc, RetentionDays: 30, BatchSize: 3, Now: func() time.Time { return now }, Observer: obs})
		r.afterBatch = func(n int, _ time.Duration) { batches = append(batches, n) }
		n, err := r.CleanNow(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n != len(old) {
			t.Errorf("deleted %d, want %d", n, len(old))
		}
		if !slices.Equal(batches, []int{3, 3, 2}) {
			t.Errorf("batches %v, want [3 3 2]", batches)
		}
		if obs.deleted != len(old) || obs.passes["retention"] != 1 {
			t.Errorf("observer saw %d deleted and passes %v, want %d and one retention pass", obs.deleted, obs.passes, len(old))
		}
		slices.Sort(kept)
		if got := logIDs(t, b); !slices.Equal(got, kept) {
			t.Errorf("left %v, want %v", got, kept)
		}
		if n, err := r.CleanNow(ctx); err != nil || n != 0 {
			t.Errorf("second CleanNow = %d, %v; want 0", n, err)
		}
	})
}

// countingStore is a Store without a database that counts cleanup selects
// and fails while err is set.
type countingStore struct {
	selects int
	err     error
}

func (s *countingStore) LogDayTally(context.Context, time.Time, time.Time, int64) (schema.DayTally, error) {
	return schema.DayTally{}, s.err
}
func (s *countingStore) LogNextID(context.Context) (int64, error) { return 1, s.err }
func (s *countingStore) LogStatesFrom(context.Context, int64, int64, int) ([]schema.LogState, error) {
	return nil, s.err
}
func (s *countingStore) LogStatesByID(context.Context, []int64) ([]schema.LogState, error) {
	return nil, s.err
}
func (s *countingStore) ReportUpdate(context.Context, schema.LogReport) (int64, error) {
	return 1, s.err
}
func (s *countingStore) ReportSave(context.Context, schema.LogReport) error { return s.err }
func (s *countingStore) LogClearBound(context.Context, time.Time) (int64, bool, error) {
	s.selects++
	return 0, false, s.err
}
func (s *countingStore) LogFindClearIDsAfter(context.Context, int64, int64, time.Time, int) ([]int64, error) {
	return nil, s.err
}
func (s *countingStore) LogClear(context.Context, []int64) (int64, error) { return 0, s.err }

// TestCleanIfDue checks the once-a-day rule: the first pass cleans, the
// next only after more than 24 h (scheduler.md §11), and a failed cleanup
// is retried on the next pass instead of waiting a day.
func TestCleanIfDue(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2024, 6, 30, 12, 0, 0, 0, zone(t))
	st := &countingStore{}
	clock := &fixedClock{t: t0}
	r := New(Config{Store: st, Loc: zone(t), RetentionDays: 7, Now: clock.now})
	steps := []struct {
		at      time.Duration
		fail    bool
		cleaned bool
	}{
		{0, false, true},                            // first pass after start
		{time.Minute, false, false},                 // same day
		{24 * time.Hour, false, false},              // exactly 24 h: not more than
		{24*time.Hour + time.Second, true, true},    // due, but the database fails
		{24*time.Hour + 2*time.Second, false, true}, // retried at once
		{48 * time.Hour, false, false},              // 24 h counted from the success
	}
	for i, s := range steps {
		clock.set(t0.Add(s.at))
		st.err = nil
		if s.fail {
			st.err = errors.New("connection refused")
		}
		before := st.selects
		err := r.cleanIfDue(ctx)
		if (err != nil) != s.fail {
			t.Errorf("step %d: err %v", i, err)
		}
		if cleaned := st.selects > before; cleaned != s.cleaned {
			t.Errorf("step %d (+%v): cleaned %v, want %v", i, s.at, cleaned, s.cleaned)
		}
	}
}

// reportObserver records what the reporter reports to metrics.
type reportObserver struct {
	deleted int
	passes  map[string]int
}

func (o *reportObserver) MonitorPass(monitor string, _ time.Duration) {
	if o.passes == nil {
		o.passes = map[string]int{}
	}
	o.passes[monitor]++
}

func (o *reportObserver) RetentionDeleted(n int) { o.deleted += n }
