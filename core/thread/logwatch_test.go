package thread

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// logRow inserts a log triggered at `at` with the given codes, as the
// trigger flow and a callback write it.
func logRow(t *testing.T, s *schema.Store, at time.Time, triggerCode, handleCode int) int64 {
	t.Helper()
	ctx := context.Background()
	id, err := s.LogSave(ctx, schema.JobLog{JobGroup: 1, JobID: 1, TriggerTime: &at})
	if err != nil {
		t.Fatal(err)
	}
	if triggerCode != 0 {
		if err := s.LogUpdateTriggerInfo(ctx, schema.JobLog{ID: id, TriggerTime: &at, TriggerCode: triggerCode,
			TriggerMsg: schema.Ptr("t"), ExecutorAddress: schema.Ptr("http://e:9999/")}); err != nil {
			t.Fatal(err)
		}
	}
	if handleCode != 0 {
		finishLog(t, s, id, handleCode)
	}
	return id
}

func finishLog(t *testing.T, s *schema.Store, id int64, code int) {
	t.Helper()
	now := time.Now()
	if ok, err := s.LogFinish(context.Background(), schema.JobLog{ID: id, HandleTime: &now, HandleCode: code, HandleMsg: schema.Ptr("h")}); err != nil || !ok {
		t.Fatalf("finish log %d: %v %v", id, ok, err)
	}
}

// countingStore counts the rows the watch reads by range and by key.
type countingStore struct {
	*schema.Store
	ranged, keyed atomic.Int64
}

func (c *countingStore) LogStatesFrom(ctx context.Context, from, below int64, size int) ([]schema.LogState, error) {
	got, err := c.Store.LogStatesFrom(ctx, from, below, size)
	c.ranged.Add(int64(len(got)))
	return got, err
}

func (c *countingStore) LogStatesByID(ctx context.Context, ids []int64) ([]schema.LogState, error) {
	got, err := c.Store.LogStatesByID(ctx, ids)
	c.keyed.Add(int64(len(got)))
	return got, err
}

// TestFailMonitorWatermark (issue 27): rows below the watermark are not
// read again unless open; a late callback failing an old running row, a
// failure of a row written after the start and a row a Java admin claims
// and alarms in between are each handled once; a success turned failure
// by hand below the watermark is found by the sweep.
func TestFailMonitorWatermark(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		start := time.Now().Add(-time.Hour)
		for range 30 {
			logRow(t, s, start, 200, 200)
		}
		running := logRow(t, s, start, 200, 0)
		javas := logRow(t, s, start, 200, 0)
		success := logRow(t, s, start, 200, 200)
		for range 30 {
			logRow(t, s, start, 200, 200)
		}
		now := time.Now().Add(time.Minute) // every row is older than the lag
		a := &alarmRecorder{result: true}
		cs := &countingStore{Store: s}
		m := NewFailMonitor(FailMonitorConfig{Store: cs, Texts: i18n.Load("en"),
			Trigger: &retryRecorder{}, Alarm: a, Now: func() time.Time { return now }, ReclaimEvery: 1,
			StuckAfter: time.Minute, SweepRows: 20})
		pass := func() {
			t.Helper()
			if err := m.Pass(ctx); err != nil {
				t.Fatal(err)
			}
		}
		pass()
		if m.watch.tail <= success || len(m.watch.open) != 2 {
			t.Fatalf("after the first pass: tail %d (success row %d), open %v", m.watch.tail, success, m.watch.open)
		}
		// An idle pass reads the two open rows by key, the sweep's slice
		// and nothing of the tail.
		cs.ranged.Store(0)
		cs.keyed.Store(0)
		pass()
		if k, r := cs.keyed.Load(), cs.ranged.Load(); k != 2 || r > 20 {
			t.Fatalf("idle pass read %d rows by key and %d by range, want 2 and at most 20 (the sweep)", k, r)
		}
		// A Java admin claims and alarms a row that fails between passes.
		finishLog(t, s, javas, 500)
		if ok, _ := s.LogUpdateAlarmStatus(ctx, javas, AlarmNone, AlarmClaimed); !ok {
			t.Fatal("java claim")
		}
		// A late callback fails the old running row; a new row fails.
		finishLog(t, s, running, 500)
		fresh := logRow(t, s, time.Now(), 500, 0)
		pass()
		if ok, _ := s.LogUpdateAlarmStatus(ctx, javas, AlarmClaimed, AlarmSent); !ok {
			t.Fatal("java alarm")
		}
		pass()
		// By hand, below the watermark: a success becomes a failure.
		rawFail(t, s, success)
		for range 6 { // 63 rows, 20 per sweep: one lap
			pass()
		}
		if c := a.count(); c[running] != 1 || c[fresh] != 1 || c[success] != 1 || c[javas] != 0 || len(c) != 3 {
			t.Fatalf("alarms %v; want one each for the late callback %d, the new row %d, the success failed by hand %d", c, running, fresh, success)
		}
		if len(m.watch.open) != 0 {
			t.Fatalf("rows still open: %v", m.watch.open)
		}
	})
}

// rawFail writes handle_code 500 over a finished row, as a person's UPDATE
// (or a kill of a finished log) does, which no callback path allows.
func rawFail(t *testing.T, s *schema.Store, id int64) {
	t.Helper()
	if err := s.WithTx(context.Background(), func(tx *schema.Store) error {
		l, err := tx.LogLoad(context.Background(), id)
		if err != nil {
			return err
		}
		l.HandleCode = 500
		return tx.LogUpdateHandleInfo(context.Background(), l)
	}); err != nil {
		t.Fatal(err)
	}
}

// TestFailMonitorStartsFromUnsettled: a monitor started on a table of old
// rows sees, through LogUnsettledStates, the failure nobody alarmed while
// no admin ran and the row still running, and skips the rest.
func TestFailMonitorStartsFromUnsettled(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		old := time.Now().Add(-2 * time.Hour)
		for range 50 {
			logRow(t, s, old, 200, 200)
		}
		missed := logRow(t, s, old, 200, 502)
		running := logRow(t, s, old, 200, 0)
		handled := logRow(t, s, old, 500, 0)
		if ok, _ := s.LogUpdateAlarmStatus(ctx, handled, AlarmNone, AlarmSent); !ok {
			t.Fatal("mark handled")
		}
		never := logRow(t, s, old.Add(-48*time.Hour), 0, 0) // an admin died before its trigger info
		for range 50 {
			logRow(t, s, old, 200, 200)
		}
		a := &alarmRecorder{result: true}
		cs := &countingStore{Store: s}
		m := NewFailMonitor(FailMonitorConfig{Store: cs, Texts: i18n.Load("en"),
			Trigger: &retryRecorder{}, Alarm: a, SweepRows: 10})
		if err := m.Pass(ctx); err != nil {
			t.Fatal(err)
		}
		if c := a.count(); c[missed] != 1 || len(c) != 1 {
			t.Fatalf("alarms %v, want log %d once", c, missed)
		}
		if _, ok := m.watch.open[running]; !ok || len(m.watch.open) != 2 {
			t.Fatalf("open %v, want the running row %d and the alarmed one (until the next pass)", m.watch.open, running)
		}
		if _, ok := m.watch.open[never]; ok {
			t.Fatal("a row never triggered two days ago is open")
		}
		if r := cs.ranged.Load(); r > 10 {
			t.Fatalf("the first pass read %d rows by range, want only the sweep's 10", r)
		}
	})
}

// passObserver signals each monitor pass it sees.
type passObserver chan string

func (o passObserver) MonitorPass(monitor string, _ time.Duration) {
	select {
	case o <- monitor:
	default:
	}
}

// TestMonitorPassObserved: a running fail or lost monitor reports each
// pass's duration under its name (metrics' xxl_job_monitor_pass_seconds).
func TestMonitorPassObserved(t *testing.T) {
	s := storetest.SQLite(t)
	texts := i18n.Load("en")
	obs := make(passObserver, 1)
	fail := NewFailMonitor(FailMonitorConfig{Store: s, Texts: texts, Trigger: &retryRecorder{}, Alarm: &alarmRecorder{}, Observer: obs})
	c := NewCompleter(CompleterConfig{Store: s, Texts: texts, Trigger: &childRecorder{}})
	lost := NewLostMonitor(LostMonitorConfig{Store: s, Completer: c, Texts: texts, Observer: obs})
	for name, m := range map[string]interface {
		Start(context.Context) error
		Stop()
	}{"fail": fail, "lost": lost} {
		if err := m.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-obs:
			if got != name {
				t.Errorf("pass observed as %q, want %q", got, name)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s pass observed", name)
		}
		m.Stop()
	}
}
