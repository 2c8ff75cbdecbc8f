package console

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/api"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// The JSON endpoints of the 3.4.2 console, answer for answer. Every
// expected body below is what the 3.4.2 jar answered to the same request
// (xxl-job-admin-3.4.2.jar, TZ=Asia/Shanghai, xxl.job.i18n=zh_CN, on a
// MariaDB database made from spec/schema-3.4.2.sql; requested with curl as
// admin and as a normal user with permission "1"), unless the case says it
// is one of our tolerated differences. The replay of the recordings
// (conformance/consolereplay, TestReplayOurs342) covers en and zh_TC.

// exceptionBody is WebHandlerExceptionResolver's answer: Gson, println.
func exceptionBody(msg string) string {
	return `{"code":500,"msg":` + string(gson(msg)) + "}\n"
}

// refusedBody is Response.ofFail(msg) as the jar's Jackson writes it.
func refusedBody(msg string) string {
	return `{"code":500,"data":null,"msg":` + string(jackson(msg)) + `,"success":false}`
}

const okBody = `{"code":200,"data":null,"msg":"Success","success":true}`

// world34 is a 3.x console with a normal user whose permission is group 1
// only, and a job in each seed group.
type world34 struct {
	e              *env34
	admin, normal1 string // login cookies
	mine, foreign  schema.JobInfo
}

func newWorld34(t *testing.T, s *schema.Store) *world34 {
	t.Helper()
	e := newEnv34(t, s, 0)
	ctx := context.Background()
	perm := "1"
	if _, err := s.UserSave(ctx, schema.User{Username: "normal1", Password: PasswordHash34("123456"), Permission: &perm}); err != nil {
		t.Fatal(err)
	}
	w := &world34{e: e, admin: e.login("admin", "123456"), normal1: e.login("normal1", "123456")}
	w.mine = testfactory.Job(t, s, testfactory.JobOpts{Group: 1, ScheduleType: "CRON", ScheduleConf: "0 0 0 * * ? *"})
	w.foreign = testfactory.Job(t, s, testfactory.JobOpts{Group: 2, ScheduleType: "CRON", ScheduleConf: "0 0 0 * * ? *"})
	return w
}

// call34 is one request and the jar's answer to it.
type call34 struct {
	name   string
	as     string // "admin" (default) or "normal1"
	path   string
	form   string // url-encoded body
	status int    // 0: 200
	body   string // exact; "" with status 400/404: the error page of that status
	gson   bool   // the exception resolver's content type
}

func (w *world34) run(t *testing.T, calls []call34) {
	t.Helper()
	for _, c := range calls {
		cookie := w.admin
		if c.as == "normal1" {
			cookie = w.normal1
		}
		req, _ := http.NewRequest(http.MethodPost, w.e.srv.URL+c.path, strings.NewReader(c.form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
		res, body := w.e.do(req, cookie)
		status := c.status
		if status == 0 {
			status = http.StatusOK
		}
		if res.StatusCode != status {
			t.Errorf("%s: status %d, want %d (%s)", c.name, res.StatusCode, status, body)
			continue
		}
		if status != http.StatusOK {
			if want := "HTTP Status Code: " + strconv.Itoa(status); !strings.Contains(body, want) {
				t.Errorf("%s: the error page does not say %q: %s", c.name, want, body)
			}
			continue
		}
		wantType := "application/json"
		if c.gson {
			wantType = "application/json;charset=UTF-8"
		}
		if got := res.Header.Get("Content-Type"); got != wantType {
			t.Errorf("%s: Content-Type %q, want %q", c.name, got, wantType)
		}
		if body != c.body {
			t.Errorf("%s:\n got %s\nwant %s", c.name, body, c.body)
		}
	}
}

func itoaS(n int) string { return strconv.Itoa(n) }

// TestJobInfo34 checks JobInfoController's JSON endpoints.
func TestJobInfo34(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		w := newWorld34(t, s)
		mine, foreign := itoaS(w.mine.ID), itoaS(w.foreign.ID)
		perm := exceptionBody("java.lang.RuntimeException: 权限拦截[username=normal1]")
		list := "triggerStatus=-1&jobDesc=&executorHandler=&author="
		w.run(t, []call34{
			{name: "list of another group", as: "normal1", path: "/jobinfo/pageList", form: "jobGroup=2&" + list, body: perm, gson: true},
			{name: "list of all groups (0) as a normal user", as: "normal1", path: "/jobinfo/pageList", form: "jobGroup=0&" + list, body: perm, gson: true},
			{name: "list without jobDesc", path: "/jobinfo/pageList", form: "jobGroup=1&triggerStatus=-1&executorHandler=&author=", status: 400},
			{name: "list with an empty jobGroup", path: "/jobinfo/pageList", form: "jobGroup=&" + list, status: 400},
			{name: "list with a malformed offset", path: "/jobinfo/pageList", form: "jobGroup=1&offset=abc&" + list, status: 400},
			{name: "list with jobDesc twice filters by ','", path: "/jobinfo/pageList", form: "jobGroup=1&jobDesc&" + list,
				body: `{"code":200,"data":{"data":[],"offset":0,"pagesize":0,"total":0},"msg":"Success","success":true}`},

			{name: "start with two ids", path: "/jobinfo/start", form: "ids[]=1&ids[]=2", body: refusedBody("请选择一条数据")},
			{name: "stop with '1,2'", path: "/jobinfo/stop", form: "ids[]=1,2", body: refusedBody("请选择一条数据")},
			{name: "stop with '2,'", path: "/jobinfo/stop", form: "ids[]=2,", body: refusedBody("请选择一条数据")},
			{name: "stop with an empty id", path: "/jobinfo/stop", form: "ids[]=", body: refusedBody("请选择一条数据")},
			{name: "stop without ids", path: "/jobinfo/stop", status: 400},
			{name: "stop with ids (no brackets)", path: "/jobinfo/stop", form: "ids=1", status: 400},
			{name: "stop with a malformed id", path: "/jobinfo/stop", form: "ids[]=abc", status: 400},
			{name: "stop with ' 1 '", path: "/jobinfo/stop", form: "ids[]=%201%20", body: okBody},
			{name: "stop an unknown job", path: "/jobinfo/stop", form: "ids[]=99", body: refusedBody("任务ID非法")},
			{name: "start an unknown job", as: "normal1", path: "/jobinfo/start", form: "ids[]=99", body: refusedBody("任务ID非法")},
			{name: "stop another group's job", as: "normal1", path: "/jobinfo/stop", form: "ids[]=" + foreign, body: refusedBody("权限拦截")},
			{name: "delete another group's job", as: "normal1", path: "/jobinfo/delete", form: "ids[]=" + foreign, body: refusedBody("权限拦截")},
			{name: "delete an unknown job", as: "normal1", path: "/jobinfo/delete", form: "ids[]=99", body: okBody},
			{name: "start own job", as: "normal1", path: "/jobinfo/start", form: "ids[]=" + mine, body: okBody},
			{name: "stop own job", as: "normal1", path: "/jobinfo/stop", form: "ids[]=" + mine, body: okBody},

			{name: "trigger another group's job", as: "normal1", path: "/jobinfo/trigger", form: "id=" + foreign + "&executorParam=&addressList=", body: refusedBody("权限拦截")},
			{name: "trigger without addressList", as: "normal1", path: "/jobinfo/trigger", form: "id=" + mine + "&executorParam=", status: 400},
			{name: "trigger an unknown job", path: "/jobinfo/trigger", form: "id=99&executorParam=&addressList=", body: refusedBody("任务ID非法")},
			{name: "trigger own job", as: "normal1", path: "/jobinfo/trigger", form: "id=" + mine + "&executorParam=p&addressList=", body: okBody},

			{name: "preview NONE", path: "/jobinfo/nextTriggerTime", form: "scheduleType=NONE&scheduleConf=x", body: `{"code":200,"data":[],"msg":"Success","success":true}`},
			{name: "preview of an unknown type", path: "/jobinfo/nextTriggerTime", form: "scheduleType=XX&scheduleConf=x", body: `{"code":200,"data":[],"msg":"Success","success":true}`},
			{name: "preview without type", path: "/jobinfo/nextTriggerTime", form: "scheduleType=&scheduleConf=x", body: `{"code":200,"data":[],"msg":"Success","success":true}`},
			{name: "preview without conf", path: "/jobinfo/nextTriggerTime", form: "scheduleType=CRON", status: 400},
			{name: "preview FIX_RATE abc", path: "/jobinfo/nextTriggerTime", form: "scheduleType=FIX_RATE&scheduleConf=abc", body: refusedBody(`调度类型非法For input string: "abc"`)},
			{name: "preview CRON bad", path: "/jobinfo/nextTriggerTime", form: "scheduleType=CRON&scheduleConf=bad", body: refusedBody(`调度类型非法Illegal characters for this position: 'BAD'`)},
		})
		if r := w.e.trig(); len(r) != 1 || r[0].JobID != w.mine.ID || *r[0].ExecutorParam != "p" || r[0].AddressList != "" {
			t.Errorf("triggers %+v", r)
		}
	})
}

// trig is what the trigger door received.
func (e *env34) trig() []trigger.Request {
	s := e.c.cfg.Trigger.(*submits)
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]trigger.Request, len(s.reqs))
	copy(out, s.reqs)
	return out
}

// TestJobInfoList34: the list's shape — PageModel with offset and pagesize
// 0, dates as Jackson writes them in UTC — as the jar answered for its seed
// job (add_time 2026-11-27 06:15:18 in Asia/Shanghai → "2026-11-26 22:15:18").
func TestJobInfoList34(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		w := newWorld34(t, s)
		sh, _ := time.LoadLocation("Asia/Shanghai")
		at := time.Date(2026, 11, 27, 6, 15, 18, 0, sh)
		g := testfactory.Group(t, s, testfactory.GroupOpts{AppName: "list-app"})
		j := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, Desc: "示例任务01", Author: "XXL", ScheduleType: "CRON",
			ScheduleConf: "0 0 0 * * ? *", GlueRemark: "GLUE代码初始化", At: at})
		want := `{"code":200,"data":{"data":[{"addTime":"2026-11-26 22:15:18","alarmEmail":"","author":"XXL","childJobId":"",` +
			`"executorBlockStrategy":"SERIAL_EXECUTION","executorFailRetryCount":0,"executorHandler":"demoJobHandler",` +
			`"executorParam":"","executorRouteStrategy":"FIRST","executorTimeout":0,"glueRemark":"GLUE代码初始化","glueSource":"",` +
			`"glueType":"BEAN","glueUpdatetime":"2026-11-26 22:15:18","id":` + itoaS(j.ID) + `,"jobDesc":"示例任务01","jobGroup":` +
			itoaS(g.ID) + `,"misfireStrategy":"DO_NOTHING","scheduleConf":"0 0 0 * * ? *","scheduleType":"CRON","triggerLastTime":0,` +
			`"triggerNextTime":0,"triggerStatus":0,"updateTime":"2026-11-26 22:15:18"}],"offset":0,"pagesize":0,"total":1},` +
			`"msg":"Success","success":true}`
		w.run(t, []call34{{name: "list", path: "/jobinfo/pageList",
			form: "jobGroup=" + itoaS(g.ID) + "&triggerStatus=-1&jobDesc=&executorHandler=&author=", body: want}})
	})
}

// TestJobInfoInsert34 checks insert and update: the new id as a string,
// each refusal in the jar's check order, Spring's 400 for int properties
// that do not convert, 3.4.2's child-id reading, and our stricter update.
func TestJobInfoInsert34(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		w := newWorld34(t, s)
		base := url.Values{"jobGroup": {"1"}, "jobDesc": {"probe"}, "author": {"me"}, "alarmEmail": {""},
			"scheduleType": {"CRON"}, "scheduleConf": {"0 0 0 * * ?"}, "executorHandler": {" demo "}, "executorParam": {""},
			"executorRouteStrategy": {"FIRST"}, "childJobId": {""}, "misfireStrategy": {"DO_NOTHING"},
			"executorBlockStrategy": {"SERIAL_EXECUTION"}, "executorTimeout": {"0"}, "executorFailRetryCount": {"0"},
			"glueType": {"BEAN"}, "glueSource": {""}, "glueRemark": {"GLUE代码初始化"}}
		form := func(kv ...string) string {
			v := url.Values{}
			for k, vs := range base {
				v[k] = vs
			}
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i+1] == "-" {
					v.Del(kv[i])
				} else {
					v.Set(kv[i], kv[i+1])
				}
			}
			return v.Encode()
		}
		mine := itoaS(w.mine.ID)
		w.run(t, []call34{
			{name: "int property not a number", path: "/jobinfo/insert", form: form("jobGroup", "abc"), status: 400},
			{name: "int property empty", path: "/jobinfo/insert", form: form("jobGroup", ""), status: 400},
			{name: "executorTimeout not a number", path: "/jobinfo/insert", form: form("executorTimeout", "x"), status: 400},
			{name: "no group", path: "/jobinfo/insert", form: form("jobGroup", "-"), body: refusedBody("请选择执行器")},
			{name: "unknown group", path: "/jobinfo/insert", form: form("jobGroup", "99"), body: refusedBody("请选择执行器")},
			{name: "no group as a normal user", as: "normal1", path: "/jobinfo/insert", form: form("jobGroup", "-"),
				body: exceptionBody("java.lang.RuntimeException: 权限拦截[username=normal1]"), gson: true},
			{name: "no jobDesc", path: "/jobinfo/insert", form: form("jobDesc", "-"), body: refusedBody("请输入任务描述")},
			{name: "blank author", path: "/jobinfo/insert", form: form("author", " "), body: refusedBody("请输入负责人")},
			{name: "FIX_RATE without conf", path: "/jobinfo/insert", form: form("scheduleType", "FIX_RATE", "scheduleConf", "-"), body: refusedBody("调度类型")},
			{name: "FIX_RATE 0", path: "/jobinfo/insert", form: form("scheduleType", "FIX_RATE", "scheduleConf", "0"), body: refusedBody("调度类型非法")},
			{name: "glueType unknown", path: "/jobinfo/insert", form: form("glueType", "X"), body: refusedBody("运行模式非法")},
			{name: "no handler", path: "/jobinfo/insert", form: form("executorHandler", "-"), body: refusedBody("请输入JobHandler")},
			{name: "route unknown", path: "/jobinfo/insert", form: form("executorRouteStrategy", "X"), body: refusedBody("路由策略非法")},
			{name: "no misfire", path: "/jobinfo/insert", form: form("misfireStrategy", "-"), body: refusedBody("调度过期策略非法")},
			{name: "no block", path: "/jobinfo/insert", form: form("executorBlockStrategy", "-"), body: refusedBody("阻塞处理策略非法")},
			{name: "child with a sign", path: "/jobinfo/insert", form: form("childJobId", "+1"), body: refusedBody("子任务ID(+1)非法")},
			{name: "child list with a blank", path: "/jobinfo/insert", form: form("childJobId", "1,,2"), body: refusedBody("子任务ID()非法")},
			{name: "childJobId twice: joined", path: "/jobinfo/insert", form: form() + "&childJobId=%2B1", body: refusedBody("子任务ID()非法")},
			{name: "update naming itself as child", path: "/jobinfo/update", form: form("id", mine, "childJobId", "1,0"+mine),
				body: refusedBody("子任务ID(" + mine + ")非法")},
			{name: "update an unknown job", path: "/jobinfo/update", form: form("id", "99"), body: refusedBody("任务ID不存在")},
			{name: "update into an unknown group", path: "/jobinfo/update", form: form("id", mine, "jobGroup", "99"), body: refusedBody("执行器非法")},
			// Ours: the job's current group is checked too; 3.4.2 answers
			// success and moves the job (recording perm_other_group[19]).
			{name: "update another group's job into own group", as: "normal1", path: "/jobinfo/update",
				form: form("id", itoaS(w.foreign.ID)), body: exceptionBody("java.lang.RuntimeException: 权限拦截[username=normal1]"), gson: true},
		})
		res, body := w.e.post("/jobinfo/insert", w.admin, mustQuery(t, form("childJobId", "1,2,")))
		id, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(body, `{"code":200,"data":"`), `","msg":"Success","success":true}`))
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("insert: %s", body)
		}
		j, err := s.JobLoad(context.Background(), id)
		if err != nil || *j.ExecutorHandler != "demo" || *j.ChildJobID != "1,2" {
			t.Errorf("stored handler %q children %q (%v): want trimmed and the trailing ',' dropped", *j.ExecutorHandler, *j.ChildJobID, err)
		}
	})
}

func mustQuery(t *testing.T, s string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestJobGroup34 checks JobGroupController's JSON endpoints.
func TestJobGroup34(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		w := newWorld34(t, s)
		admin := exceptionBody("com.xxl.sso.core.exception.XxlSsoException: permission limit, current login-user does not have role:ADMIN")
		w.run(t, []call34{
			{name: "appname too short", path: "/jobgroup/insert", form: "appname=abc&title=Probe&addressType=0", body: refusedBody("AppName长度限制为4~64")},
			{name: "appname with a script scheme", path: "/jobgroup/insert", form: "appname=javascript:x&title=Probe&addressType=0", body: refusedBody("AppName非法")},
			{name: "no title", path: "/jobgroup/insert", form: "appname=probe-app&addressType=0", body: refusedBody("请输入名称")},
			{name: "manual without addresses", path: "/jobgroup/insert", form: "appname=probe-app&title=Probe&addressType=1", body: refusedBody("手动录入注册方式，机器地址不可为空")},
			{name: "blank address", path: "/jobgroup/insert", form: "appname=probe-app&title=Probe&addressType=1&addressList=http://a,,http://b", body: refusedBody("机器地址格式非法")},
			{name: "not http", path: "/jobgroup/insert", form: "appname=probe-app&title=Probe&addressType=1&addressList=ftp://a", body: refusedBody("机器地址格式非法[2]")},
			{name: "addressType not a number", path: "/jobgroup/insert", form: "appname=probe-app&title=Probe&addressType=x", status: 400},
			{name: "addressType empty", path: "/jobgroup/insert", form: "appname=probe-app&title=Probe&addressType=", status: 400},
			{name: "markup without a pattern", path: "/jobgroup/insert", form: "appname=a%3Cb%3Ec&title=Probe&addressType=0", body: okBody},
			{name: "manual, upper-case scheme", path: "/jobgroup/insert", form: "appname=probe-app&title=Probe&addressType=1&addressList=HTTP://a,https://b", body: okBody},
			{name: "insert as a normal user", as: "normal1", path: "/jobgroup/insert", form: "appname=probe-app&title=Probe", body: admin, gson: true},
			{name: "unknown group", path: "/jobgroup/loadById", form: "id=99", body: refusedBody("Fail")},
			{name: "delete two", path: "/jobgroup/delete", form: "ids[]=1&ids[]=2", body: refusedBody("请选择一条数据")},
			{name: "delete a group with jobs", path: "/jobgroup/delete", form: "ids[]=1", body: refusedBody("拒绝删除，该执行器使用中")},
			{name: "delete an unknown group", path: "/jobgroup/delete", form: "ids[]=99", body: okBody},
		})
		// Any logged-in user loads any group, as 3.3.2 opened it (PR-3882;
		// the recordings' perm_normal_user_admin_only[5]).
		req, _ := http.NewRequest(http.MethodPost, w.e.srv.URL+"/jobgroup/loadById", strings.NewReader("id=2"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
		if _, body := w.e.do(req, w.normal1); !strings.HasPrefix(body, `{"code":200,"data":{"addressList":null,"addressType":0,"appname":"xxl-job-executor-sample-ai",`) {
			t.Errorf("a normal user loading another group: %s", body)
		}
		// The rows: Jackson's UTC dates, registryList split from a
		// manual list and null without one (the jar's pageList: groups
		// saved without addressList have null in both).
		var manual, empty schema.Group
		for _, g := range mustGroups(t, s) {
			switch {
			case g.AddressList != nil && *g.AddressList == "HTTP://a,https://b":
				manual = g
			case g.AppName == "a<b>c":
				empty = g
			}
		}
		for _, c := range []struct {
			g    schema.Group
			want string
		}{
			{manual, `{"addressList":"HTTP://a,https://b","addressType":1,"appname":"probe-app","id":` + itoaS(manual.ID) +
				`,"registryList":["HTTP://a","https://b"],"title":"Probe","updateTime":"2026-11-27 14:00:00"}`},
			{empty, `{"addressList":null,"addressType":0,"appname":"a<b>c","id":` + itoaS(empty.ID) +
				`,"registryList":null,"title":"Probe","updateTime":"2026-11-27 14:00:00"}`},
		} {
			w.run(t, []call34{{name: "load " + c.g.AppName, as: "admin", path: "/jobgroup/loadById", form: "id=" + itoaS(c.g.ID),
				body: `{"code":200,"data":` + c.want + `,"msg":"Success","success":true}`}})
		}
		w.run(t, []call34{{name: "list by appname", path: "/jobgroup/pageList", form: "appname=a<b&title=",
			body: `{"code":200,"data":{"data":[` + `{"addressList":null,"addressType":0,"appname":"a<b>c","id":` + itoaS(empty.ID) +
				`,"registryList":null,"title":"Probe","updateTime":"2026-11-27 14:00:00"}` + `],"offset":0,"pagesize":0,"total":1},"msg":"Success","success":true}`}})
	})
}

func mustGroups(t *testing.T, s *schema.Store) []schema.Group {
	t.Helper()
	gs, err := s.GroupFindAll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return gs
}

// TestUser34 checks JobUserController's JSON endpoints; the list's token
// is null here (the jar sends each user's login token).
func TestUser34(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		w := newWorld34(t, s)
		w.run(t, []call34{
			{name: "username blank", path: "/user/insert", form: "username=+&password=123456&role=0", body: refusedBody("请输入账号")},
			{name: "username short once trimmed", path: "/user/insert", form: "username=+x+&password=123456&role=0", body: refusedBody("长度限制[4-20]")},
			{name: "no password", path: "/user/insert", form: "username=user2&role=0", body: refusedBody("请输入密码")},
			{name: "short password", path: "/user/insert", form: "username=user2&password=+12+&role=0", body: refusedBody("长度限制[4-20]")},
			{name: "taken", path: "/user/insert", form: "username=normal1&password=123456&role=0", body: refusedBody("账号重复")},
			{name: "role not a number", path: "/user/insert", form: "username=user2&password=123456&role=x", status: 400},
			{name: "insert", path: "/user/insert", form: "username=user2&password=+654321+&role=0&permission=1&permission=2&token=abc", body: okBody},
			{name: "update own account by name", path: "/user/update", form: "id=2&username=admin&role=1", body: refusedBody("禁止操作当前登录账号")},
			{name: "update with a short password", path: "/user/update", form: "id=2&username=x&password=ab", body: refusedBody("长度限制[4-20]")},
			{name: "delete own account", path: "/user/delete", form: "ids[]=1", body: refusedBody("禁止操作当前登录账号")},
			{name: "delete two", path: "/user/delete", form: "ids[]=2&ids[]=3", body: refusedBody("请选择一条数据")},
			{name: "delete an unknown user", path: "/user/delete", form: "ids[]=99", body: okBody},
			// Ours: by id under another name is the own account too.
			// The own account is recognised by the name sent, as 3.4.2 does
			// (the recordings' user_update[5]): the name is never written.
			{name: "update own account by id under another name", path: "/user/update", form: "id=1&username=zzz&role=1", body: okBody},
			{name: "list as a normal user", as: "normal1", path: "/user/pageList", form: "username=&role=-1",
				body: exceptionBody("com.xxl.sso.core.exception.XxlSsoException: permission limit, current login-user does not have role:ADMIN"), gson: true},
		})
		u, err := s.UserLoadByName(context.Background(), "user2")
		if err != nil || u.Password != PasswordHash34("654321") || u.Permission == nil || *u.Permission != "1,2" || u.Token != nil {
			t.Fatalf("stored user %+v (%v)", u, err)
		}
		w.run(t, []call34{{name: "list", path: "/user/pageList", form: "username=user&role=-1",
			body: `{"code":200,"data":{"data":[{"id":` + itoaS(u.ID) + `,"password":null,"permission":"1,2","role":0,"token":null,` +
				`"username":"user2"}],"offset":0,"pagesize":0,"total":1},"msg":"Success","success":true}`}})
		// The logged-in users have tokens: still null in the list.
		_, body := w.e.post("/user/pageList", w.admin, url.Values{"username": {"normal1"}, "role": {"-1"}})
		if !strings.Contains(body, `"token":null`) || strings.Contains(body, "password\":\"") {
			t.Errorf("list of a logged-in user: %s", body)
		}
	})
}

// TestJobCode34 checks /jobcode/save.
func TestJobCode34(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		w := newWorld34(t, s)
		mine := itoaS(w.mine.ID)
		w.run(t, []call34{
			{name: "no glueSource", path: "/jobcode/save", form: "id=" + mine + "&glueRemark=remark1", status: 400},
			{name: "no glueRemark", path: "/jobcode/save", form: "id=" + mine + "&glueSource=echo", status: 400},
			{name: "id not a number", path: "/jobcode/save", form: "id=x&glueSource=echo&glueRemark=remark1", status: 400},
			{name: "blank source", path: "/jobcode/save", form: "id=" + mine + "&glueSource=+&glueRemark=remark1", body: refusedBody("请输入GLUE源码")},
			{name: "short remark", path: "/jobcode/save", form: "id=" + mine + "&glueSource=echo&glueRemark=abc", body: refusedBody("源码备注长度限制为4~100")},
			{name: "remark with a pattern", path: "/jobcode/save", form: "id=" + mine + "&glueSource=echo&glueRemark=eval(1)x", body: refusedBody("源码备注非法")},
			{name: "unknown job", path: "/jobcode/save", form: "id=99&glueSource=echo&glueRemark=remark1", body: refusedBody("任务ID非法")},
			{name: "another group's job", as: "normal1", path: "/jobcode/save", form: "id=" + itoaS(w.foreign.ID) + "&glueSource=echo&glueRemark=remark1",
				body: exceptionBody("java.lang.RuntimeException: 权限拦截[username=normal1]"), gson: true},
			{name: "own job", as: "normal1", path: "/jobcode/save", form: "id=" + mine + "&glueSource=echo&glueRemark=remark1", body: okBody},
		})
		if j, _ := s.JobLoad(context.Background(), w.mine.ID); *j.GlueSource != "echo" || *j.GlueRemark != "remark1" {
			t.Errorf("stored glue %q %q", *j.GlueSource, *j.GlueRemark)
		}
	})
}

// TestJobLog34 checks JobLogController's JSON endpoints: the list's DTO
// (times as strings in the admin's zone), the filters, the log text with
// its kept tags, kill and clear, and the group checks of 3.2.0 and 3.4.2.
func TestJobLog34(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		w := newWorld34(t, s)
		sh, _ := time.LoadLocation("Asia/Shanghai")
		msg := "任务触发类型：手动触发<br>调度备注：error, Address Router Fail."
		failed := testfactory.Log(t, s, testfactory.LogOpts{Group: 1, Job: w.mine.ID, TriggerCode: 500, TriggerMsg: &msg,
			Handler: schema.Ptr("demoJobHandler"), Param: schema.Ptr("p"), TriggerTime: time.Date(2026, 11, 27, 14, 18, 23, 0, sh)})
		addr := "http://127.0.0.1:9/"
		running := testfactory.Log(t, s, testfactory.LogOpts{Group: 1, Job: w.mine.ID, TriggerCode: 200, Address: &addr,
			TriggerTime: time.Date(2026, 11, 27, 14, 20, 0, 0, sh)})
		foreign := testfactory.Log(t, s, testfactory.LogOpts{Group: 2, Job: w.foreign.ID, TriggerCode: 200, Address: &addr,
			TriggerTime: time.Date(2026, 11, 27, 14, 21, 0, 0, sh)})
		perm := exceptionBody("java.lang.RuntimeException: 权限拦截[username=normal1]")
		row := `{"alarmStatus":0,"executorAddress":null,"executorFailRetryCount":0,"executorHandler":"demoJobHandler",` +
			`"executorParam":"p","executorShardingParam":null,"handleCode":0,"handleMsg":null,"handleTime":null,"id":` +
			strconv.FormatInt(failed.ID, 10) + `,"jobGroup":1,"jobId":` + itoaS(w.mine.ID) + `,"triggerCode":500,"triggerMsg":` +
			string(jackson(msg)) + `,"triggerTime":"2026-11-27 14:18:23"}`
		w.run(t, []call34{
			{name: "failed logs of group 1", path: "/joblog/pageList", form: "jobGroup=1&jobId=0&logStatus=2&filterTime=",
				body: `{"code":200,"data":{"data":[` + row + `],"offset":0,"pagesize":0,"total":1},"msg":"Success","success":true}`},
			{name: "a range of one second", path: "/joblog/pageList",
				form: "jobGroup=0&jobId=0&logStatus=-1&filterTime=" + url.QueryEscape("2026-11-27 14:18:23 - 2026-11-27 14:18:23"),
				body: `{"code":200,"data":{"data":[` + row + `],"offset":0,"pagesize":0,"total":1},"msg":"Success","success":true}`},
			{name: "a range lenient dates parse", path: "/joblog/pageList",
				form: "jobGroup=1&jobId=0&logStatus=2&filterTime=" + url.QueryEscape("2026-11-27 14:18:23 - 2026-11-26 24:00:00x"),
				body: `{"code":200,"data":{"data":[],"offset":0,"pagesize":0,"total":0},"msg":"Success","success":true}`},
			{name: "a range that does not parse", path: "/joblog/pageList",
				form: "jobGroup=0&jobId=0&logStatus=-1&filterTime=" + url.QueryEscape("2026-11-27 00:00:00 - garbage"),
				body: exceptionBody("java.lang.RuntimeException: parse error."), gson: true},
			{name: "another group and a job: both hold", path: "/joblog/pageList",
				form: "jobGroup=2&jobId=" + itoaS(w.mine.ID) + "&logStatus=-1&filterTime=",
				body: `{"code":200,"data":{"data":[],"offset":0,"pagesize":0,"total":0},"msg":"Success","success":true}`},
			{name: "all groups as a normal user", as: "normal1", path: "/joblog/pageList", form: "jobGroup=0&jobId=0&logStatus=-1&filterTime=", body: perm, gson: true},
			{name: "list without filterTime", path: "/joblog/pageList", form: "jobGroup=0&jobId=0&logStatus=-1", status: 400},

			{name: "text of an unknown log", path: "/joblog/logDetailCat", form: "logId=999&fromLineNum=1", body: refusedBody("日志ID非法")},
			{name: "text of another group's log", as: "normal1", path: "/joblog/logDetailCat",
				form: "logId=" + strconv.FormatInt(foreign.ID, 10) + "&fromLineNum=1", body: refusedBody("权限拦截[username=normal1]")},
			{name: "kill a failed trigger", path: "/joblog/logKill", form: "id=" + strconv.FormatInt(failed.ID, 10), body: refusedBody("调度失败，无法终止日志")},
			{name: "kill another group's log", as: "normal1", path: "/joblog/logKill", form: "id=" + strconv.FormatInt(foreign.ID, 10), body: perm, gson: true},
			{name: "clear with an unknown type", as: "normal1", path: "/joblog/clearLog", form: "jobGroup=1&jobId=0&type=0", body: refusedBody("清理类型参数异常")},
			{name: "clear another group", as: "normal1", path: "/joblog/clearLog", form: "jobGroup=2&jobId=0&type=1", body: perm, gson: true},
			// 3.4.2 fails with a NullPointerException: ours names the refusal.
			{name: "kill an unknown log", path: "/joblog/logKill", form: "id=999", body: exceptionBody("日志ID非法"), gson: true},
		})

		// The text: the executor's Response relayed with <br>, <b> and </b>
		// kept (recording joblog_logDetailCat: "line2 <b>&amp;&#39;&quot;").
		x := w.e.c.cfg.Executor.(*fakeExecutor)
		x.logAnswer = api.ReturnT[api.LogResult]{Code: 200, Msg: schema.Ptr("Success"),
			Content: &api.LogResult{FromLineNum: 1, ToLineNum: 2, LogContent: "line1<br>\nline2 <b>&'\"</b><i>"}}
		w.run(t, []call34{{name: "log text", as: "normal1", path: "/joblog/logDetailCat", form: "logId=" + strconv.FormatInt(running.ID, 10) + "&fromLineNum=1",
			body: `{"code":200,"data":{"end":false,"fromLineNum":1,"logContent":"line1<br>\nline2 <b>&amp;&#39;&quot;</b>&lt;i&gt;",` +
				`"toLineNum":2},"msg":"Success","success":true}`}})
		x.killAnswer = api.ReturnT[string]{Code: 200, Msg: schema.Ptr("job thread already killed.")}
		w.run(t, []call34{{name: "kill", as: "normal1", path: "/joblog/logKill", form: "id=" + strconv.FormatInt(running.ID, 10),
			body: `{"code":200,"data":"job thread already killed.","msg":"Success","success":true}`}})
		if l, _ := s.LogLoad(context.Background(), running.ID); l.HandleCode != 500 || l.HandleMsg == nil || *l.HandleMsg != "人为操作，主动终止:job thread already killed." {
			t.Errorf("killed log %d %v", l.HandleCode, l.HandleMsg)
		}
	})
}

// TestUnknownPath34: a path the 3.4.2 console does not map is the 404
// error page, logged in or not (the jar's answer to /jobinfo/remove).
func TestUnknownPath34(t *testing.T) {
	e := newEnv34(t, storetest.OpenGen(t, schema.Gen3, storetest.SQLiteURL(t, ""), "", ""), 0)
	for _, cookie := range []string{"", e.login("admin", "123456")} {
		res, body := e.post("/jobinfo/remove", cookie, url.Values{"id": {"1"}})
		if res.StatusCode != http.StatusNotFound || !strings.Contains(body, "HTTP Status Code: 404") {
			t.Errorf("cookie %q: %d %s", cookie, res.StatusCode, body)
		}
	}
}

// TestAudit34: the job service's operation log names the signed-in user
// (3.4.2: "xxl-job operation log: operator = normal1, type =
// jobinfo-trigger, content = <id>"), for a change and for run once.
func TestAudit34(t *testing.T) {
	w := newWorld34(t, storetest.OpenGen(t, schema.Gen3, storetest.SQLiteURL(t, ""), "", ""))
	mine := itoaS(w.mine.ID)
	w.run(t, []call34{
		{name: "start", as: "normal1", path: "/jobinfo/start", form: "ids[]=" + mine, body: okBody},
		{name: "trigger", as: "normal1", path: "/jobinfo/trigger", form: "id=" + mine + "&executorParam=&addressList=", body: okBody},
	})
	for _, action := range []string{"jobinfo-start", "jobinfo-trigger"} {
		if want := "xxl-job operation log: operator = normal1, type = " + action + ", content = " + mine; !strings.Contains(w.e.audit.String(), want) {
			t.Errorf("no line %q in:\n%s", want, w.e.audit.String())
		}
	}
}

// TestNextTriggerTime34: the preview in the admin's zone, FIX_RATE rounded
// up to whole seconds (answers of the 3.4.2 jar at 14:17:50.523 for rate
// 10, at 14:41:28.886 for "0/5 * * * * ?"; a cron past its last year
// previews nothing).
func TestNextTriggerTime34(t *testing.T) {
	w := newWorld34(t, storetest.OpenGen(t, schema.Gen3, storetest.SQLiteURL(t, ""), "", ""))
	*w.e.now = time.Date(2026, 11, 27, 6, 17, 50, 523e6, time.UTC)
	w.run(t, []call34{{name: "FIX_RATE 10", path: "/jobinfo/nextTriggerTime", form: "scheduleType=FIX_RATE&scheduleConf=10",
		body: `{"code":200,"data":["2026-11-27 14:18:01","2026-11-27 14:18:11","2026-11-27 14:18:21","2026-11-27 14:18:31",` +
			`"2026-11-27 14:18:41"],"msg":"Success","success":true}`}})
	*w.e.now = time.Date(2026, 11, 27, 6, 41, 28, 886e6, time.UTC)
	w.run(t, []call34{
		{name: "CRON every 5 s", path: "/jobinfo/nextTriggerTime", form: "scheduleType=CRON&scheduleConf=" + url.QueryEscape("0/5 * * * * ?"),
			body: `{"code":200,"data":["2026-11-27 14:41:30","2026-11-27 14:41:35","2026-11-27 14:41:40","2026-11-27 14:41:45",` +
				`"2026-11-27 14:41:50"],"msg":"Success","success":true}`},
		{name: "CRON in the past", path: "/jobinfo/nextTriggerTime", form: "scheduleType=CRON&scheduleConf=" + url.QueryEscape("0 0 0 1 1 ? 2020"),
			body: `{"code":200,"data":[],"msg":"Success","success":true}`},
	})
}

// TestCrossSite34: ours refuses a state-changing request a browser sends
// from another site (Origin or Sec-Fetch-Site), in the Response shape with
// 403; the Java admin has no such check. Scripts send neither header.
func TestCrossSite34(t *testing.T) {
	w := newWorld34(t, storetest.OpenGen(t, schema.Gen3, storetest.SQLiteURL(t, ""), "", ""))
	for _, h := range []map[string]string{{"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}} {
		req, _ := http.NewRequest(http.MethodPost, w.e.srv.URL+"/jobinfo/delete", strings.NewReader("ids[]="+itoaS(w.mine.ID)))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range h {
			req.Header.Set(k, v)
		}
		res, body := w.e.do(req, w.admin)
		if res.StatusCode != http.StatusForbidden || body != refusedBody("Cross-site request refused") {
			t.Errorf("%v: %d %s", h, res.StatusCode, body)
		}
	}
	if _, err := w.e.store.JobLoad(context.Background(), w.mine.ID); err != nil {
		t.Errorf("the job is gone: %v", err)
	}
}
