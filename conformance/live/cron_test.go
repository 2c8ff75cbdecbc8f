package live

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaexec"
)

// TestLiveCronEndToEnd is issue 4's end-to-end check: a CRON job stored in
// the database is fired by the schedule loop, routed to a live Java executor
// through the trigger pools, run, and finished by its callback; the log row
// carries the zh_CN trigger_msg (scheduler.md §6, §12) and a success handle.
func TestLiveCronEndToEnd(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			requireJava(t)
			f := newFixture(t, b)
			port, err := javaexec.FreePort()
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			exec, err := javaexec.Start(ctx, javaexec.Options{Version: "2.4.2", AdminAddress: f.admin,
				AccessToken: token, Port: port, LogDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = exec.Stop() })
			f.eventually("executor registered", 5*time.Second, func() (bool, string) {
				l := f.addressList()
				return l == exec.Address(), l
			})

			job, err := f.store.JobLoad(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			job.ScheduleConf = schema.Ptr("*/2 * * * * ?")
			job.ExecutorHandler = schema.Ptr("successHandler")
			job.ExecutorParam = schema.Ptr("cron-e2e")
			job.TriggerStatus = 1
			job.TriggerNextTime = 0
			if _, err := f.store.JobUpdate(ctx, job); err != nil {
				t.Fatal(err)
			}

			var done schema.JobLog
			f.eventually("a cron run finished", 20*time.Second, func() (bool, string) {
				logs, _, err := f.store.LogPageList(ctx, 0, 10, schema.LogFilter{JobID: 1, LogStatus: -1})
				if err != nil {
					t.Fatal(err)
				}
				// The callback may be stored before the trigger flow writes the
				// trigger info (it does so after /run returns): wait for both.
				for _, l := range logs {
					if l.HandleCode == 200 && l.TriggerCode != 0 {
						done = l
						return true, ""
					}
				}
				return false, fmt.Sprintf("%d logs, none finished", len(logs))
			})
			if done.TriggerCode != 200 || done.ExecutorAddress == nil || *done.ExecutorAddress != exec.Address() {
				t.Fatalf("trigger: code %d address %v", done.TriggerCode, done.ExecutorAddress)
			}
			if done.TriggerMsg == nil || !strings.HasPrefix(*done.TriggerMsg, "任务触发类型：Cron触发<br>") {
				t.Fatalf("trigger_msg %v", done.TriggerMsg)
			}
			if done.HandleMsg == nil || !strings.Contains(*done.HandleMsg, "success param=cron-e2e") {
				t.Fatalf("handle_msg %v", done.HandleMsg)
			}
			// The planned fire times the loop stores follow the cron (even
			// seconds); the log's trigger_time is when the ring actually fired,
			// which may be a second later (ring look-back, scheduler.md §3.3).
			job, err = f.store.JobLoad(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			if job.TriggerNextTime%2000 != 0 || job.TriggerLastTime%2000 != 0 || job.TriggerNextTime <= job.TriggerLastTime {
				t.Fatalf("planned times last %d next %d are not on the */2 grid", job.TriggerLastTime, job.TriggerNextTime)
			}
			if lag := done.TriggerTime.Sub(time.UnixMilli(job.TriggerLastTime)); lag < -10*time.Second || lag > 30*time.Second {
				t.Fatalf("trigger_time %s far from planned %s", done.TriggerTime, time.UnixMilli(job.TriggerLastTime))
			}
			f.checkRanOnce(exec.Address(), exec.Runs, []int{1}, done.ID)
		})
	}
}
