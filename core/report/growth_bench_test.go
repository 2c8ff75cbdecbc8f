package report

import (
	"context"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/growthdata"
)

// BenchmarkGrowthReport (issue 27 §2) measures one idle refresh of the log
// report on MariaDB with XXL_BENCH_GROWTH_ROWS logs over 30 days: Java's
// (findLogReport and the report row's update for each of three days)
// against the tally's (new rows, running rows by key, the three updates).
// Off unless the variable is set.
func BenchmarkGrowthReport(b *testing.B) {
	rows, _ := growthdata.Sizes(b)
	ctx := context.Background()
	now := time.Now()
	db := growthdata.MySQL(b, schema.Gen2)
	db.Logs(b, rows, now)
	st := db.Store
	b.Run("java", func(b *testing.B) {
		for b.Loop() {
			for i := range reportDays {
				from, to := dayRange(now, time.Local, i)
				c, err := st.LogCountsBetween(ctx, from, to)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := st.ReportUpdate(ctx, schema.LogReport{TriggerDay: &from, RunningCount: c.Running, SucCount: c.Success}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("tally", func(b *testing.B) {
		r := New(Config{Store: st, Loc: time.Local, Now: func() time.Time { return now }})
		if err := r.RefreshNow(ctx); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := r.RefreshNow(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}
