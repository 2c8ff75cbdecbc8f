package jobs

import (
	"context"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestUpdate checks update's refusals and what it writes (console.md §5
// update): the editable fields and update_time; trigger status, last time
// and GLUE fields kept; a running job's next time recomputed only when its
// schedule changed.
func TestUpdate(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		svc := newService(s, "en", t0)
		running := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, ScheduleType: "CRON", ScheduleConf: "0 0 3 * * ?",
			Status: 1, Last: 11, Next: 22, GlueType: "GLUE_SHELL", GlueSource: "echo hi"})

		j := formJob(g.ID)
		j.ID = running.ID
		j.ScheduleConf = schema.Ptr("0 0 3 * * ?") // unchanged schedule: next kept
		j.JobDesc, j.Author, j.ExecutorParam, j.ExecutorTimeout = "edited", schema.Ptr("me"), schema.Ptr("p=1"), 9
		if err := svc.Update(ctx, j, nil); err != nil {
			t.Fatal(err)
		}
		got, _ := s.JobLoad(ctx, running.ID)
		if got.JobDesc != "edited" || *got.Author != "me" || *got.ExecutorParam != "p=1" || got.ExecutorTimeout != 9 {
			t.Errorf("fields not written: %+v", got)
		}
		if got.TriggerStatus != 1 || got.TriggerLastTime != 11 || got.TriggerNextTime != 22 {
			t.Errorf("trigger fields changed: %d %d %d", got.TriggerStatus, got.TriggerLastTime, got.TriggerNextTime)
		}
		if got.GlueType != "GLUE_SHELL" || *got.GlueSource != "echo hi" || !got.UpdateTime.Equal(t0) {
			t.Errorf("glue %q %q, update_time %v", got.GlueType, *got.GlueSource, got.UpdateTime)
		}

		j.ScheduleType, j.ScheduleConf = "FIX_RATE", schema.Ptr("30")
		if err := svc.Update(ctx, j, nil); err != nil {
			t.Fatal(err)
		}
		got, _ = s.JobLoad(ctx, running.ID)
		if got.TriggerNextTime != t0.Add(35*time.Second).UnixMilli() {
			t.Errorf("rescheduled next %d, want now+5s+30s", got.TriggerNextTime)
		}

		cases := []struct {
			name string
			edit func(j *schema.JobInfo)
			want string
		}{
			{"empty desc", func(j *schema.JobInfo) { j.JobDesc = "" }, "please input Job description"},
			{"FIX_RATE without conf", func(j *schema.JobInfo) { j.ScheduleConf = nil }, "Schedule Typeillegal"},
			{"unknown route", func(j *schema.JobInfo) { j.ExecutorRouteStrategy = schema.Ptr("x") }, "Route Strategyillegal"},
			{"unknown group", func(j *schema.JobInfo) { j.JobGroup = 999 }, "Executorillegal"},
			{"unknown job", func(j *schema.JobInfo) { j.ID = 9999 }, "Job IDnot exist"},
			{"running job switched to NONE", func(j *schema.JobInfo) { j.ScheduleType, j.ScheduleConf = "NONE", schema.Ptr("") }, "Schedule Typeillegal"},
		}
		for _, c := range cases {
			e := j
			c.edit(&e)
			if got := refusal(t, svc.Update(ctx, e, nil)); got != c.want {
				t.Errorf("%s: %q, want %q", c.name, got, c.want)
			}
		}
	})
}
