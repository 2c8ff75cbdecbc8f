package console

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestAdminOnly follows recording perm_normal_user_admin_only.en: a normal
// user on an admin-only endpoint gets HTTP 200, code 500 and the permission
// exception without a user name, with the charset content type.
func TestAdminOnly(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		f := seed(t, s)
		c := e.login(f.normal1.Username, "123456")
		for _, path := range []string{"/jobgroup/pageList", "/jobgroup/save", "/jobgroup/loadById", "/jobgroup/remove",
			"/user/pageList", "/user/add", "/user/update", "/user/remove"} {
			r := c.post(path, "id", "1")
			if r.status != 200 || r.header.Get("Content-Type") != "application/json;charset=utf-8" ||
				r.body != `{"code":500,"msg":"java.lang.RuntimeException: Permission limit","content":null}` {
				t.Errorf("%s: %d %s %s", path, r.status, r.header.Get("Content-Type"), r.body)
			}
		}
		if r := c.get("/user"); !strings.Contains(r.body, "java.lang.RuntimeException: Permission limit") {
			t.Errorf("admin page for a normal user: %s", r.body)
		}
	})
}

// TestNormalUserOtherGroups: a normal user reaches only its own groups'
// jobs and logs on every endpoint — also where the Java admin checks
// nothing (issue 8, "Permissions") — with the Java permission message.
func TestNormalUserOtherGroups(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		f := seed(t, s)
		c := e.login(f.normal1.Username, "123456")
		denied := `{"code":500,"msg":"java.lang.RuntimeException: Permission limit[username=normal1]","content":null}`
		other, otherJob, otherLog := itoa(f.g3.ID), itoa(f.j3.ID), itoa(int(f.log3.ID))
		for _, tc := range [][]string{
			{"/jobinfo/pageList", "jobGroup", other, "triggerStatus", "-1"},
			{"/jobinfo/remove", "id", otherJob},
			{"/jobinfo/start", "id", otherJob},
			{"/jobinfo/stop", "id", otherJob},
			{"/jobinfo/update", "id", otherJob, "jobGroup", itoa(f.g2.ID)},
			{"/jobinfo/add", "jobGroup", other},
			{"/joblog/getJobsByGroup", "jobGroup", other},
			{"/joblog/pageList", "jobGroup", other, "jobId", "0", "logStatus", "-1"},
			{"/joblog/logDetailCat", "logId", otherLog, "fromLineNum", "1"},
			{"/joblog/logKill", "id", otherLog},
			{"/joblog/clearLog", "jobGroup", other, "jobId", "0", "type", "9"},
			{"/jobcode/save", "id", otherJob, "glueSource", "x", "glueRemark", "remark"},
		} {
			if r := c.post(tc[0], tc[1:]...); r.body != denied {
				t.Errorf("%v: %s", tc, r.body)
			}
		}
		if r := c.post("/jobinfo/trigger", "id", otherJob); r.body != `{"code":500,"msg":"Permission limit","content":null}` {
			t.Errorf("trigger: %s", r.body)
		}
		for _, p := range []string{"/joblog/logDetailPage?id=" + otherLog, "/jobcode?jobId=" + otherJob} {
			if r := c.get(p); !strings.Contains(r.body, "Permission limit[username=normal1]") {
				t.Errorf("%s: %s", p, r.body)
			}
		}
		// Its own group works, and lists without a group show only its jobs.
		r := c.post("/jobinfo/pageList", "jobGroup", "0", "triggerStatus", "-1")
		if r.json()["recordsTotal"] != float64(1) || !strings.Contains(r.body, `"jobGroup":`+itoa(f.g2.ID)) {
			t.Errorf("all groups for a normal user: %s", r.body)
		}
		if r := c.post("/jobinfo/stop", "id", itoa(f.j2.ID)); r.json()["code"] != float64(200) {
			t.Errorf("own job: %s", r.body)
		}
		job3, _ := s.JobLoad(t.Context(), f.j3.ID)
		if job3.JobGroup != f.g3.ID {
			t.Errorf("another group's job was moved: %+v", job3)
		}
	})
}

// TestPermissionWhitespace follows recording perm_permission_whitespace.en:
// with permission " 2" the group lists and "run once" grant group 2 (the
// field is trimmed), add and the log list do not (Java's two readings).
func TestPermissionWhitespace(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		f := seed(t, s)
		c := e.login("spaceuser", "123456")
		if r := c.get("/jobinfo"); r.status != 200 || !strings.Contains(r.body, `id="jobinfo"`) {
			t.Errorf("job page: %d %s", r.status, r.body)
		}
		if r := c.post("/jobinfo/trigger", "id", itoa(f.j2.ID), "executorParam", "", "addressList", ""); r.json()["code"] != float64(200) {
			t.Errorf("run once: %s", r.body)
		}
		denied := `{"code":500,"msg":"java.lang.RuntimeException: Permission limit[username=spaceuser]","content":null}`
		if r := c.post("/jobinfo/add", "jobGroup", itoa(f.g2.ID)); r.body != denied {
			t.Errorf("add: %s", r.body)
		}
		if r := c.post("/joblog/pageList", "jobGroup", itoa(f.g2.ID), "jobId", "0", "logStatus", "-1"); r.body != denied {
			t.Errorf("log list: %s", r.body)
		}
	})
}

// memberRouteCases says, for every route a normal user may call, how it is
// kept from another group's jobs and logs (issue 8, "Permissions"). A
// route added to routes.go without a case here fails
// TestNormalUserEveryRoute, so every new endpoint gets a decision.
type memberRouteCase struct {
	// denied: each request must answer the permission refusal
	denied func(f fixture) [][]string
	// page: a GET of this query must show the permission error page
	page func(f fixture) string
	// hides: a GET of this query must not show the other group
	hides func(f fixture) string
	// unscoped says why the route reads or writes nothing of a group
	unscoped string
}

var memberRoutes = map[string]memberRouteCase{
	"/":          {unscoped: "the dashboard's totals cover the whole admin, as Java's"},
	"/chartInfo": {unscoped: "the dashboard's totals cover the whole admin, as Java's"},
	"/help":      {unscoped: "a static page"},
	"/jobinfo":   {hides: func(f fixture) string { return "/jobinfo?jobGroup=" + itoa(f.g3.ID) }},
	"/jobinfo/pageList": {denied: func(f fixture) [][]string {
		return [][]string{{"jobGroup", itoa(f.g3.ID), "triggerStatus", "-1"}}
	}},
	"/jobinfo/add": {denied: func(f fixture) [][]string {
		return [][]string{validJob(f.g3.ID, ""), validJob(f.g2.ID, itoa(f.j3.ID))} // another group's job as child
	}},
	"/jobinfo/update": {denied: func(f fixture) [][]string {
		return [][]string{
			append(validJob(f.g2.ID, ""), "id", itoa(f.j3.ID)), // another group's job into its own
			append(validJob(f.g3.ID, ""), "id", itoa(f.j2.ID)), // its own job into another group
		}
	}},
	"/jobinfo/remove": {denied: func(f fixture) [][]string { return [][]string{{"id", itoa(f.j3.ID)}} }},
	"/jobinfo/stop":   {denied: func(f fixture) [][]string { return [][]string{{"id", itoa(f.j3.ID)}} }},
	"/jobinfo/start":  {denied: func(f fixture) [][]string { return [][]string{{"id", itoa(f.j3.ID)}} }},
	"/jobinfo/trigger": {denied: func(f fixture) [][]string {
		return [][]string{{"id", itoa(f.j3.ID), "executorParam", "x", "addressList", ""}}
	}},
	"/jobinfo/nextTriggerTime": {unscoped: "computes times from the cron it is given; reads no row"},
	"/jobinfo/export": {
		denied: func(f fixture) [][]string { return [][]string{{"jobGroup", itoa(f.g3.ID)}} },
		hides:  func(f fixture) string { return "/jobinfo/export?jobGroup=0" }, // every group it may use
	},
	"/joblog":                {page: func(f fixture) string { return "/joblog?jobId=" + itoa(f.j3.ID) }},
	"/joblog/getJobsByGroup": {denied: func(f fixture) [][]string { return [][]string{{"jobGroup", itoa(f.g3.ID)}} }},
	"/joblog/pageList": {denied: func(f fixture) [][]string {
		return [][]string{
			{"jobGroup", itoa(f.g3.ID), "jobId", "0", "logStatus", "-1"},
			{"jobGroup", itoa(f.g3.ID), "jobId", itoa(f.j3.ID), "logStatus", "-1"},
		}
	}},
	"/joblog/logDetailPage": {page: func(f fixture) string { return "/joblog/logDetailPage?id=" + itoa(int(f.log3.ID)) }},
	"/joblog/logDetailCat":  {denied: func(f fixture) [][]string { return [][]string{{"logId", itoa(int(f.log3.ID)), "fromLineNum", "1"}} }},
	"/joblog/logKill":       {denied: func(f fixture) [][]string { return [][]string{{"id", itoa(int(f.log3.ID))}} }},
	"/joblog/clearLog": {denied: func(f fixture) [][]string {
		return [][]string{{"jobGroup", itoa(f.g3.ID), "jobId", "0", "type", "9"}, {"jobGroup", itoa(f.g3.ID), "jobId", itoa(f.j3.ID), "type", "9"}}
	}},
	"/jobcode": {page: func(f fixture) string { return "/jobcode?jobId=" + itoa(f.j3.ID) }},
	"/jobcode/save": {denied: func(f fixture) [][]string {
		return [][]string{{"id", itoa(f.j3.ID), "glueSource", "echo x", "glueRemark", "remark"}}
	}},
	"/user/updatePwd": {unscoped: "changes the caller's own password"},
}

// validJob is a complete job form of group, so that only the permission
// can refuse it.
func validJob(group int, child string) []string {
	return []string{"jobGroup", itoa(group), "jobDesc", "d", "author", "a", "alarmEmail", "", "scheduleType", "NONE",
		"scheduleConf", "", "glueType", "BEAN", "executorHandler", "h", "executorParam", "", "executorRouteStrategy", "FIRST",
		"childJobId", child, "misfireStrategy", "DO_NOTHING", "executorBlockStrategy", "SERIAL_EXECUTION",
		"executorTimeout", "0", "executorFailRetryCount", "0", "glueRemark", "init", "glueSource", ""}
}

// TestNormalUserEveryRoute: over the whole route table, a normal user of
// group 2 gets the permission refusal on every admin-only route and on
// every route touching group 3's jobs or logs, and nothing of group 3
// changes.
func TestNormalUserEveryRoute(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		f := seed(t, s)
		c := e.login(f.normal1.Username, "123456")
		before := snapshot(t, s, f)
		denied := `{"code":500,"msg":"java.lang.RuntimeException: Permission limit[username=normal1]","content":null}`
		adminOnly := `{"code":500,"msg":"java.lang.RuntimeException: Permission limit","content":null}`
		for path, rt := range (&Console{}).routeTable() {
			switch rt.access {
			case anyone:
				continue
			case admin:
				if rt.page {
					if r := c.get(path); !strings.Contains(r.body, "java.lang.RuntimeException: Permission limit") {
						t.Errorf("admin page %s: %d %s", path, r.status, r.body)
					}
				} else if r := c.post(path, "id", itoa(f.g3.ID)); r.body != adminOnly {
					t.Errorf("admin-only %s: %s", path, r.body)
				}
				continue
			}
			tc, ok := memberRoutes[path]
			if !ok {
				t.Errorf("route %s has no case in memberRoutes: say how a normal user is kept from other groups there", path)
				continue
			}
			if tc.denied == nil && tc.page == nil && tc.hides == nil && tc.unscoped == "" {
				t.Errorf("route %s: empty case", path)
			}
			if tc.denied != nil {
				for _, params := range tc.denied(f) {
					r := c.post(path, params...)
					want := denied
					switch {
					case path == "/jobinfo/trigger": // Java's own check there answers without the exception
						want = `{"code":500,"msg":"Permission limit","content":null}`
					case childOf(params) == itoa(f.j3.ID):
						want = `{"code":500,"msg":"Child Job ID(` + itoa(f.j3.ID) + `)Permission limit","content":null}`
					}
					if r.body != want {
						t.Errorf("%s %v: %s", path, params, r.body)
					}
				}
			}
			if tc.page != nil {
				if r := c.get(tc.page(f)); !strings.Contains(r.body, "Permission limit[username=normal1]") {
					t.Errorf("%s: %d %s", tc.page(f), r.status, r.body)
				}
			}
			if tc.hides != nil {
				r := c.get(tc.hides(f))
				if r.status != 200 || strings.Contains(r.body, f.g3.AppName) || strings.Contains(r.body, f.j3.JobDesc) {
					t.Errorf("%s shows group %s: %s", tc.hides(f), f.g3.AppName, r.body)
				}
			}
		}
		if after := snapshot(t, s, f); after != before {
			t.Errorf("group 3 changed:\n%s\n%s", before, after)
		}
		if n := len(e.trig.reqs); n != 0 {
			t.Errorf("%d triggers submitted", n)
		}
		if n := len(e.exec.killCalls) + len(e.exec.logCalls); n != 0 {
			t.Errorf("%d executor calls", n)
		}
	})
}

// snapshot is what a normal user of group 2 must not change in group 3.
func snapshot(t *testing.T, s *schema.Store, f fixture) string {
	t.Helper()
	j, err := s.JobLoad(t.Context(), f.j3.ID)
	if err != nil {
		t.Fatal(err)
	}
	own, err := s.JobLoad(t.Context(), f.j2.ID)
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.LogLoad(t.Context(), f.log3.ID)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("job3 group=%d status=%d desc=%q glue=%q child=%q; job2 group=%d; log3 handle=%d",
		j.JobGroup, j.TriggerStatus, j.JobDesc, deref(j.GlueSource), deref(j.ChildJobID), own.JobGroup, l.HandleCode)
}

// childOf is the childJobId of a request's parameters.
func childOf(params []string) string {
	if i := slices.Index(params, "childJobId"); i >= 0 && i+1 < len(params) {
		return params[i+1]
	}
	return ""
}
