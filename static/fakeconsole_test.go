package static_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/console"
	"github.com/xxl-admin-go/xxl-admin-go/static"
)

// csp is the Content-Security-Policy the console sends with every page.
const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"object-src 'none'; base-uri 'self'; frame-ancestors 'self'; form-action 'self'"

// request is one JSON call a page made.
type request struct {
	Path        string
	Form        url.Values
	Query       url.Values
	Body        string // a JSON body (the import); a form body is in Form
	XRW         string
	ContentType string
}

// fakeConsole serves the rendered sample pages under /xxl-job-admin, the
// embedded static tree under its versioned prefix, and canned answers (in
// the shapes of the Java recordings, with planted markup) for the JSON
// endpoints the scripts call. It records every JSON call.
type fakeConsole struct {
	*httptest.Server

	mu       sync.Mutex
	expired  bool // answer JSON calls with the login page, as the server does for anonymous calls
	requests []request
	arrived  chan struct{} // closed and replaced on every recorded call
}

func newFakeConsole(t *testing.T) *fakeConsole {
	f := &fakeConsole{arrived: make(chan struct{})}
	mux := http.NewServeMux()
	mux.Handle("GET "+contextPath+staticV+"/", http.StripPrefix(contextPath+staticV+"/", http.FileServerFS(static.Files())))
	pages := map[string]string{
		"/{$}": "index", "/jobinfo": "jobinfo", "/joblog": "joblog", "/joblog/logDetailPage": "joblog_detail",
		"/jobgroup": "jobgroup", "/jobcode": "jobcode", "/user": "user", "/help": "help", "/toLogin": "login",
		"/error": "error",
	}
	for path, name := range pages {
		mux.HandleFunc("GET "+contextPath+path, func(w http.ResponseWriter, r *http.Request) {
			f.page(t, w, r, name)
		})
	}
	mux.HandleFunc("POST "+contextPath+"/", f.json)
	mux.HandleFunc("GET "+contextPath+"/jobinfo/export", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="xxl-job-jobs-20261123-070228.json"`)
		w.Header().Set("Content-Type", "application/json;charset=UTF-8")
		_, _ = w.Write([]byte(exportDoc))
	})
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

// page renders a sample page; ?lang= picks the bundle, ?normal=1 a normal
// user, and the log detail page takes ?trigger= and ?handle= codes.
func (f *fakeConsole) page(t *testing.T, w http.ResponseWriter, r *http.Request, name string) {
	q := r.URL.Query()
	lang := q.Get("lang")
	if lang == "" {
		lang = "en"
	}
	p := samplePage(name, lang, q.Get("normal") == "")
	if name == "joblog_detail" {
		d := p.Data.(console.LogDetailData)
		if v, err := strconv.Atoi(q.Get("trigger")); err == nil {
			d.TriggerCode = v
		}
		if v, err := strconv.Atoi(q.Get("handle")); err == nil {
			d.HandleCode = v
		}
		if v, err := strconv.ParseInt(q.Get("id"), 10, 64); err == nil {
			d.LogID = v
		}
		p.Data = d
	}
	if c, err := r.Cookie("xxljob_adminlte_settings"); err == nil && c.Value == "off" {
		p.Collapsed = true
	}
	out, err := render(p)
	if err != nil {
		t.Error(err)
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Security-Policy", csp)
	w.Header().Set("Content-Type", "text/html;charset=UTF-8")
	_, _ = w.Write([]byte(out))
}

func (f *fakeConsole) json(w http.ResponseWriter, r *http.Request) {
	var body []byte
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = b
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	path := strings.TrimPrefix(r.URL.Path, contextPath)
	f.mu.Lock()
	f.requests = append(f.requests, request{
		Path: path, Form: r.PostForm, Query: r.URL.Query(), Body: string(body),
		XRW: r.Header.Get("X-Requested-With"), ContentType: r.Header.Get("Content-Type"),
	})
	close(f.arrived)
	f.arrived = make(chan struct{})
	expired := f.expired
	f.mu.Unlock()

	if expired { // what a redirect to /toLogin leaves the XHR with
		w.Header().Set("Content-Type", "text/html;charset=UTF-8")
		out, _ := render(samplePage("login", "en", false))
		_, _ = w.Write([]byte(out))
		return
	}
	answer, ok := answers(path, r.PostForm)
	if path == "/jobinfo/import" {
		answer, ok = importAnswer(r.URL.Query(), string(body)), true
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json;charset=utf-8")
	_, _ = w.Write([]byte(answer))
}

func (f *fakeConsole) setExpired(v bool) {
	f.mu.Lock()
	f.expired = v
	f.mu.Unlock()
}

// calls returns the recorded calls to path.
func (f *fakeConsole) calls(path string) []request {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []request
	for _, r := range f.requests {
		if r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// waitCall waits until the n-th call (1-based) to path arrived.
func (f *fakeConsole) waitCall(ctx context.Context, path string, n int) (request, error) {
	for {
		f.mu.Lock()
		arrived := f.arrived
		f.mu.Unlock()
		if c := f.calls(path); len(c) >= n {
			return c[n-1], nil
		}
		select {
		case <-arrived:
		case <-ctx.Done():
			return request{}, fmt.Errorf("no call %d to %s: %w", n, path, ctx.Err())
		}
	}
}

func (f *fakeConsole) url(path string) string { return f.URL + contextPath + path }

const ok200 = `{"code":200,"msg":null,"content":null}`

// The trigger message of a recorded manual trigger (joblog_pageList.en):
// the admin's own <br> and <span style="color:#00c0ef;" >.
const recordedTriggerMsg = `Job trigger type：Manual trigger<br>Trigger machine address：192.0.2.2<br>Execotor-Registry Type：Manual registration<br>Execotor-Registry Address：[http://127.0.0.1:19991/]<br>Route Strategy：First<br>Block Strategy：Serial execution<br>Job timeout period：0<br>Fail Retry Count：0<br><br><span style=\"color:#00c0ef;\" > >>>>>>>>>>>Trigger Job<<<<<<<<<<< </span><br>Trigger Job：<br>address：http://127.0.0.1:19991/<br>code：200<br>msg：null`

// A trigger message carrying an executor's markup.
const plantedTriggerMsg = `Trigger Job：<br>msg：<img src=x onerror=alert('trigger')><span style=\"color:red\" onclick=\"alert('span')\">red</span><span style=\"color:#f00\">ok</span>`

// A handle message with an executor's markup and the admin's child-trigger
// result appended (JobCompleter: "<br><br><span style=\"color:#00c0ef;\" >
// >>>>>>>>>>>Trigger child job<<<<<<<<<<< </span><br>").
const plantedHandleMsg = `<script>alert('handle')</script>first<br>second<img src=x onerror=alert('hm')><br><br><span style="color:#00c0ef;" > >>>>>>>>>>>Trigger child job<<<<<<<<<<< </span><br>`

func jobJSON(id int, desc, author, scheduleType, conf, glueType, handler string, status int) string {
	return fmt.Sprintf(`{"id":%d,"jobGroup":2,"jobDesc":%q,"addTime":"2026-11-21T23:02:22.000+00:00","updateTime":"2026-11-21T23:02:22.000+00:00","author":%q,"alarmEmail":"a@b.c","scheduleType":%q,"scheduleConf":%q,"misfireStrategy":"DO_NOTHING","executorRouteStrategy":"FIRST","executorHandler":%q,"executorParam":"p=1","executorBlockStrategy":"SERIAL_EXECUTION","executorTimeout":0,"executorFailRetryCount":0,"glueType":%q,"glueSource":"","glueRemark":"GLUE代码初始化","glueUpdatetime":"2026-11-21T23:02:22.000+00:00","childJobId":"","triggerStatus":%d,"triggerLastTime":0,"triggerNextTime":0}`,
		id, desc, author, scheduleType, conf, handler, glueType, status)
}

func logJSON(id, triggerCode, handleCode int, triggerMsg, handleMsg string) string {
	hm := "null"
	if handleMsg != "" {
		hm = fmt.Sprintf("%q", handleMsg)
	}
	ht := "null"
	if handleCode != 0 {
		ht = `"2026-11-22T23:03:30.000+00:00"`
	}
	return fmt.Sprintf(`{"id":%d,"jobGroup":2,"jobId":7,"executorAddress":"http://127.0.0.1:19991/","executorHandler":"demoJobHandler","executorParam":"<b>p</b>","executorShardingParam":null,"executorFailRetryCount":0,"triggerTime":"2026-11-22T23:02:30.000+00:00","triggerCode":%d,"triggerMsg":"%s","handleTime":%s,"handleCode":%d,"handleMsg":%s,"alarmStatus":0}`,
		id, triggerCode, triggerMsg, ht, handleCode, hm)
}

func list(rows ...string) string {
	return fmt.Sprintf(`{"recordsFiltered":%d,"data":[%s],"recordsTotal":%d}`, len(rows), strings.Join(rows, ","), len(rows))
}

// answers returns the canned JSON answer of a call.
func answers(path string, form url.Values) (string, bool) {
	switch path {
	case "/chartInfo": // chartInfo.en, UI default range
		return `{"code":200,"msg":null,"content":{"triggerCountFailTotal":2,"triggerDayList":["2026-11-21","2026-11-22","2026-11-23"],"triggerDayCountRunningList":[0,0,2],"triggerCountSucTotal":3,"triggerDayCountFailList":[0,0,2],"triggerCountRunningTotal":2,"triggerDayCountSucList":[1,0,2]}}`, true
	case "/jobinfo/pageList":
		return list(
			jobJSON(9, xssDesc, xssAuthor, "CRON", "0 0 1 * * ?", "BEAN", "demoJobHandler", 1),
			jobJSON(7, "fix rate job", "rec", "FIX_RATE", "3600", "GLUE_SHELL", "", 0),
			jobJSON(8, "none job", "rec", "NONE", "", "BEAN", "demoJobHandler", 0),
		), true
	case "/jobinfo/nextTriggerTime":
		if form.Get("scheduleConf") == "bad" {
			return `{"code":500,"msg":"Schedule TypeillegalIllegal characters for this position: 'BAD'","content":null}`, true
		}
		return `{"code":200,"msg":null,"content":["2026-11-24 01:00:00","2026-11-25 01:00:00","2026-11-26 01:00:00","2026-11-27 01:00:00","2026-11-28 01:00:00"]}`, true
	case "/jobinfo/add":
		if form.Get("childJobId") != "" { // jobinfo_add_validation.en: markup echoed in msg
			return `{"code":500,"msg":"Child Job ID(<img src=x onerror=alert('child')>)illegal","content":null}`, true
		}
		return `{"code":200,"msg":null,"content":"10"}`, true
	case "/jobinfo/start":
		if form.Get("id") == "8" { // a refusal for one job of a batch, with markup in its text
			return `{"code":500,"msg":"` + xssRefusal + `","content":null}`, true
		}
		return ok200, true
	case "/jobinfo/update", "/jobinfo/trigger", "/jobinfo/stop", "/jobinfo/remove",
		"/jobgroup/save", "/jobgroup/update", "/jobgroup/remove", "/user/add", "/user/update", "/user/remove",
		"/jobcode/save", "/joblog/clearLog", "/login", "/logout", "/user/updatePwd":
		return ok200, true
	case "/jobgroup/loadById":
		return `{"code":200,"msg":null,"content":{"id":2,"appname":"fake-executor","title":"t","addressType":1,"addressList":"http://127.0.0.1:19991/","updateTime":"2026-11-21T23:02:22.000+00:00","registryList":["http://127.0.0.1:19991/","` + xssTitle + `"]}}`, true
	case "/jobgroup/pageList":
		return list(
			`{"id":2,"appname":"fake-executor","title":"`+xssTitle+`","addressType":1,"addressList":"http://127.0.0.1:19991/","updateTime":"2026-11-21T23:02:22.000+00:00","registryList":["http://127.0.0.1:19991/","<svg onload=alert('addr')>"]}`,
			`{"id":1,"appname":"xxl-job-executor-sample","title":"示例执行器","addressType":0,"addressList":null,"updateTime":"2026-11-21T23:02:22.000+00:00","registryList":null}`,
		), true
	case "/user/pageList":
		return list(
			`{"id":1,"username":"admin","password":null,"role":1,"permission":null}`,
			`{"id":2,"username":"`+xssUser+`","password":null,"role":0,"permission":"2,3"}`,
		), true
	case "/joblog/getJobsByGroup":
		return `{"code":200,"msg":null,"content":[` + jobJSON(7, xssDesc, "rec", "CRON", "0 0 1 * * ?", "BEAN", "h", 0) + `,` +
			jobJSON(8, "none job", "rec", "NONE", "", "BEAN", "h", 0) + `]}`, true
	case "/joblog/pageList":
		if form.Get("logStatus") == "2" { // a large table: the total is a lower bound
			return `{"recordsFiltered":51,"data":[` + logJSON(2, 200, 500, "", "failed") + `],"recordsTotal":51,"countExact":false}`, true
		}
		return list(
			logJSON(3, 200, 0, recordedTriggerMsg, ""),
			logJSON(2, 200, 500, plantedTriggerMsg, plantedHandleMsg),
			logJSON(1, 500, 0, "Trigger Fail：registry address is empty", ""),
		), true
	case "/joblog/logKill":
		return `{"code":200,"msg":null,"content":"job thread already killed."}`, true
	case "/joblog/logDetailCat": // joblog_logDetailCat.en: the executor's lines, HTML-escaped once
		if form.Get("fromLineNum") == "1" {
			end := form.Get("logId") != "3"
			return fmt.Sprintf(`{"code":200,"msg":null,"content":{"fromLineNum":1,"toLineNum":2,"logContent":"line1\nline2 &lt;b&gt;&amp;&#39;&quot;\n","end":%t}}`, end), true
		}
		return `{"code":200,"msg":null,"content":{"fromLineNum":3,"toLineNum":2,"logContent":"","end":true}}`, true
	}
	return "", false
}

// A refusal with markup, for one job of a batch and for an import.
const xssRefusal = `job 8 (fake-executor / demoJobHandler / \"<img src=x onerror=alert('refusal')>\"): Cronillegal`

// exportDoc is the fake console's export download.
const exportDoc = `{"format":"xxl-admin-go/jobs","version":1,"exportedAt":"2026-11-23T07:02:28+08:00","groups":[],"jobs":[]}`

// importAnswer is the answer to POST /jobinfo/import: a refusal when the
// document holds "bad", else a report (names with planted markup) in the
// mode and dry-run state asked for.
func importAnswer(q url.Values, body string) string {
	if strings.Contains(body, "bad") {
		return `{"code":500,"msg":"` + xssRefusal + `","content":null}`
	}
	return fmt.Sprintf(`{"code":200,"msg":null,"content":{"mode":%q,"dryRun":%t,"changes":[`+
		`{"kind":"group","name":"fake-executor","outcome":"created","id":0},`+
		`{"kind":"job","name":"fake-executor / demoJobHandler / \"%s\"","outcome":"created","id":0},`+
		`{"kind":"job","name":"key \"orders/cleanup\"","outcome":"kept","id":7,"fields":["author","scheduleConf"]}]}}`,
		q.Get("mode"), q.Get("dryRun") == "true", xssDesc)
}
