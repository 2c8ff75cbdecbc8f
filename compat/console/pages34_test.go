package console

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
	"github.com/xxl-admin-go/xxl-admin-go/static"
)

// The 3.4.2 console's pages (pages34_*.go) with the real templates, on a
// real 3.x store: the model each page hands its script (the page-data
// island), and the checks JobInfoController, JobLogController,
// JobCodeController, JobGroupController and JobUserController make before
// rendering (3.4.2 source, and the recordings' page loads).

// pages34 is a 3.x console with the embedded templates.
type pages34 struct {
	*env34
	texts *i18n.Bundle
}

func newPages34(t *testing.T, s *schema.Store) *pages34 {
	t.Helper()
	texts := i18n.LoadFor(3, "en")
	now := time.Now()
	c, err := New(Config{
		Store: s, Jobs: jobs.New(jobs.Config{Store: s, Texts: texts}), Trigger: &submits{}, Executor: &fakeExecutor{},
		Results: overwriter{s}, Texts: texts, Files: static.Files(), Secret: []byte("0123456789abcdef0123456789abcdef"),
		Generation: 3, Log: zerolog.Nop(),
	})
	if err != nil {
		t.Fatal(err)
	}
	e := &env34{t: t, store: s, c: c, now: &now}
	e.srv = httptest.NewServer(c.Handler())
	t.Cleanup(e.srv.Close)
	return &pages34{env34: e, texts: texts}
}

// user34 stores a console user with a 3.x (SHA-256) password "123456" and
// logs it in.
func (p *pages34) user34(name string, role int, permission *string) string {
	p.t.Helper()
	u := testfactory.User(p.t, p.store, testfactory.UserOpts{Username: name, Role: role, Permission: permission})
	u.Password = PasswordHash34("123456")
	if _, err := p.store.UserUpdate(context.Background(), u); err != nil {
		p.t.Fatal(err)
	}
	return p.login(name, "123456")
}

var dataIsland = regexp.MustCompile(`(?s)<script type="application/json" id="page-data">(.*?)</script>`)
var errorMessage = regexp.MustCompile(`(?s)<p class="error-message">(.*?)</p>`)

// page loads a page and decodes its model into out (nil: none expected).
func (p *pages34) page(path, cookie string, out any) (*http.Response, string) {
	p.t.Helper()
	res, body := p.get(path, cookie)
	if out != nil && res.StatusCode == 200 {
		m := dataIsland.FindStringSubmatch(body)
		if m == nil {
			p.t.Fatalf("%s: no page-data island in %.300s", path, body)
		}
		if err := json.Unmarshal([]byte(m[1]), out); err != nil {
			p.t.Fatalf("%s: page-data %q: %v", path, m[1], err)
		}
	}
	return res, body
}

// errorText is the message of an error page ("" when the page is no error page).
func errorText(body string) string {
	m := errorMessage.FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

func ptrS(s string) *string { return &s }

func TestJobInfoPage34(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		p := newPages34(t, s)
		g2 := testfactory.Group(t, s, testfactory.GroupOpts{AppName: "bbb-executor", Title: "second"})
		admin := p.login("admin", "123456")

		var m JobInfoData34
		p.page("/jobinfo?jobGroup="+itoa(g2.ID), admin, &m)
		if m.JobGroup != g2.ID || len(m.Groups) != 3 { // the 3.x seed's two and ours
			t.Errorf("admin, jobGroup=%d: %+v", g2.ID, m)
		}
		// the 3.4.2 GlueTypeEnum, Python3 and Python2 included, and our export paths
		if len(m.GlueTypes) != 8 || m.GlueTypes[3] != (Option{"GLUE_PYTHON", "GLUE(Python3)"}) || m.GlueTypes[4].Name != "GLUE_PYTHON2" {
			t.Errorf("glue types %v", m.GlueTypes)
		}
		if m.ExportPath != "/xxl-admin-go/jobinfo/export" || m.ImportPath != "/xxl-admin-go/jobinfo/import" {
			t.Errorf("transfer paths %q %q", m.ExportPath, m.ImportPath)
		}
		// a group not in the list is -1 (the page shows the first)
		p.page("/jobinfo?jobGroup=999", admin, &m)
		if m.JobGroup != -1 {
			t.Errorf("jobGroup=999 kept as %d", m.JobGroup)
		}

		// a normal user sees the groups of its permission (trimmed, as xxl-sso's
		// StringTool.split reads it)
		normal := p.user34("normal34", 0, ptrS(" "+itoa(g2.ID)+" "))
		p.page("/jobinfo?jobGroup=1", normal, &m)
		if len(m.Groups) != 1 || m.Groups[0].ID != g2.ID || m.JobGroup != -1 {
			t.Errorf("normal user: %+v", m)
		}
		none := p.user34("nogroup34", 0, nil)
		res, body := p.page("/jobinfo", none, nil)
		want := "com.xxl.job.admin.business.scheduler.exception.XxlJobException: " + p.texts.Text("jobgroup_empty")
		if res.StatusCode != 200 || errorText(body) != want {
			t.Errorf("no groups: %d %q, want %q", res.StatusCode, errorText(body), want)
		}
		// Spring cannot bind ?jobGroup=x: its 400, forwarded to /errorpage
		if res, body := p.page("/jobinfo?jobGroup=x", admin, nil); res.StatusCode != 400 || errorText(body) != "HTTP Status Code: 400" {
			t.Errorf("jobGroup=x: %d %q", res.StatusCode, errorText(body))
		}
	})
}

func TestJobLogPage34(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		p := newPages34(t, s)
		ga := testfactory.Group(t, s, testfactory.GroupOpts{AppName: "aaa-executor"})
		gb := testfactory.Group(t, s, testfactory.GroupOpts{AppName: "bbb-executor"})
		ja := testfactory.Job(t, s, testfactory.JobOpts{Group: ga.ID, Desc: "job a"})
		jb := testfactory.Job(t, s, testfactory.JobOpts{Group: gb.ID, Desc: "job b"})
		jb2 := testfactory.Job(t, s, testfactory.JobOpts{Group: gb.ID, Desc: "job b2"})
		admin := p.login("admin", "123456")

		// ?jobId= picks the job's group and lists that group's jobs
		var m JobLogData34
		p.page("/joblog?jobId="+itoa(jb2.ID), admin, &m)
		if m.JobGroup != gb.ID || m.JobID != jb2.ID || len(m.Jobs) != 2 || m.Jobs[0].ID != jb.ID {
			t.Errorf("jobId=%d: %+v", jb2.ID, m)
		}
		// no group asked: the first (findAll: by app_name); no job: 0
		p.page("/joblog", admin, &m)
		if m.JobGroup != ga.ID || m.JobID != 0 || len(m.Jobs) != 1 || m.Jobs[0].JobDesc != "job a" {
			t.Errorf("default: %+v", m)
		}
		// a job id that names no job is its RuntimeException
		_, body := p.page("/joblog?jobId=9999", admin, nil)
		if want := "java.lang.RuntimeException: " + p.texts.Text("jobinfo_field_id") + p.texts.Text("system_invalid"); errorText(body) != want {
			t.Errorf("unknown job: %q, want %q", errorText(body), want)
		}
		// a normal user asking for another group's job gets its own group and
		// all its jobs: the page never names a job it may not see
		normal := p.user34("logs34", 0, ptrS(itoa(ga.ID)))
		p.page("/joblog?jobId="+itoa(jb.ID), normal, &m)
		if m.JobGroup != ga.ID || m.JobID != 0 || len(m.Groups) != 1 || len(m.Jobs) != 1 || m.Jobs[0].ID != ja.ID {
			t.Errorf("normal user, other group's job: %+v", m)
		}
	})
}

func TestLogDetailPage34(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		p := newPages34(t, s)
		ga := testfactory.Group(t, s, testfactory.GroupOpts{})
		gb := testfactory.Group(t, s, testfactory.GroupOpts{})
		ja := testfactory.Job(t, s, testfactory.JobOpts{Group: ga.ID, Desc: "<b>job a</b>"})
		jb := testfactory.Job(t, s, testfactory.JobOpts{Group: gb.ID})
		la := testfactory.Log(t, s, testfactory.LogOpts{Group: ga.ID, Job: ja.ID, TriggerCode: 200, HandleCode: 500})
		lb := testfactory.Log(t, s, testfactory.LogOpts{Group: gb.ID, Job: jb.ID, TriggerCode: 500})
		admin := p.login("admin", "123456")

		var m LogDetailData34
		res, body := p.page("/joblog/logDetailPage?id="+itoa(int(la.ID)), admin, &m)
		if res.StatusCode != 200 || m != (LogDetailData34{LogID: la.ID, TriggerCode: 200, HandleCode: 500, JobDesc: "<b>job a</b>"}) {
			t.Errorf("log %d: %d %+v", la.ID, res.StatusCode, m)
		}
		if strings.Contains(body, "<b>job a</b>") {
			t.Error("the job's description is in the page as markup")
		}
		_, body = p.page("/joblog/logDetailPage?id=99999", admin, nil)
		if want := "java.lang.RuntimeException: " + p.texts.Text("joblog_logid_invalid"); errorText(body) != want {
			t.Errorf("unknown log: %q", errorText(body))
		}
		// 3.4.2 note 3: another group's log is the permission exception
		normal := p.user34("detail34", 0, ptrS(itoa(ga.ID)))
		_, body = p.page("/joblog/logDetailPage?id="+itoa(int(lb.ID)), normal, nil)
		if want := "java.lang.RuntimeException: " + p.texts.Text("system_permission_limit") + "[username=detail34]"; errorText(body) != want {
			t.Errorf("other group's log: %q, want %q", errorText(body), want)
		}
		// a log whose job is gone still shows, without a job name
		if _, err := s.JobDelete(context.Background(), ja.ID); err != nil {
			t.Fatal(err)
		}
		p.page("/joblog/logDetailPage?id="+itoa(int(la.ID)), admin, &m)
		if m.JobDesc != "" || m.LogID != la.ID {
			t.Errorf("job gone: %+v", m)
		}
	})
}

func TestJobCodePage34(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		p := newPages34(t, s)
		g := testfactory.Group(t, s, testfactory.GroupOpts{})
		bean := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID})
		glue := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, GlueType: "GLUE_PYTHON2", GlueSource: "print 1"})
		admin := p.login("admin", "123456")
		for _, v := range []string{"v1", "v2"} {
			_, body := p.post("/jobcode/save", admin, url.Values{"id": {itoa(glue.ID)}, "glueSource": {"print '" + v + "'"}, "glueRemark": {"remark " + v}})
			if !strings.Contains(body, `"code":200`) {
				t.Fatalf("save %s: %s", v, body)
			}
		}
		var m JobCodeData
		p.page("/jobcode?jobId="+itoa(glue.ID), admin, &m)
		if m.Job.GlueType != "GLUE_PYTHON2" || m.Job.GlueSource != "print 'v2'" || len(m.Versions) != 2 ||
			m.Versions[0].GlueRemark != "remark v2" || m.Versions[0].UpdateTime == "" {
			t.Errorf("GLUE job: %+v", m)
		}
		for _, tc := range []struct{ path, key string }{
			{"/jobcode?jobId=" + itoa(bean.ID), "jobinfo_glue_gluetype_invalid"},
			{"/jobcode?jobId=99999", "jobinfo_glue_jobid_invalid"},
		} {
			if _, body := p.page(tc.path, admin, nil); errorText(body) != "java.lang.RuntimeException: "+p.texts.Text(tc.key) {
				t.Errorf("%s: %q", tc.path, errorText(body))
			}
		}
		if res, _ := p.page("/jobcode", admin, nil); res.StatusCode != 400 {
			t.Errorf("no jobId: %d", res.StatusCode)
		}
	})
}

// The executor and user pages need role ADMIN (@XxlSso(role = ADMIN)): a
// normal user gets xxl-sso's exception on the error page.
func TestAdminPages34(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		p := newPages34(t, s)
		g := testfactory.Group(t, s, testfactory.GroupOpts{Title: "<i>grp</i>"})
		admin := p.login("admin", "123456")
		var m UserData
		p.page("/user", admin, &m)
		if len(m.Groups) < 2 || m.Groups[len(m.Groups)-1].Title != "<i>grp</i>" && m.Groups[0].Title != "<i>grp</i>" {
			t.Errorf("user page groups %+v (want group %d among them)", m.Groups, g.ID)
		}
		if res, _ := p.page("/jobgroup", admin, nil); res.StatusCode != 200 {
			t.Errorf("admin /jobgroup: %d", res.StatusCode)
		}
		normal := p.user34("plain34", 0, ptrS(itoa(g.ID)))
		for _, path := range []string{"/jobgroup", "/user"} {
			_, body := p.page(path, normal, nil)
			if want := ssoException + "permission limit, current login-user does not have role:ADMIN"; errorText(body) != want {
				t.Errorf("normal user %s: %q", path, errorText(body))
			}
		}
		// anonymous: every page sends to the login page
		for _, path := range []string{"/jobinfo", "/joblog", "/jobcode?jobId=1", "/joblog/logDetailPage?id=1", "/jobgroup", "/user"} {
			if res, _ := p.page(path, "", nil); res.StatusCode != 302 || res.Header.Get("Location") != p.srv.URL+"/auth/login" {
				t.Errorf("anonymous %s: %d %s", path, res.StatusCode, res.Header.Get("Location"))
			}
		}
	})
}

// The job list's export and import are ours; on 3.x they live under
// /xxl-admin-go/ (routes34.go), /jobinfo/export is JobInfoController's
// namespace and not found, and the import answers the Response envelope.
func TestTransfer34Paths(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		p := newPages34(t, s)
		g := testfactory.Group(t, s, testfactory.GroupOpts{AppName: "transfer-executor"})
		testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, Desc: "exported job"})
		admin := p.login("admin", "123456")
		res, body := p.get("/xxl-admin-go/jobinfo/export?jobGroup="+itoa(g.ID), admin)
		if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Disposition"), "attachment") || !strings.Contains(body, "exported job") {
			t.Fatalf("export: %d %s %.200s", res.StatusCode, res.Header.Get("Content-Disposition"), body)
		}
		if res, _ := p.get("/jobinfo/export", admin); res.StatusCode != 404 {
			t.Errorf("/jobinfo/export on 3.x: %d", res.StatusCode)
		}
		req, _ := http.NewRequest(http.MethodPost, p.srv.URL+"/xxl-admin-go/jobinfo/import?mode=merge&dryRun=true", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		_, ans := p.do(req, admin)
		if !strings.HasPrefix(ans, `{"code":200,"data":{`) || !strings.Contains(ans, `"dryRun":true`) || !strings.HasSuffix(ans, `"msg":"Success","success":true}`) {
			t.Errorf("import dry run: %s", ans)
		}
		normal := p.user34("transfer34", 0, ptrS(itoa(g.ID)))
		req, _ = http.NewRequest(http.MethodPost, p.srv.URL+"/xxl-admin-go/jobinfo/import", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if _, ans := p.do(req, normal); !strings.Contains(ans, "does not have role:ADMIN") {
			t.Errorf("normal user's import: %s", ans)
		}
	})
}
