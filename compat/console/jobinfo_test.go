package console

import (
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// addForm is the job form as the Java page sends it (recording jobinfo_add.en).
func addForm(group int, edits ...string) []string {
	kv := []string{"jobGroup", itoa(group), "jobDesc", "rec job", "author", "rec", "alarmEmail", "", "scheduleType", "CRON",
		"scheduleConf", "0 0 1 * * ?", "schedule_conf_CRON", "", "cronGen_display", "0 0 1 * * ?", "glueType", "BEAN",
		"executorHandler", "demoJobHandler", "executorParam", "", "executorRouteStrategy", "FIRST", "childJobId", "",
		"misfireStrategy", "DO_NOTHING", "executorBlockStrategy", "SERIAL_EXECUTION", "executorTimeout", "0",
		"executorFailRetryCount", "0", "glueRemark", "GLUE代码初始化", "glueSource", ""}
	for i := 0; i+1 < len(edits); i += 2 {
		for j := 0; j+1 < len(kv); j += 2 {
			if kv[j] == edits[i] {
				kv[j+1] = edits[i+1]
			}
		}
	}
	return kv
}

// TestJobInfoAddAndList: add answers the new id as a JSON string, the list
// is a DataTables map in Java's key order with Jackson's entity shape (all
// 24 properties, dates in UTC) and markup stored as sent (console.md §5).
func TestJobInfoAddAndList(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		c := e.login("admin", "123456")
		r := c.post("/jobinfo/add", addForm(g.ID, "jobDesc", "<script>alert(1)</script>", "author", "<b>x</b>")...)
		id, ok := r.json()["content"].(string)
		if !ok || r.json()["code"] != float64(200) || r.json()["msg"] != nil {
			t.Fatalf("add: %s", r.body)
		}
		r = c.post("/jobinfo/pageList", "jobGroup", itoa(g.ID), "triggerStatus", "-1", "jobDesc", "", "executorHandler", "",
			"author", "", "start", "0", "length", "10")
		wantPrefix := `{"recordsFiltered":1,"data":[{"id":` + id + `,"jobGroup":` + itoa(g.ID) +
			`,"jobDesc":"<script>alert(1)</script>","addTime":"2026-11-22T23:02:28.000+00:00"`
		if !strings.HasPrefix(r.body, wantPrefix) || !strings.HasSuffix(r.body, `,"triggerStatus":0,"triggerLastTime":0,"triggerNextTime":0}],"recordsTotal":1}`) {
			t.Errorf("pageList:\n%s", r.body)
		}
		for _, key := range []string{`"author":"<b>x</b>"`, `"executorRouteStrategy":"FIRST"`, `"glueRemark":"GLUE代码初始化"`, `"childJobId":""`} {
			if !strings.Contains(r.body, key) {
				t.Errorf("pageList lacks %s", key)
			}
		}
		if r := c.post("/jobinfo/add", addForm(g.ID, "author", "")...); r.body != `{"code":500,"msg":"please input Author","content":null}` {
			t.Errorf("refusal: %s", r.body)
		}
	})
}

// TestJobInfoTriggerStartStop: "run once" queues a MANUAL trigger with the
// parameter and addresses through the trigger door; unknown ids answer as
// recorded (jobinfo_trigger.en, jobinfo_start_stop.en) with clean messages
// instead of Java's NullPointerException texts.
func TestJobInfoTriggerStartStop(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		f := seed(t, s)
		c := e.login("admin", "123456")
		if r := c.post("/jobinfo/trigger", "id", itoa(f.j2.ID), "executorParam", "p=1", "addressList", "http://a:1/"); r.body != `{"code":200,"msg":null,"content":null}` {
			t.Errorf("trigger: %s", r.body)
		}
		if len(e.trig.reqs) != 1 || e.trig.reqs[0].Type != trigger.TypeManual || *e.trig.reqs[0].ExecutorParam != "p=1" ||
			e.trig.reqs[0].AddressList != "http://a:1/" || e.trig.reqs[0].FailRetryCount != -1 {
			t.Errorf("submitted %+v", e.trig.reqs)
		}
		if r := c.post("/jobinfo/trigger", "id", "9999", "executorParam", "", "addressList", ""); r.body != `{"code":500,"msg":"Job ID is illegal","content":null}` {
			t.Errorf("trigger unknown: %s", r.body)
		}
		if r := c.post("/jobinfo/start", "id", itoa(f.j2.ID)); r.body != `{"code":200,"msg":null,"content":null}` {
			t.Errorf("start: %s", r.body)
		}
		if j, _ := s.JobLoad(t.Context(), f.j2.ID); j.TriggerStatus != 1 {
			t.Errorf("not started: %+v", j)
		}
		for _, p := range []string{"/jobinfo/start", "/jobinfo/stop"} {
			r := c.post(p, "id", "9999")
			if r.header.Get("Content-Type") != "application/json;charset=utf-8" || r.body != `{"code":500,"msg":"Job ID is illegal","content":null}` {
				t.Errorf("%s unknown: %s %s", p, r.header.Get("Content-Type"), r.body)
			}
		}
		if r := c.post("/jobinfo/remove", "id", "9999"); r.body != `{"code":200,"msg":null,"content":null}` {
			t.Errorf("remove unknown: %s", r.body)
		}
		r := c.post("/jobinfo/nextTriggerTime", "scheduleType", "FIX_RATE", "scheduleConf", "abc")
		if r.body != `{"code":500,"msg":"Schedule TypeillegalFor input string: \"abc\"","content":null}` {
			t.Errorf("nextTriggerTime: %s", r.body)
		}
		r = c.post("/jobinfo/nextTriggerTime", "scheduleType", "FIX_RATE", "scheduleConf", "60")
		if r.body != `{"code":200,"msg":null,"content":["2026-11-23 07:03:28","2026-11-23 07:04:28","2026-11-23 07:05:28","2026-11-23 07:06:28","2026-11-23 07:07:28"]}` {
			t.Errorf("nextTriggerTime: %s", r.body)
		}
	})
}
