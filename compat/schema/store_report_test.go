package schema

import (
	"context"
	"testing"
	"time"
)

// TestReport covers xxl_job_log_report (schema.md §4.5): update returns the
// matched count even when nothing changes (the minute refresh relies on it,
// §3), query is inclusive and by day, the total is "no report" when empty.
func TestReport(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		total, err := s.ReportTotal(ctx)
		mustNoErr(t, err)
		if total != (ReportTotal{}) {
			t.Errorf("empty ReportTotal = %+v, want invalid zero", total)
		}
		day := func(d int) *time.Time { v := at(s, 2024, 6, d, 0, 0, 0); return &v }

		r := LogReport{TriggerDay: day(2), RunningCount: 1, SucCount: 2, FailCount: 3}
		n, err := s.ReportUpdate(ctx, r)
		mustNoErr(t, err)
		if n != 0 {
			t.Fatalf("ReportUpdate of a missing day = %d, want 0 (caller inserts)", n)
		}
		mustNoErr(t, s.ReportSave(ctx, r))
		for range 2 { // the second rewrite changes nothing but must still match
			n, err = s.ReportUpdate(ctx, r)
			mustNoErr(t, err)
			if n != 1 {
				t.Fatalf("ReportUpdate with unchanged values = %d, want 1", n)
			}
		}
		// The unique key on trigger_day refuses a duplicate day.
		if err := s.ReportSave(ctx, r); err == nil {
			t.Errorf("duplicate trigger_day saved")
		}
		r.RunningCount, r.SucCount, r.FailCount = 0, 20, 30
		_, err = s.ReportUpdate(ctx, r)
		mustNoErr(t, err)
		mustNoErr(t, s.ReportSave(ctx, LogReport{TriggerDay: day(1), SucCount: 5}))
		mustNoErr(t, s.ReportSave(ctx, LogReport{TriggerDay: day(4), FailCount: 1}))

		list, err := s.ReportQuery(ctx, *day(1), *day(2))
		mustNoErr(t, err)
		if len(list) != 2 {
			t.Fatalf("ReportQuery(1..2) = %+v", list)
		}
		assertRow(t, list[0], LogReport{ID: list[0].ID, TriggerDay: day(1), SucCount: 5})
		assertRow(t, list[1], LogReport{ID: list[1].ID, TriggerDay: day(2), SucCount: 20, FailCount: 30})
		if list, _ := s.ReportQuery(ctx, day(2).Add(time.Second), *day(3)); len(list) != 0 {
			t.Errorf("ReportQuery(2+1s..3) = %+v", list)
		}
		if list, _ := s.ReportQuery(ctx, *day(1), *day(30)); len(list) != 3 || !list[2].TriggerDay.Equal(*day(4)) {
			t.Errorf("ReportQuery(1..30) = %+v", list)
		}

		total, err = s.ReportTotal(ctx)
		mustNoErr(t, err)
		if want := (ReportTotal{Running: 0, Success: 25, Fail: 31, Valid: true}); total != want {
			t.Errorf("ReportTotal = %+v, want %+v", total, want)
		}
	})
}
