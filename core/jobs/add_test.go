package jobs

import (
	"context"
	"strconv"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestAddValidation checks every refusal of add in Java's order with the
// English texts of recording jobinfo_add_validation.en (console.md §5 add).
func TestAddValidation(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		other := testfactory.ManualGroup(t, s, "http://127.0.0.1:19992/")
		foreign := testfactory.Job(t, s, testfactory.JobOpts{Group: other.ID})
		mine := itoa(testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID}).ID)
		svc := newService(s, "en", t0)
		only := func(id int) bool { return id == g.ID }
		cases := []struct {
			name string
			edit func(j *schema.JobInfo)
			want string
		}{
			{"unknown group", func(j *schema.JobInfo) { j.JobGroup = 999 }, "please choose Executor"},
			{"empty jobDesc", func(j *schema.JobInfo) { j.JobDesc = " " }, "please input Job description"},
			{"empty author", func(j *schema.JobInfo) { j.Author = schema.Ptr("") }, "please input Author"},
			{"missing author", func(j *schema.JobInfo) { j.Author = nil }, "please input Author"},
			{"unknown scheduleType", func(j *schema.JobInfo) { j.ScheduleType = "WEEKLY" }, "Schedule Typeillegal"},
			{"FIX_DELAY unsupported", func(j *schema.JobInfo) { j.ScheduleType = "FIX_DELAY" }, "Schedule Typeillegal"},
			{"invalid cron", func(j *schema.JobInfo) { j.ScheduleConf = schema.Ptr("not a cron") }, "Cronillegal"},
			{"CRON without conf", func(j *schema.JobInfo) { j.ScheduleConf = nil }, "Cronillegal"},
			{"FIX_RATE without conf", func(j *schema.JobInfo) { j.ScheduleType, j.ScheduleConf = "FIX_RATE", nil }, "Schedule Type"},
			{"FIX_RATE abc", func(j *schema.JobInfo) { j.ScheduleType, j.ScheduleConf = "FIX_RATE", schema.Ptr("abc") }, "Schedule Typeillegal"},
			{"FIX_RATE 0", func(j *schema.JobInfo) { j.ScheduleType, j.ScheduleConf = "FIX_RATE", schema.Ptr("0") }, "Schedule Typeillegal"},
			{"unknown glueType", func(j *schema.JobInfo) { j.GlueType = "GLUE_COBOL" }, "GLUE Typeillegal"},
			{"BEAN without handler", func(j *schema.JobInfo) { j.ExecutorHandler = schema.Ptr("") }, "please input JobHandler"},
			{"unknown route", func(j *schema.JobInfo) { j.ExecutorRouteStrategy = schema.Ptr("NEAREST") }, "Route Strategyillegal"},
			{"unknown misfire", func(j *schema.JobInfo) { j.MisfireStrategy = "PANIC" }, "Misfire strategyillegal"},
			{"unknown block", func(j *schema.JobInfo) { j.ExecutorBlockStrategy = schema.Ptr("QUEUE") }, "Block Strategyillegal"},
			{"child missing", func(j *schema.JobInfo) { j.ChildJobID = schema.Ptr("9999") }, "Child Job ID(9999)not exist"},
			{"child not numeric", func(j *schema.JobInfo) { j.ChildJobID = schema.Ptr("abc") }, "Child Job ID(abc)illegal"},
			{"child blank item", func(j *schema.JobInfo) { j.ChildJobID = schema.Ptr(mine + ",," + mine) }, "Child Job ID()illegal"},
			{"child markup echoed", func(j *schema.JobInfo) { j.ChildJobID = schema.Ptr("<img src=x onerror=alert(1)>") },
				"Child Job ID(<img src=x onerror=alert(1)>)illegal"},
			{"child of a foreign group", func(j *schema.JobInfo) { j.ChildJobID = schema.Ptr(itoa(foreign.ID)) },
				"Child Job ID(" + itoa(foreign.ID) + ")Permission limit"},
		}
		for _, c := range cases {
			j := formJob(g.ID)
			c.edit(&j)
			_, err := svc.Add(ctx, j, only)
			if got := refusal(t, err); got != c.want {
				t.Errorf("%s: msg %q, want %q", c.name, got, c.want)
			}
		}
		if _, n, _ := s.JobPageList(ctx, 0, 10, schema.JobFilter{JobGroup: g.ID}); n != 1 { // only "mine"
			t.Errorf("refused adds stored %d jobs", n)
		}
	})
}

// TestAddStores checks what add writes (recording jobinfo_add.en): the times,
// "\r" stripped from GLUE_SHELL source, a trailing comma dropped from the
// child list, markup stored as is, and a new job stopped.
func TestAddStores(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		a := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID})
		b := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID})
		svc := newService(s, "zh_CN", t0)

		j := formJob(g.ID)
		j.JobDesc, j.Author = "<script>alert(1)</script>", schema.Ptr("<b>x</b>")
		j.GlueType, j.ExecutorHandler = "GLUE_SHELL", schema.Ptr("")
		j.GlueSource = schema.Ptr("#!/bin/bash\r\necho \"xxl-job: hello shell\"\r\n")
		j.ChildJobID = schema.Ptr(itoa(a.ID) + "," + itoa(b.ID) + ",")
		id, err := svc.Add(ctx, j, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.JobLoad(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if *got.GlueSource != "#!/bin/bash\necho \"xxl-job: hello shell\"\n" {
			t.Errorf("glue_source %q", *got.GlueSource)
		}
		if *got.ChildJobID != itoa(a.ID)+","+itoa(b.ID) {
			t.Errorf("child_jobid %q", *got.ChildJobID)
		}
		if got.JobDesc != "<script>alert(1)</script>" || *got.Author != "<b>x</b>" {
			t.Errorf("desc/author %q %q", got.JobDesc, *got.Author)
		}
		if got.TriggerStatus != 0 || got.TriggerNextTime != 0 || got.TriggerLastTime != 0 {
			t.Errorf("new job trigger fields %d %d %d", got.TriggerStatus, got.TriggerLastTime, got.TriggerNextTime)
		}
		for _, tm := range []*schema.JobInfo{&got} {
			if !tm.AddTime.Equal(t0) || !tm.UpdateTime.Equal(t0) || !tm.GlueUpdatetime.Equal(t0) {
				t.Errorf("times %v %v %v, want %v", tm.AddTime, tm.UpdateTime, tm.GlueUpdatetime, t0)
			}
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }
