package thread

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/alarm"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// failedLog inserts a log whose trigger failed, as the trigger flow writes it.
func failedLog(t *testing.T, s *schema.Store, jobID, retries int, shard string) int64 {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	id, err := s.LogSave(ctx, schema.JobLog{JobGroup: 1, JobID: jobID, TriggerTime: &now})
	if err != nil {
		t.Fatal(err)
	}
	l := schema.JobLog{ID: id, TriggerTime: &now, TriggerCode: 500, TriggerMsg: schema.Ptr("trigger failed"),
		ExecutorParam: schema.Ptr("p"), ExecutorFailRetryCount: retries}
	if shard != "" {
		l.ExecutorShardingParam = &shard
	}
	if err := s.LogUpdateTriggerInfo(ctx, l); err != nil {
		t.Fatal(err)
	}
	return id
}

type alarmRecorder struct {
	mu     sync.Mutex
	logs   []int64
	result bool
}

func (a *alarmRecorder) Alarm(_ context.Context, e alarm.Event) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.logs = append(a.logs, e.Log.ID)
	return a.result
}

func (a *alarmRecorder) count() map[int64]int {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := map[int64]int{}
	for _, id := range a.logs {
		out[id]++
	}
	return out
}

type retryRecorder struct {
	mu   sync.Mutex
	reqs []trigger.Request
}

func (r *retryRecorder) Submit(req trigger.Request) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, req)
	return nil
}

func newFailMonitor(s failStore, a *alarmRecorder, r *retryRecorder, now func() time.Time) *FailMonitor {
	return NewFailMonitor(FailMonitorConfig{Store: s, Texts: i18n.Load("en"), Trigger: r, Alarm: a,
		Now: now, Log: zerolog.Nop(), ReclaimEvery: 1, StuckAfter: time.Minute})
}

// TestFailMonitorRetryAndAlarm: scheduler.md §8 — retry with count-1, the
// log's sharding and param, the orange marker appended, the alarm sent and
// alarm_status 2 (3 when a channel fails, 1 when the job is gone).
func TestFailMonitorRetryAndAlarm(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		a, r := &alarmRecorder{result: true}, &retryRecorder{}
		m := newFailMonitor(s, a, r, time.Now)
		retried := failedLog(t, s, 1, 2, "1/3")
		plain := failedLog(t, s, 1, 0, "")
		orphan := failedLog(t, s, 4242, 0, "")
		if err := m.Pass(ctx); err != nil {
			t.Fatal(err)
		}
		if len(r.reqs) != 1 || r.reqs[0] != (trigger.Request{JobID: 1, Type: trigger.TypeRetry, FailRetryCount: 1, ShardingParam: "1/3", ExecutorParam: r.reqs[0].ExecutorParam}) || *r.reqs[0].ExecutorParam != "p" {
			t.Fatalf("retries %+v", r.reqs)
		}
		l, _ := s.LogLoad(ctx, retried)
		wantMsg := `trigger failed<br><br><span style="color:#F39C12;" > >>>>>>>>>>>Fail retry trigger<<<<<<<<<<< </span><br>`
		if *l.TriggerMsg != wantMsg {
			t.Fatalf("trigger_msg %q", *l.TriggerMsg)
		}
		for id, want := range map[int64]int{retried: AlarmSent, plain: AlarmSent, orphan: AlarmNotNeeded} {
			if l, _ := s.LogLoad(ctx, id); l.AlarmStatus != want {
				t.Errorf("log %d alarm_status %d, want %d", id, l.AlarmStatus, want)
			}
		}
		if c := a.count(); c[retried] != 1 || c[plain] != 1 || c[orphan] != 0 {
			t.Fatalf("alarms %v", c)
		}
		// A failing channel ends at 3; the next pass does not alarm again.
		a.result = false
		bad := failedLog(t, s, 1, 0, "")
		for i := 0; i < 2; i++ {
			if err := m.Pass(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if l, _ := s.LogLoad(ctx, bad); l.AlarmStatus != AlarmFailed || a.count()[bad] != 1 {
			t.Fatalf("status %d alarms %d", l.AlarmStatus, a.count()[bad])
		}
	})
}

// TestFailMonitorTwoAdmins: three monitors, as three admins sharing the
// database, alarm each failed log exactly once (the CAS of §8).
func TestFailMonitorTwoAdmins(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		const n = 60
		for i := 0; i < n; i++ {
			failedLog(t, s, 1, 0, "")
		}
		a := &alarmRecorder{result: true}
		var wg sync.WaitGroup
		for i := 0; i < 3; i++ {
			m := newFailMonitor(s, a, &retryRecorder{}, time.Now)
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := m.Pass(ctx); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		c := a.count()
		if len(c) != n {
			t.Fatalf("%d logs alarmed, want %d", len(c), n)
		}
		for id, k := range c {
			if k != 1 {
				t.Errorf("log %d alarmed %d times", id, k)
			}
		}
	})
}

// TestFailMonitorReclaim: a row left at -1 by a dead admin is processed
// again after StuckAfter; a row left at -2 (alarm possibly sent) is closed
// as 3 without a second alarm.
func TestFailMonitorReclaim(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	claimed := failedLog(t, s, 1, 0, "")
	sending := failedLog(t, s, 1, 0, "")
	for id, st := range map[int64]int{claimed: AlarmClaimed, sending: AlarmSending} {
		if ok, err := s.LogUpdateAlarmStatus(ctx, id, 0, st); err != nil || !ok {
			t.Fatal(err)
		}
	}
	now := time.Now()
	a := &alarmRecorder{result: true}
	m := newFailMonitor(s, a, &retryRecorder{}, func() time.Time { return now })
	if err := m.Pass(ctx); err != nil { // first sight: nothing taken back yet
		t.Fatal(err)
	}
	if len(a.count()) != 0 {
		t.Fatal("alarmed too early")
	}
	now = now.Add(2 * time.Minute)
	if err := m.Pass(ctx); err != nil { // stuck: -1 → 0 → processed, -2 → 3
		t.Fatal(err)
	}
	if c := a.count(); c[claimed] != 1 || c[sending] != 0 {
		t.Fatalf("alarms %v", c)
	}
	for id, want := range map[int64]int{claimed: AlarmSent, sending: AlarmFailed} {
		if l, _ := s.LogLoad(ctx, id); l.AlarmStatus != want {
			t.Errorf("log %d status %d want %d", id, l.AlarmStatus, want)
		}
	}
}

// flakyStore fails the final alarm CAS while down is set, as a database
// that disappears mid-way.
type flakyStore struct {
	*schema.Store
	down atomic.Bool
}

func (f *flakyStore) LogUpdateAlarmStatus(ctx context.Context, id int64, old, new int) (bool, error) {
	if f.down.Load() && old != AlarmNone {
		return false, errors.New("connection refused")
	}
	return f.Store.LogUpdateAlarmStatus(ctx, id, old, new)
}

// TestFailMonitorOutage: a claim whose final step fails is finished when
// the database is back; nothing is claimed and then forgotten, no second alarm.
func TestFailMonitorOutage(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	id := failedLog(t, s, 1, 0, "")
	f := &flakyStore{Store: s}
	f.down.Store(true)
	a := &alarmRecorder{result: true}
	m := newFailMonitor(f, a, &retryRecorder{}, time.Now)
	if err := m.Pass(ctx); err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("err %v", err)
	}
	f.down.Store(false)
	if err := m.Pass(ctx); err != nil {
		t.Fatal(err)
	}
	l, _ := s.LogLoad(ctx, id)
	// The claim was undone (-1 → 0) and processed again in the same pass.
	if l.AlarmStatus != AlarmSent || a.count()[id] != 1 {
		t.Fatalf("status %d alarms %v", l.AlarmStatus, a.count())
	}
}
