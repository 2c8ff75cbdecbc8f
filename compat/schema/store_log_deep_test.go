package schema

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestDeepNewestPage: a deep page of 3.4.2's list of all logs, found by
// counting I_handle_code's entries (MariaDB) and walking the rest, is the
// page the plain walk from the newest row gives — with gaps in the ids
// (a stretch deleted, every 7th row deleted) and several handle codes,
// at offsets where the counting stops at once, refines, passes the end,
// and below deepFrom; other backends walk and must agree too.
func TestDeepNewestPage(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		s.deepSlack = 10 // refine down to 10 rows from the page
		base := at(s, 2026, 3, 1, 8, 0, 0)
		const n = 6000
		rows := make([]JobLog, n)
		for i := range rows {
			tt := base.Add(time.Duration(i) * time.Second)
			rows[i] = JobLog{JobGroup: 1 + i%3, JobID: 1 + i%5, TriggerTime: &tt, TriggerCode: 200, HandleCode: []int{200, 200, 500, 0, 502}[i%5]}
		}
		if _, err := s.LogSaveMany(ctx, rows); err != nil {
			t.Fatal(err)
		}
		var lo, hi int64
		if err := s.queryRow(ctx, s.sb.Select("MIN(id)", "MAX(id)").From("xxl_job_log")).Scan(&lo, &hi); err != nil {
			t.Fatal(err)
		}
		rawExec(t, s, fmt.Sprintf("DELETE FROM xxl_job_log WHERE (id > %d AND id <= %d) OR id %% 7 = 0", hi-2500, hi-1500))
		if s.Backend() == MySQL {
			rawExec(t, s, "ANALYZE TABLE xxl_job_log")
		}
		want := func(offset, size int) []int64 {
			ids, err := s.ids(ctx, page(s.sb.Select("id").From("xxl_job_log").OrderBy("id DESC"), offset, size))
			if err != nil {
				t.Fatal(err)
			}
			return ids
		}
		var total int
		if err := s.queryRow(ctx, s.sb.Select("count(1)").From("xxl_job_log")).Scan(&total); err != nil {
			t.Fatal(err)
		}
		bd := Bounds{Statement: 5 * time.Second, Count: 5 * time.Second}
		for _, offset := range []int{0, 1999, 2000, 2345, 3000, total - 7, total, total + 10, 1 << 40} {
			list, got, err := s.LogPage(ctx, offset, 10, LogFilter{NewestID: true, GroupWithJob: true}, bd)
			if err != nil {
				t.Fatalf("offset %d: %v", offset, err)
			}
			w := want(min(offset, total+1), 10)
			if len(list) != len(w) {
				t.Fatalf("offset %d: %d rows, want %d", offset, len(list), len(w))
			}
			for i := range w {
				if list[i].ID != w[i] {
					t.Fatalf("offset %d: row %d is id %d, want %d", offset, i, list[i].ID, w[i])
				}
			}
			if got != (Total{N: total, Exact: true}) {
				t.Errorf("offset %d: total %+v, want %d exact", offset, got, total)
			}
		}
		if s.Backend() == MySQL {
			// The counting got within the slack of the page, never past it.
			x, above, ok, err := s.newestSkip(ctx, 3000, bd)
			if err != nil || !ok || above > 3000 || 3000-above > 10 || x >= hi {
				t.Errorf("skip to offset 3000: x %d, %d rows above, ok %v, %v", x, above, ok, err)
			}
		}

		// A time window long past under 3.4.2's order: MariaDB reads its ids
		// from I_trigger_time and sorts them, and the same statement gives
		// the exact total (found rows).
		from, to := base.Add(100*time.Second), base.Add(399*time.Second)
		f := LogFilter{NewestID: true, From: &from, To: &to}
		l, err := s.logList(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		if s.Backend() == MySQL && !l.sorts {
			t.Errorf("window long past: not the sorted plan")
		}
		var wtotal int
		if err := s.queryRow(ctx, s.logCountQuery(f)).Scan(&wtotal); err != nil {
			t.Fatal(err)
		}
		wids, err := s.ids(ctx, page(s.applyLogFilter(s.sb.Select("id").From("xxl_job_log"), f).OrderBy("id DESC"), 20, 10))
		if err != nil {
			t.Fatal(err)
		}
		wbd := Bounds{Statement: 5 * time.Second, Count: 5 * time.Second}
		if s.Backend() == MySQL {
			wbd.Count = time.Nanosecond // no count: the found rows are the total
		}
		list, got, err := s.LogPage(ctx, 20, 10, f, wbd)
		if err != nil {
			t.Fatal(err)
		}
		if got != (Total{N: wtotal, Exact: true}) || len(list) != len(wids) || len(list) == 0 || list[0].ID != wids[0] || list[len(list)-1].ID != wids[len(wids)-1] {
			t.Errorf("window page: %d rows, total %+v; want %v of %d, exact", len(list), got, wids, wtotal)
		}
	})
}
