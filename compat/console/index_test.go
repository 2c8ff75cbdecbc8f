package console

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestChartInfo follows recording chartInfo.en: the HashMap key order, one
// entry per report row in range, the last 7 days with zeros when there is
// none (or a bound is missing), and HTTP 400 for a malformed date.
func TestChartInfo(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		ctx := context.Background()
		shanghai, _ := time.LoadLocation("Asia/Shanghai")
		for i, day := range []string{"2026-11-21", "2026-11-23"} {
			d, _ := time.ParseInLocation(time.DateOnly, day, shanghai)
			if err := s.ReportSave(ctx, schema.LogReport{TriggerDay: &d, RunningCount: i, SucCount: 1 + i, FailCount: 2 * i}); err != nil {
				t.Fatal(err)
			}
		}
		c := e.login("admin", "123456")
		r := c.post("/chartInfo", "startDate", "2026-11-16 00:00:00", "endDate", "2026-11-23 23:59:59")
		want := `{"code":200,"msg":null,"content":{"triggerCountFailTotal":2,"triggerDayList":["2026-11-21","2026-11-23"],` +
			`"triggerDayCountRunningList":[0,1],"triggerCountSucTotal":3,"triggerDayCountFailList":[0,2],` +
			`"triggerCountRunningTotal":1,"triggerDayCountSucList":[1,2]}}`
		if r.body != want || r.header.Get("Content-Type") != "application/json" {
			t.Errorf("chartInfo:\n got %s\nwant %s", r.body, want)
		}
		empty := `{"code":200,"msg":null,"content":{"triggerCountFailTotal":0,"triggerDayList":["2026-11-17","2026-11-18",` +
			`"2026-11-19","2026-11-20","2026-11-21","2026-11-22","2026-11-23"],"triggerDayCountRunningList":[0,0,0,0,0,0,0],` +
			`"triggerCountSucTotal":0,"triggerDayCountFailList":[0,0,0,0,0,0,0],"triggerCountRunningTotal":0,` +
			`"triggerDayCountSucList":[0,0,0,0,0,0,0]}}`
		if r := c.post("/chartInfo", "startDate", "2020-01-01 00:00:00", "endDate", "2020-01-03 23:59:59"); r.body != empty {
			t.Errorf("range without rows: %s", r.body)
		}
		if r := c.post("/chartInfo"); r.body != empty {
			t.Errorf("no parameters: %s", r.body)
		}
		if r := c.post("/chartInfo", "startDate", "2020-01-01", "endDate", "bad"); r.status != 400 {
			t.Errorf("malformed dates: %d", r.status)
		}
	})
}

// TestDashboard: the counts of console.md §3, executors counted once across
// groups.
func TestDashboard(t *testing.T) {
	s := storetest.SQLite(t)
	e := newEnv(t, s, "en", false)
	seed(t, s)
	r := e.login("admin", "123456").get("/")
	for _, want := range []string{`"jobInfoCount":3`, `"executorCount":1`, `"jobLogCount":0`} {
		if !strings.Contains(r.body, want) {
			t.Errorf("dashboard lacks %s: %s", want, r.body)
		}
	}
}
