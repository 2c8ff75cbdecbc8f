package monitors

import (
	"context"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/app"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestLostJobClosed: a log still running 11 minutes after its trigger on
// an executor address registered nowhere is closed by the running admin
// with handle_code 500 and joblog_lost_fail, then alarmed by the fail
// monitor; a running log on a registered address and one triggered only 9
// minutes ago stay open (scheduler.md §10).
func TestLostJobClosed(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, db database) {
		ctx := context.Background()
		s := db.store
		group := addGroup(t, s, "http://127.0.0.1:9/")
		job := addJob(t, s, group, jobSpec{desc: "lost", rate: 86400})
		const registered = "http://127.0.0.1:8/"
		if err := s.RegistrySave(ctx, "EXECUTOR", "fake-executor", registered, time.Now()); err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		lost := addRunningLog(t, s, group, job, "http://127.0.0.1:9/", now.Add(-11*time.Minute))
		alive := addRunningLog(t, s, group, job, registered, now.Add(-11*time.Minute))
		young := addRunningLog(t, s, group, job, "http://127.0.0.1:9/", now.Add(-9*time.Minute))

		startAdmin(t, app.Tuning{FailInterval: 200 * time.Millisecond, LostInterval: 200 * time.Millisecond}, db, nil)

		var l schema.JobLog
		eventually(t, 10*time.Second, 50*time.Millisecond, func() (bool, string) {
			var err error
			if l, err = s.LogLoad(ctx, lost); err != nil {
				t.Fatal(err)
			}
			return l.HandleCode != 0 && settled(l), describe([]schema.JobLog{l})
		})
		if want := zh().Text("joblog_lost_fail"); l.HandleCode != 500 || deref(l.HandleMsg) != want || l.HandleTime == nil {
			t.Errorf("lost log: handle_code %d handle_msg %q handle_time %v, want 500 %q and a time",
				l.HandleCode, deref(l.HandleMsg), l.HandleTime, want)
		}
		if l.HandleMsg != nil && *l.HandleMsg != "任务结果丢失，标记失败" {
			t.Errorf("handle_msg %q is not the zh_CN joblog_lost_fail text", *l.HandleMsg)
		}
		// The job has no alarm_email: the alarm succeeds without sending (config.md §4 step 1).
		if l.AlarmStatus != 2 {
			t.Errorf("lost log alarm_status %d, want 2", l.AlarmStatus)
		}
		for _, id := range []int64{alive, young} {
			o, err := s.LogLoad(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if o.HandleCode != 0 || o.AlarmStatus != 0 {
				t.Errorf("log %d (%s, triggered %v) was touched: handle %d alarm %d",
					id, deref(o.ExecutorAddress), o.TriggerTime, o.HandleCode, o.AlarmStatus)
			}
		}
	})
}

// addRunningLog stores a log row as the trigger flow leaves it after a
// successful /run: trigger_code 200, handle_code 0.
func addRunningLog(t testing.TB, s *schema.Store, group, job int, address string, at time.Time) int64 {
	t.Helper()
	return testfactory.Log(t, s, testfactory.LogOpts{Group: group, Job: job, TriggerTime: at, TriggerCode: 200,
		TriggerMsg: schema.Ptr("seeded by the test"), Address: &address, Handler: schema.Ptr("demoJobHandler")}).ID
}
