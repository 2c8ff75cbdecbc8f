package report

import (
	"context"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

type dayCounts struct{ running, suc, fail int }

// classify is the report's rule restated (scheduler.md §11, schema.md §4.3
// findLogReport): running = trigger_code in (0,200) and handle_code 0,
// success = handle_code 200, fail = the rest.
func classify(triggerCode, handleCode int) dayCounts {
	switch {
	case (triggerCode == 0 || triggerCode == 200) && handleCode == 0:
		return dayCounts{running: 1}
	case handleCode == 200:
		return dayCounts{suc: 1}
	}
	return dayCounts{fail: 1}
}

// countByDay reads every log back with plain SQL and counts it per local
// day in Go, independently of the store's aggregate query.
func countByDay(t *testing.T, b backend, loc *time.Location) map[string]dayCounts {
	t.Helper()
	rows, err := b.raw.Query("SELECT trigger_time, trigger_code, handle_code FROM xxl_job_log")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]dayCounts{}
	for rows.Next() {
		var tt any
		var tc, hc int
		if err := rows.Scan(&tt, &tc, &hc); err != nil {
			t.Fatal(err)
		}
		day := wallTime(t, tt, b.store.Location()).In(loc).Format(time.DateOnly)
		c, add := out[day], classify(tc, hc)
		out[day] = dayCounts{c.running + add.running, c.suc + add.suc, c.fail + add.fail}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// wallTime reads a raw DATETIME value (text, or a time.Time whose fields are
// the wall time, depending on the driver) as wall time in the store zone.
func wallTime(t *testing.T, v any, storeLoc *time.Location) time.Time {
	t.Helper()
	switch x := v.(type) {
	case time.Time:
		return time.Date(x.Year(), x.Month(), x.Day(), x.Hour(), x.Minute(), x.Second(), 0, storeLoc)
	case []byte:
		v = string(x)
	}
	s, ok := v.(string)
	if !ok || len(s) < 19 {
		t.Fatalf("trigger_time %#v", v)
	}
	at, err := time.ParseInLocation(time.DateTime, s[:10]+" "+s[11:19], storeLoc)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

// TestRefresh checks that the report rows of today and the two previous
// local days equal counts made independently from xxl_job_log, that the
// 00:00:00 and 23:59:59 logs fall into their own day, that older days are
// not written, and that refreshing again updates instead of inserting
// (scheduler.md §11, schema.md §3 found rows, §4.5).
func TestRefresh(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		loc := zone(t)
		day := func(d int, h, m, s int) time.Time { return time.Date(2024, 3, d, h, m, s, 0, loc) }
		// Today is 1 March 2024: the refreshed days are 28 and 29 February
		// (leap year) and 1 March; 27 February is out of range.
		clock := &fixedClock{t: day(1, 15, 0, 0)}
		codes := [][2]int{{0, 0}, {200, 0}, {500, 0}, {200, 200}, {200, 500}, {0, 200}, {500, 200}, {200, 502}}
		for _, d := range []time.Time{day(-2, 0, 0, 0), day(-1, 0, 0, 0), day(0, 0, 0, 0), day(1, 0, 0, 0)} { // 27, 28, 29 Feb, 1 Mar
			for i, c := range codes {
				var at time.Time
				switch i % 3 {
				case 0:
					at = d // 00:00:00
				case 1:
					at = d.Add(24*time.Hour - time.Second) // 23:59:59
				default:
					at = d.Add(time.Duration(i) * time.Hour)
				}
				addLog(t, b.store, at, c[0], c[1])
			}
		}
		r := New(Config{Store: b.store, Loc: loc, Now: clock.now})
		if err := r.RefreshNow(ctx); err != nil {
			t.Fatal(err)
		}
		want := countByDay(t, b, loc)
		check := func() {
			t.Helper()
			got, err := b.store.ReportQuery(ctx, day(-3, 0, 0, 0), day(2, 0, 0, 0))
			if err != nil {
				t.Fatal(err)
			}
			wantDays := []string{"2024-02-28", "2024-02-29", "2024-03-01"}
			if len(got) != len(wantDays) {
				t.Fatalf("report rows %+v, want days %v", got, wantDays)
			}
			for i, row := range got {
				if d := row.TriggerDay.In(loc); d.Format(time.DateTime) != wantDays[i]+" 00:00:00" {
					t.Errorf("row %d trigger_day %v, want %s 00:00:00", i, d, wantDays[i])
				}
				w := want[wantDays[i]]
				if g := (dayCounts{row.RunningCount, row.SucCount, row.FailCount}); g != w {
					t.Errorf("%s: report %+v, want %+v", wantDays[i], g, w)
				}
			}
			var n int
			if err := b.raw.QueryRow("SELECT COUNT(*) FROM xxl_job_log_report").Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 3 {
				t.Errorf("%d report rows, want 3 (no duplicates)", n)
			}
		}
		check()
		if w := want["2024-03-01"]; w != (dayCounts{running: 2, suc: 3, fail: 3}) {
			t.Fatalf("fixture: 1 March counts %+v", w) // guards the fixture itself
		}

		// Unchanged counts: the UPDATE matches and nothing is inserted.
		for range 2 {
			if err := r.RefreshNow(ctx); err != nil {
				t.Fatal(err)
			}
		}
		check()

		// A running log finishing and a new one show up on the next refresh.
		id := addLog(t, b.store, day(1, 23, 59, 59), 200, 0)
		ht := day(1, 23, 59, 59)
		if err := b.store.LogUpdateHandleInfo(ctx, schema.JobLog{ID: id, HandleTime: &ht, HandleCode: 200}); err != nil {
			t.Fatal(err)
		}
		addLog(t, b.store, day(0, 12, 0, 0), 500, 0)
		if err := r.RefreshNow(ctx); err != nil {
			t.Fatal(err)
		}
		want = countByDay(t, b, loc)
		check()

		// Next day: 28 February leaves the window, 2 March gets a zero row.
		clock.set(day(2, 0, 0, 0))
		if err := r.RefreshNow(ctx); err != nil {
			t.Fatal(err)
		}
		got, err := b.store.ReportQuery(ctx, day(2, 0, 0, 0), day(2, 0, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].RunningCount+got[0].SucCount+got[0].FailCount != 0 {
			t.Errorf("2 March rows %+v, want one zero row", got)
		}
	})
}
