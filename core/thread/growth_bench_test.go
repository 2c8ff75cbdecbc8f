package thread

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/growthdata"
)

// BenchmarkGrowthMonitors (issue 27 §2) measures, on MariaDB with
// XXL_BENCH_GROWTH_ROWS logs (a month, one in 100 failed and alarmed,
// nothing to do), what one idle pass of each monitor costs the database
// before (Java's statements: findFailJobLogIds beside the alarm-claims scan,
// findLostJobIds) and after (the watermarks). Off unless the variable is
// set; e.g. XXL_BENCH_GROWTH_ROWS=2000000 go test -run '^$' -bench Growth
// -benchtime 5x ./core/thread/.
func BenchmarkGrowthMonitors(b *testing.B) {
	rows, _ := growthdata.Sizes(b)
	ctx := context.Background()
	now := time.Now().Truncate(time.Second)
	db := growthdata.MySQL(b, schema.Gen2)
	built := time.Now()
	db.Logs(b, rows, now)
	b.Logf("%d log rows built in %s", rows, time.Since(built).Round(time.Second))
	st := db.Store
	texts := i18n.Load("en")

	b.Run("fail/java+claims", func(b *testing.B) {
		for b.Loop() {
			if _, err := st.LogFindFailIDs(ctx, 1000); err != nil {
				b.Fatal(err)
			}
			if _, err := st.LogFindAlarmClaims(ctx, []int{AlarmClaimed, AlarmSending}, 1000); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fail/watermark-first-pass", func(b *testing.B) {
		for b.Loop() {
			m := NewFailMonitor(FailMonitorConfig{Store: st, Texts: texts, Trigger: &retryRecorder{}, Alarm: &alarmRecorder{}, Log: zerolog.Nop()})
			if err := m.Pass(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fail/watermark", func(b *testing.B) {
		m := NewFailMonitor(FailMonitorConfig{Store: st, Texts: texts, Trigger: &retryRecorder{}, Alarm: &alarmRecorder{}, Log: zerolog.Nop()})
		if err := m.Pass(ctx); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := m.Pass(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lost/java", func(b *testing.B) {
		for b.Loop() {
			if _, err := st.LogFindLostIDs(ctx, now.Add(-LostAfter)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lost/watermark", func(b *testing.B) {
		c := NewCompleter(CompleterConfig{Store: st, Texts: texts, Trigger: &childRecorder{}, Log: zerolog.Nop()})
		m := NewLostMonitor(LostMonitorConfig{Store: st, Completer: c, Texts: texts, Log: zerolog.Nop()})
		if err := m.Pass(ctx); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			m.passes = 1 // steady state: never the hourly full pass
			if err := m.Pass(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	// Retention: each iteration deletes the next day of the oldest logs,
	// Java's way (findClearLogIds from the table's head, then clearLog) or
	// by keyset pages; the Java runs first, so both start after a deleted
	// head, as every daily run does.
	day := 0
	clearDay := func(b *testing.B, keyset bool) {
		before := now.Add(-30*24*time.Hour + time.Duration(day+1)*24*time.Hour)
		day++
		if keyset {
			bound, ok, err := st.LogClearBound(ctx, before)
			for after := int64(0); ok; {
				ids, err := st.LogFindClearIDsAfter(ctx, after, bound, before, 1000)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := st.LogClear(ctx, ids); err != nil {
					b.Fatal(err)
				}
				if len(ids) < 1000 {
					break
				}
				after = ids[len(ids)-1]
			}
			if err != nil {
				b.Fatal(err)
			}
			return
		}
		for {
			ids, err := st.LogFindClearIDs(ctx, schema.ClearFilter{Before: &before}, 1000)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := st.LogClear(ctx, ids); err != nil {
				b.Fatal(err)
			}
			if len(ids) < 1000 {
				return
			}
		}
	}
	b.Run("retention-day/java", func(b *testing.B) {
		for b.Loop() {
			clearDay(b, false)
		}
	})
	b.Run("retention-day/keyset", func(b *testing.B) {
		for b.Loop() {
			clearDay(b, true)
		}
	})
}
