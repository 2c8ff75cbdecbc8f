package console

import (
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// TestLogDetailCat follows recording joblog_logDetailCat.en: the
// executor's answer relayed with "end", the text HTML-escaped, end forced
// for a finished log without new lines, and a clean message where Java
// shows a NullPointerException (a log without executor address).
func TestLogDetailCat(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		f := seed(t, s)
		c := e.login("admin", "123456")
		e.exec.logAnswer = api.ReturnT[api.LogResult]{Code: 200, Content: &api.LogResult{FromLineNum: 1, ToLineNum: 2,
			LogContent: "line1\nline2 <b>&'\"\n"}}
		r := c.post("/joblog/logDetailCat", "logId", itoa(int(f.log3.ID)), "fromLineNum", "1")
		if r.body != `{"code":200,"msg":null,"content":{"fromLineNum":1,"toLineNum":2,"logContent":"line1\nline2 &lt;b&gt;&amp;&#39;&quot;\n","end":false}}` {
			t.Errorf("running log: %s", r.body)
		}
		if got := e.exec.logCalls[0]; got.LogID != f.log3.ID || got.FromLineNum != 1 || got.LogDateTim != f.log3.TriggerTime.UnixMilli() {
			t.Errorf("executor asked %+v", got)
		}
		e.exec.logAnswer = api.ReturnT[api.LogResult]{Code: 200, Content: &api.LogResult{FromLineNum: 3, ToLineNum: 2}}
		if r := c.post("/joblog/logDetailCat", "logId", itoa(int(f.log2.ID)), "fromLineNum", "3"); r.body != `{"code":200,"msg":null,"content":{"fromLineNum":3,"toLineNum":2,"logContent":"","end":true}}` {
			t.Errorf("finished log without new lines: %s", r.body)
		}
		if r := c.post("/joblog/logDetailCat", "logId", itoa(int(f.log3.ID)), "fromLineNum", "3"); r.json()["content"].(map[string]any)["end"] != false {
			t.Errorf("running log without new lines: %s", r.body)
		}
		if r := c.post("/joblog/logDetailCat", "logId", "99999", "fromLineNum", "1"); r.body != `{"code":500,"msg":"Log ID is illegal","content":null}` {
			t.Errorf("unknown log: %s", r.body)
		}
		noAddr := testfactory.Log(t, s, testfactory.LogOpts{Group: f.g2.ID, Job: f.j2.ID, TriggerCode: 500})
		if r := c.post("/joblog/logDetailCat", "logId", itoa(int(noAddr.ID)), "fromLineNum", "1"); r.json()["code"] != float64(500) ||
			r.header.Get("Content-Type") != "application/json" {
			t.Errorf("log without address: %s", r.body)
		}
	})
}

// TestLogKill: kill calls the executor with the job id and, on success,
// overwrites the result with 500 and the kill message (console.md §6); a
// log whose trigger failed cannot be killed.
func TestLogKill(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		f := seed(t, s)
		c := e.login("admin", "123456")
		e.exec.killAnswer = api.ReturnT[string]{Code: 200, Msg: schema.Ptr("job thread already killed.")}
		r := c.post("/joblog/logKill", "id", itoa(int(f.log2.ID)))
		if r.body != `{"code":200,"msg":null,"content":"job thread already killed."}` {
			t.Errorf("kill: %s", r.body)
		}
		if len(e.exec.killCalls) != 1 || e.exec.killCalls[0].JobID != f.j2.ID {
			t.Errorf("executor asked %+v", e.exec.killCalls)
		}
		l, _ := s.LogLoad(t.Context(), f.log2.ID)
		if l.HandleCode != 500 || *l.HandleMsg != "Manual operation, kill job:job thread already killed." {
			t.Errorf("killed log: %d %q", l.HandleCode, *l.HandleMsg)
		}
		failed := testfactory.Log(t, s, testfactory.LogOpts{Group: f.g2.ID, Job: f.j2.ID, TriggerCode: 500})
		if r := c.post("/joblog/logKill", "id", itoa(int(failed.ID))); r.body != `{"code":500,"msg":"Trigger Fail, can not kill job","content":null}` {
			t.Errorf("kill of a failed trigger: %s", r.body)
		}
		e.exec.killAnswer = api.ReturnT[string]{Code: 500, Msg: schema.Ptr("xxl-job remoting error")}
		if r := c.post("/joblog/logKill", "id", itoa(int(f.log3.ID))); r.body != `{"code":500,"msg":"xxl-job remoting error","content":null}` {
			t.Errorf("executor refused: %s", r.body)
		}
	})
}

// TestClearLog follows recording joblog_clearLog.en: the types delete by
// age (calendar months) or keep the newest N, within the group; other
// types are refused.
func TestClearLog(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		g := testfactory.ManualGroup(t, s, "http://127.0.0.1:19991/")
		j := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID})
		for _, days := range []int{40, 40, 100, 100, 200, 200, 400, 400} {
			testfactory.Log(t, s, testfactory.LogOpts{Group: g.ID, Job: j.ID, TriggerTime: e.now.AddDate(0, 0, -days)})
		}
		count := func() int {
			_, n, err := s.LogPageList(t.Context(), 0, 100, schema.LogFilter{JobGroup: g.ID})
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		c := e.login("admin", "123456")
		for _, step := range []struct{ typ, left int }{{4, 6}, {3, 4}, {2, 2}, {1, 0}} {
			if r := c.post("/joblog/clearLog", "jobGroup", itoa(g.ID), "jobId", "0", "type", itoa(step.typ)); r.json()["code"] != float64(200) {
				t.Fatalf("type %d: %s", step.typ, r.body)
			}
			if n := count(); n != step.left {
				t.Errorf("after type %d: %d logs, want %d", step.typ, n, step.left)
			}
		}
		for range 1002 {
			testfactory.Log(t, s, testfactory.LogOpts{Group: g.ID, Job: j.ID, TriggerTime: e.now})
		}
		c.post("/joblog/clearLog", "jobGroup", itoa(g.ID), "jobId", "0", "type", "5")
		if n := count(); n != 1000 {
			t.Errorf("type 5 kept %d, want 1000", n)
		}
		c.post("/joblog/clearLog", "jobGroup", itoa(g.ID), "jobId", "0", "type", "9")
		if n := count(); n != 0 {
			t.Errorf("type 9 kept %d", n)
		}
		for _, typ := range []string{"0", "10"} {
			if r := c.post("/joblog/clearLog", "jobGroup", itoa(g.ID), "jobId", "0", "type", typ); r.body != `{"code":500,"msg":"Clean type is illegal","content":null}` {
				t.Errorf("type %s: %s", typ, r.body)
			}
		}
	})
}

// TestAddMonths is Calendar.add(MONTH): the day is clamped to the month.
func TestAddMonths(t *testing.T) {
	for _, tc := range []struct{ from, want string }{
		{"2026-03-31", "2026-02-28"}, {"2024-03-31", "2024-02-29"}, {"2026-01-15", "2025-12-15"}, {"2026-12-31", "2026-11-30"},
	} {
		from, _ := time.Parse(time.DateOnly, tc.from)
		if got := addMonths(from, -1).Format(time.DateOnly); got != tc.want {
			t.Errorf("%s - 1 month = %s, want %s", tc.from, got, tc.want)
		}
	}
}
