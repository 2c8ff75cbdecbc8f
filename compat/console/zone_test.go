package console

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestJobZone: the 2.4.2 console's add takes scheduleTimezone, update keeps
// the zone when the form leaves it out (as the Java page's does), the list
// carries a job's zone only when it has one, and the preview is computed
// and shown in the zone sent; a zone that is not an IANA id is refused
// with ReturnT's 500, and any zone on a database without the column.
func TestJobZone(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		c := e.login("admin", "123456")
		zoned := append(addForm(g.ID), "scheduleTimezone", "America/New_York")
		if r := c.post("/jobinfo/add", zoned...); r.body != `{"code":500,"msg":"Time Zone: this database has no xxl_job_info.schedule_timezone column; add it first (docs/job-time-zones.md)","content":null}` {
			t.Errorf("without the column: %s", r.body)
		}

		storetest.WithScheduleTimezone(t, s)
		r := c.post("/jobinfo/add", zoned...)
		id, ok := r.json()["content"].(string)
		if !ok {
			t.Fatalf("add: %s", r.body)
		}
		plain, _ := c.post("/jobinfo/add", addForm(g.ID, "jobDesc", "plain")...).json()["content"].(string)
		r = c.post("/jobinfo/pageList", "jobGroup", itoa(g.ID), "triggerStatus", "-1", "jobDesc", "", "executorHandler", "",
			"author", "", "start", "0", "length", "10")
		var list struct{ Data []map[string]any }
		if err := json.Unmarshal([]byte(r.body), &list); err != nil || len(list.Data) != 2 {
			t.Fatalf("pageList: %s", r.body)
		}
		for _, row := range list.Data {
			zone, has := row["scheduleTimezone"]
			switch itoa(int(row["id"].(float64))) {
			case id:
				if zone != "America/New_York" {
					t.Errorf("zoned job listed with %v", zone)
				}
			case plain:
				if has {
					t.Errorf("job without a zone listed with scheduleTimezone %v (Java's shape has none)", zone)
				}
			}
		}

		update := append(addForm(g.ID, "jobDesc", "edited"), "id", id)
		if r := c.post("/jobinfo/update", update...); r.body != `{"code":200,"msg":null,"content":null}` {
			t.Fatalf("update: %s", r.body)
		}
		j, _ := s.JobLoad(context.Background(), atoi(t, id))
		if j.JobDesc != "edited" || j.ScheduleTimezone == nil || *j.ScheduleTimezone != "America/New_York" {
			t.Errorf("after an update without the field: %q %v", j.JobDesc, j.ScheduleTimezone)
		}
		if r := c.post("/jobinfo/update", append(update, "scheduleTimezone", "")...); r.body != `{"code":200,"msg":null,"content":null}` {
			t.Fatalf("update to the admin's zone: %s", r.body)
		}
		if j, _ := s.JobLoad(context.Background(), atoi(t, id)); j.ScheduleTimezone != nil {
			t.Errorf("zone %q, want NULL", *j.ScheduleTimezone)
		}
		if r := c.post("/jobinfo/update", append(update, "scheduleTimezone", "Mars/Olympus_Mons")...); r.body != `{"code":500,"msg":"Time Zoneillegal: unknown to the tz database [Mars/Olympus_Mons]","content":null}` {
			t.Errorf("bad zone: %s", r.body)
		}

		// The clock reads 2026-11-23 07:02:28 in Shanghai, 18:02 the day before in New York.
		r = c.post("/jobinfo/nextTriggerTime", "scheduleType", "CRON", "scheduleConf", "0 0 9 * * ?", "scheduleTimezone", "America/New_York")
		if want := `{"code":200,"msg":null,"content":["2026-11-23 09:00:00 EST","2026-11-24 09:00:00 EST","2026-11-25 09:00:00 EST","2026-11-26 09:00:00 EST","2026-11-27 09:00:00 EST"]}`; r.body != want {
			t.Errorf("preview in New York:\n%s\nwant %s", r.body, want)
		}
		r = c.post("/jobinfo/nextTriggerTime", "scheduleType", "CRON", "scheduleConf", "0 0 9 * * ?")
		if want := `{"code":200,"msg":null,"content":["2026-11-23 09:00:00","2026-11-24 09:00:00","2026-11-25 09:00:00","2026-11-26 09:00:00","2026-11-27 09:00:00"]}`; r.body != want {
			t.Errorf("preview in the admin's zone:\n%s\nwant %s", r.body, want)
		}
		if r := c.post("/jobinfo/nextTriggerTime", "scheduleType", "CRON", "scheduleConf", "0 0 9 * * ?", "scheduleTimezone", "EST"); r.body != `{"code":500,"msg":"Time Zoneillegal: not an IANA region id (use a name like America/New_York) [EST]","content":null}` {
			t.Errorf("preview with EST: %s", r.body)
		}
	})
}

// TestJobZone34: the 3.4.2 console's insert, update and preview take the
// zone the same way, answered with the Response envelope in 3.4.2's
// language (zh_CN here).
func TestJobZone34(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		e := newEnv34(t, s, 0)
		cookie := e.login("admin", "123456")
		form := url.Values{"jobGroup": {"1"}, "jobDesc": {"zoned"}, "author": {"me"}, "alarmEmail": {""},
			"scheduleType": {"CRON"}, "scheduleConf": {"0 0 9 * * ?"}, "executorHandler": {"demo"}, "executorParam": {""},
			"executorRouteStrategy": {"FIRST"}, "childJobId": {""}, "misfireStrategy": {"DO_NOTHING"},
			"executorBlockStrategy": {"SERIAL_EXECUTION"}, "executorTimeout": {"0"}, "executorFailRetryCount": {"0"},
			"glueType": {"BEAN"}, "glueSource": {""}, "glueRemark": {"GLUE代码初始化"}, "scheduleTimezone": {"Europe/Berlin"}}
		if _, body := e.post("/jobinfo/insert", cookie, form); body != refusedBody("时区：数据库的 xxl_job_info 表没有 schedule_timezone 列，请先添加（见 docs/job-time-zones.md）") {
			t.Errorf("without the column: %s", body)
		}
		storetest.WithScheduleTimezone(t, s)
		_, body := e.post("/jobinfo/insert", cookie, form)
		var ans struct{ Data string }
		if err := json.Unmarshal([]byte(body), &ans); err != nil || ans.Data == "" {
			t.Fatalf("insert: %s", body)
		}
		j, _ := s.JobLoad(context.Background(), atoi(t, ans.Data))
		if j.ScheduleTimezone == nil || *j.ScheduleTimezone != "Europe/Berlin" {
			t.Errorf("stored zone %v", j.ScheduleTimezone)
		}
		form.Set("scheduleTimezone", "Europe/Berlin ")
		form.Set("id", ans.Data)
		if _, body := e.post("/jobinfo/update", cookie, form); body != refusedBody("时区非法 [Europe/Berlin ]") {
			t.Errorf("update with a blank: %s", body)
		}
		form.Del("scheduleTimezone")
		form.Set("jobDesc", "zoned, edited")
		if _, body := e.post("/jobinfo/update", cookie, form); body != okBody {
			t.Fatalf("update: %s", body)
		}
		if j, _ := s.JobLoad(context.Background(), j.ID); j.ScheduleTimezone == nil || *j.ScheduleTimezone != "Europe/Berlin" {
			t.Errorf("zone after an update without the field: %v", j.ScheduleTimezone)
		}
		// The clock reads 2026-11-27 14:00 UTC, 15:00 in Berlin.
		_, body = e.post("/jobinfo/nextTriggerTime", cookie, url.Values{"scheduleType": {"CRON"}, "scheduleConf": {"0 0 9 * * ?"},
			"scheduleTimezone": {"Europe/Berlin"}})
		if want := `{"code":200,"data":["2026-11-28 09:00:00 CET","2026-11-29 09:00:00 CET","2026-11-30 09:00:00 CET","2026-12-01 09:00:00 CET","2026-12-02 09:00:00 CET"],"msg":"Success","success":true}`; body != want {
			t.Errorf("preview in Berlin:\n%s\nwant %s", body, want)
		}
		_, body = e.post("/jobinfo/pageList", cookie, url.Values{"jobGroup": {"1"}, "triggerStatus": {"-1"}, "jobDesc": {""}, "executorHandler": {""}, "author": {""}})
		if !strings.Contains(body, `"scheduleTimezone":"Europe/Berlin"`) {
			t.Errorf("pageList lacks the zone: %s", body)
		}
	})
}

// TestJobZonePageModel: both job pages offer the time zone field only
// where the database has the column, naming the admin's zone.
func TestJobZonePageModel(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		p := newPages34(t, s)
		admin := p.login("admin", "123456")
		var m JobInfoData34
		p.page("/jobinfo", admin, &m)
		if m.Zones != nil {
			t.Errorf("zones %+v without the column", m.Zones)
		}
		storetest.WithScheduleTimezone(t, s)
		p.page("/jobinfo", admin, &m)
		if m.Zones == nil || m.Zones.AdminZone == "" {
			t.Errorf("zones %+v with the column", m.Zones)
		}
	})
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if err := json.Unmarshal([]byte(s), &n); err != nil {
		t.Fatalf("not an id: %q", s)
	}
	return n
}
