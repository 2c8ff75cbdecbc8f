package console

import (
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/storetest"
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
