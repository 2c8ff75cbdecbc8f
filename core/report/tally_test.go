package report

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// tallyCounter counts the whole-day counts the reporter asks for.
type tallyCounter struct {
	Store
	whole atomic.Int32
}

func (c *tallyCounter) LogDayTally(ctx context.Context, from, to time.Time, below int64) (schema.DayTally, error) {
	c.whole.Add(1)
	return c.Store.LogDayTally(ctx, from, to, below)
}

// TestTallyFollowsChanges (issue 27): between whole counts, refreshes that
// read only new and running rows keep the report equal to an independent
// count while logs are added to every day (and outside the window),
// finished, failed and lost; a deleted finished row shows at the next
// whole count, recountEvery later.
func TestTallyFollowsChanges(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		loc := zone(t)
		now := time.Date(2024, 3, 1, 15, 0, 0, 0, loc)
		clock := &fixedClock{t: now}
		days := []time.Time{now.AddDate(0, 0, -3), now.AddDate(0, 0, -2), now.AddDate(0, 0, -1), now, now.AddDate(0, 0, 1)}
		rng := rand.New(rand.NewPCG(1, 2))
		var running []int64
		add := func() {
			at := days[rng.IntN(len(days))].Add(time.Duration(rng.IntN(8*3600)-4*3600) * time.Second)
			codes := [][2]int{{200, 0}, {200, 0}, {0, 0}, {500, 0}, {200, 200}, {200, 500}}
			c := codes[rng.IntN(len(codes))]
			id := addLog(t, b.store, at, c[0], c[1])
			if c[1] == 0 && c[0] != 500 {
				running = append(running, id)
			}
		}
		for range 40 {
			add()
		}
		st := &tallyCounter{Store: b.store}
		r := New(Config{Store: st, Loc: loc, Now: clock.now})
		check := func(step int) {
			t.Helper()
			if err := r.RefreshNow(ctx); err != nil {
				t.Fatal(err)
			}
			want := countByDay(t, b, loc)
			got, err := b.store.ReportQuery(ctx, now.AddDate(0, 0, -2).Truncate(24*time.Hour).Add(-24*time.Hour), now.AddDate(0, 0, 1))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != reportDays {
				t.Fatalf("step %d: %d report rows", step, len(got))
			}
			for _, row := range got {
				d := row.TriggerDay.In(loc).Format(time.DateOnly)
				if g := (dayCounts{row.RunningCount, row.SucCount, row.FailCount}); g != want[d] {
					t.Fatalf("step %d, %s: report %+v, want %+v", step, d, g, want[d])
				}
			}
		}
		check(0)
		for step := 1; step <= 8; step++ {
			for range 5 {
				add()
			}
			// Finish, fail or lose some running rows.
			for range 4 {
				if len(running) == 0 {
					break
				}
				k := rng.IntN(len(running))
				id := running[k]
				running = append(running[:k], running[k+1:]...)
				code := []int{200, 500, 502}[rng.IntN(3)]
				ht := now
				if err := b.store.LogUpdateHandleInfo(ctx, schema.JobLog{ID: id, HandleTime: &ht, HandleCode: code}); err != nil {
					t.Fatal(err)
				}
			}
			clock.set(now.Add(time.Duration(step) * time.Minute))
			check(step)
		}
		if n := st.whole.Load(); n != reportDays {
			t.Fatalf("%d whole-day counts, want %d (the first refresh only)", n, reportDays)
		}
		// A finished row deleted: unseen until the whole count.
		before := countByDay(t, b, loc)[now.Format(time.DateOnly)]
		if _, err := b.raw.Exec("DELETE FROM xxl_job_log WHERE id = (SELECT MIN(id) FROM (SELECT id FROM xxl_job_log WHERE handle_code = 200 AND trigger_time >= '2024-03-01 00:00:00' AND trigger_time < '2024-03-02 00:00:00') x)"); err != nil {
			t.Fatal(err)
		}
		if after := countByDay(t, b, loc)[now.Format(time.DateOnly)]; after.suc != before.suc-1 {
			t.Fatalf("fixture: today's successes %d before the delete, %d after", before.suc, after.suc)
		}
		clock.set(now.Add(8*time.Minute + recountEvery))
		check(9)
		if n := st.whole.Load(); n != 2*reportDays {
			t.Fatalf("%d whole-day counts, want %d", n, 2*reportDays)
		}
	})
}
