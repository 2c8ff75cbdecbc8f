package thread

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestLostMonitor: scheduler.md §10 — a log running for more than 10 minutes
// on an address registered nowhere is closed with 500 and joblog_lost_fail;
// younger logs and logs on registered executors are left alone.
func TestLostMonitor(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		now := time.Now().Truncate(time.Second)
		running := func(age time.Duration, addr string) int64 {
			at := now.Add(-age)
			id, err := s.LogSave(ctx, schema.JobLog{JobGroup: 1, JobID: 1, TriggerTime: &at})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.LogUpdateTriggerInfo(ctx, schema.JobLog{ID: id, TriggerTime: &at, TriggerCode: 200, ExecutorAddress: &addr}); err != nil {
				t.Fatal(err)
			}
			return id
		}
		lost := running(11*time.Minute, "http://gone:9999/")
		young := running(9*time.Minute, "http://gone:9999/")
		alive := running(11*time.Minute, "http://alive:9999/")
		if err := s.RegistrySave(ctx, "EXECUTOR", "xxl-job-executor-sample", "http://alive:9999/", now); err != nil {
			t.Fatal(err)
		}
		for _, lang := range []struct{ lang, msg string }{{"zh_CN", "任务结果丢失，标记失败"}} {
			texts := i18n.Load(lang.lang)
			c := NewCompleter(CompleterConfig{Store: s, Texts: texts, Trigger: &childRecorder{}, Now: func() time.Time { return now }, Log: zerolog.Nop()})
			m := NewLostMonitor(LostMonitorConfig{Store: s, Completer: c, Texts: texts, Now: func() time.Time { return now }, Log: zerolog.Nop()})
			if err := m.Pass(ctx); err != nil {
				t.Fatal(err)
			}
			l, _ := s.LogLoad(ctx, lost)
			if l.HandleCode != 500 || l.HandleMsg == nil || *l.HandleMsg != lang.msg || l.HandleTime == nil || !l.HandleTime.Equal(now) {
				t.Fatalf("lost log: %d %v %v", l.HandleCode, l.HandleMsg, l.HandleTime)
			}
		}
		for _, id := range []int64{young, alive} {
			if l, _ := s.LogLoad(ctx, id); l.HandleCode != 0 {
				t.Errorf("log %d closed: %d", id, l.HandleCode)
			}
		}
	})
}

// TestLostMonitorWatermark (issue 27): after a pass the monitor reads from
// the oldest row still running, not the first row; a row running on a live
// executor holds the watermark until its executor goes, and is then closed;
// a row written after the pass is closed once it is old enough.
func TestLostMonitorWatermark(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		now := time.Now().Truncate(time.Second)
		old := now.Add(-time.Hour)
		for range 20 {
			logRow(t, s, old, 200, 200)
		}
		alive := logRow(t, s, old, 200, 0) // on http://e:9999/, registered below
		for range 20 {
			logRow(t, s, old, 500, 0)
		}
		if err := s.RegistrySave(ctx, "EXECUTOR", "app", "http://e:9999/", now); err != nil {
			t.Fatal(err)
		}
		clock := now
		texts := i18n.Load("en")
		c := NewCompleter(CompleterConfig{Store: s, Texts: texts, Trigger: &childRecorder{}, Now: func() time.Time { return clock }, Log: zerolog.Nop()})
		m := NewLostMonitor(LostMonitorConfig{Store: s, Completer: c, Texts: texts, Now: func() time.Time { return clock }, Log: zerolog.Nop()})
		pass := func() {
			t.Helper()
			if err := m.Pass(ctx); err != nil {
				t.Fatal(err)
			}
		}
		pass()
		if m.from != alive {
			t.Fatalf("watermark %d, want the running row %d", m.from, alive)
		}
		if _, err := s.RegistryDelete(ctx, "EXECUTOR", "app", "http://e:9999/"); err != nil {
			t.Fatal(err)
		}
		fresh := logRow(t, s, now, 200, 0)
		pass()
		if l, _ := s.LogLoad(ctx, alive); l.HandleCode != 500 {
			t.Fatalf("row on the executor gone: handle code %d", l.HandleCode)
		}
		if m.from != fresh {
			t.Fatalf("watermark %d, want the fresh row %d", m.from, fresh)
		}
		clock = now.Add(11 * time.Minute)
		pass()
		if l, _ := s.LogLoad(ctx, fresh); l.HandleCode != 500 {
			t.Fatalf("fresh row: handle code %d", l.HandleCode)
		}
		if last := logRow(t, s, old, 200, 200); m.from != last {
			t.Fatalf("watermark %d, want past every row (%d)", m.from, last)
		}
	})
}
