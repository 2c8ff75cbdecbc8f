package jobs

import (
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

var t0 = time.Date(2026, 11, 23, 7, 2, 28, 0, time.UTC)

func newService(s *schema.Store, lang string, now time.Time) *Service {
	return New(Config{Store: s, Texts: i18n.Load(lang), Loc: time.UTC, Now: func() time.Time { return now }, Log: zerolog.Nop()})
}

// formJob is a job as the console's add form sends it (console.md §5).
func formJob(group int) schema.JobInfo {
	return schema.JobInfo{
		JobGroup: group, JobDesc: "rec job", Author: schema.Ptr("rec"), AlarmEmail: schema.Ptr(""),
		ScheduleType: "CRON", ScheduleConf: schema.Ptr("0 0 1 * * ?"), MisfireStrategy: "DO_NOTHING",
		ExecutorRouteStrategy: schema.Ptr("FIRST"), ExecutorHandler: schema.Ptr("demoJobHandler"),
		ExecutorParam: schema.Ptr(""), ExecutorBlockStrategy: schema.Ptr("SERIAL_EXECUTION"),
		GlueType: "BEAN", GlueSource: schema.Ptr(""), GlueRemark: schema.Ptr("GLUE代码初始化"), ChildJobID: schema.Ptr(""),
	}
}

func refusal(t *testing.T, err error) string {
	t.Helper()
	r, ok := err.(*Refusal)
	if !ok {
		t.Fatalf("err = %v (%T), want a *Refusal", err, err)
	}
	return r.Msg
}
