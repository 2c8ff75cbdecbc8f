package browser_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/consolereplay"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// planted is markup that would set window.xss to its field's name if any
// part of it ran: an <img onerror>, a <script>, an attribute break-out
// into <svg onload>, a javascript: link, and template syntax that an
// evaluating renderer would turn into 49.
func planted(field string) string {
	set := `top.xss='` + field + `'`
	return field + `<img src=x onerror=` + set + `>"><svg onload=` + set + `><script>` + set + `</script>` +
		`<a href="javascript:` + set + `">` + field + `</a>{{7*7}}${7*7}`
}

// ranNothing holds while no planted code ran and no planted link exists.
const ranNothing = `window.xss === undefined && !document.querySelector('a[href^="javascript:" i]')`

// Markup planted in every text field the console shows — job, group, user
// and GLUE rows in the database, the executor's log content and run answer,
// a callback's handle message — is shown as its literal text on every page
// that shows the field, in the real browser under the console's CSP: no
// planted code runs, no planted element exists, no CSP violation is
// reported.
func TestPlantedMarkupStaysText(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	dbURL, db := newDB(t)
	exec := startExecutor(t)
	p := func(f string) string { return planted(f) }

	// rows as a direct database edit (or an older admin) could leave them
	now := db.Time(time.Now())
	exec1 := func(q string, args ...any) {
		t.Helper()
		if _, err := db.SQL.ExecContext(t.Context(), q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec1(`INSERT INTO xxl_job_group (id, app_name, title, address_type, address_list, update_time) VALUES (2, ?, ?, 1, ?, ?)`,
		p("appname"), p("title"), exec.address()+","+p("address"), now)
	job := func(id int, desc, author, email, glueType, handler, param, source, remark, child string) {
		exec1(`INSERT INTO xxl_job_info (id, job_group, job_desc, add_time, update_time, author, alarm_email,
			schedule_type, schedule_conf, misfire_strategy, executor_route_strategy, executor_handler,
			executor_param, executor_block_strategy, executor_timeout, executor_fail_retry_count,
			glue_type, glue_source, glue_remark, glue_updatetime, child_jobid,
			trigger_status, trigger_last_time, trigger_next_time)
			VALUES (?, 2, ?, ?, ?, ?, ?, 'NONE', '', 'DO_NOTHING', 'FIRST', ?, ?, 'SERIAL_EXECUTION', 0, 0, ?, ?, ?, ?, ?, 0, 0, 0)`,
			id, desc, now, now, author, email, handler, param, glueType, source, remark, now, child)
	}
	job(2, p("desc"), p("author"), p("email"), "BEAN", p("handler"), p("param"), "", "init", "3")
	job(3, "child job", "rec", "", "BEAN", "childHandler", "", "", "init", "")
	job(4, p("gluedesc"), "rec", "", "GLUE_SHELL", "", "", p("source"), p("remark"), p("childids"))
	exec1(`INSERT INTO xxl_job_logglue (job_id, glue_type, glue_source, glue_remark, add_time, update_time) VALUES (4, 'GLUE_SHELL', ?, ?, ?, ?)`,
		p("oldsource"), p("oldremark"), now, now)
	const pwd = "e10adc3949ba59abbe56e057f20f883e" // md5("123456")
	exec1(`INSERT INTO xxl_job_user (id, username, password, role, permission) VALUES (2, ?, ?, 0, '2')`, p("username"), pwd)
	exec1(`INSERT INTO xxl_job_user (id, username, password, role, permission) VALUES (3, 'victim2', ?, 0, ?)`, pwd, p("permission"))
	// the login form takes at most 20 characters: a short planted name that
	// logs in and is shown in every page's header
	const shortName = `"><svg onload=xss=1>`
	exec1(`INSERT INTO xxl_job_user (id, username, password, role, permission) VALUES (4, ?, ?, 0, '2')`, shortName, pwd)

	adm := runAdmin(t, dbURL, "en")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	// a run whose callback carries planted markup and triggers the child,
	// whose executor answer carries planted markup too
	api := newConsoleClient(t, adm.base, "admin", "123456")
	if ans := api.post("/jobinfo/trigger", "id", "2", "executorParam", p("runparam"), "addressList", ""); !strings.Contains(ans, `"code":200`) {
		t.Fatalf("run once: %s", ans)
	}
	run, err := exec.wait(ctx, "/run", 1)
	if err != nil {
		t.Fatal(err)
	}
	parentLog := int64(run.Body["logId"].(float64))
	exec.answerRun(500, new(p("runmsg")))
	callback(t, adm.root, parentLog, 200, p("handlemsg"))
	if _, err := exec.wait(ctx, "/run", 2); err != nil {
		t.Fatal(err)
	}
	childLog := one[int64](t, db, `SELECT MAX(id) FROM xxl_job_log WHERE job_id = 3`)
	eventually(t, ctx, func() bool {
		return one[int](t, db, `SELECT trigger_code FROM xxl_job_log WHERE id = ?`, childLog) == 500
	})
	exec.answerLog(p("logcontent") + "\nsecond line\n")

	tb := browser.NewTab(t, b, 3*time.Minute)
	login(tb, adm.base, "admin", "123456")
	clean := func(what string) {
		tb.T.Helper()
		var ok bool
		tb.Run(ranNothing, &ok)
		if !ok {
			t.Errorf("%s: planted code ran (window.xss=%s)", what, tb.Str(`String(window.xss)`))
		}
		tb.Clean(what)
	}
	// shows checks that an element's text (or a form field's value) holds
	// the planted markup of field as text
	shows := func(sel, field string) {
		tb.T.Helper()
		var got []string
		tb.Run(`Array.prototype.map.call(document.querySelectorAll(`+quote(sel)+`), function (e) {
			return e.tagName === 'INPUT' || e.tagName === 'TEXTAREA' ? e.value : e.textContent; })`, &got)
		for _, g := range got {
			if strings.Contains(g, p(field)) {
				return
			}
		}
		t.Errorf("%s: no %s holds the %s text %q; found %q", tb.Str(`location.pathname`), sel, field, p(field), got)
	}
	dialog := func(open, what string) {
		tb.T.Helper()
		tb.Click(open)
		tb.Wait(`document.querySelector('.xj-dialog.in')`)
		clean(what)
	}

	// job list: description, author, handler; the group select's title
	tb.Open(adm.base + "/jobinfo?jobGroup=2")
	tb.Wait(`document.querySelectorAll('#xj-job-list tbody .btn-group').length === 3`)
	shows(`#xj-job-list tbody td`, "desc")
	shows(`#xj-job-list tbody td`, "author")
	shows(`#xj-job-list tbody td`, "handler")
	shows(`#xj-filter-group option`, "title")
	clean("job list")
	row := func(id int) string {
		return fmt.Sprintf(`#xj-job-list tbody tr:nth-child(%d) `, map[int]int{4: 1, 3: 2, 2: 3}[id]) // newest first
	}
	tb.Click(row(2) + `.xj-edit`)
	tb.Shown(`#xj-job-modal`)
	for sel, field := range map[string]string{"#xj-f-desc": "desc", "#xj-f-author": "author", "#xj-f-email": "email",
		"#xj-f-handler": "handler", "#xj-f-param": "param", "#xj-f-group option": "title"} {
		shows(sel, field)
	}
	clean("job edit form")
	tb.Click(`#xj-job-modal [data-dismiss=modal]`)
	tb.Hidden(`#xj-job-modal`)
	// the child ids are refused on save, the refusal shows them as text
	tb.Click(row(4) + `.xj-edit`)
	tb.Shown(`#xj-job-modal`)
	shows("#xj-f-child", "childids")
	tb.Click(`#xj-job-modal button[type=submit]`)
	tb.Wait(`document.querySelector('.xj-dialog.in')`)
	shows(`.xj-dialog.in .modal-body`, "childids")
	clean("child id refusal")
	tb.Confirm()
	tb.Click(`#xj-job-modal [data-dismiss=modal]`)
	tb.Hidden(`#xj-job-modal`)
	tb.Click(row(2) + `.xj-run`)
	tb.Shown(`#xj-trigger-modal`)
	shows("#xj-t-param", "param")
	clean("run once form")
	tb.Click(`#xj-trigger-modal [data-dismiss=modal]`)
	tb.Hidden(`#xj-trigger-modal`)
	dialog(row(2)+`.xj-registry`, "registry list")
	shows(`.xj-dialog.in .xj-address-list li`, "address")
	tb.Confirm()

	// log list: job and group selects, the log's parameter and handler,
	// trigger and handle messages
	tb.Open(adm.base + "/joblog?jobId=2")
	tb.Wait(`document.getElementById('xj-filter-job').value === '2' && ` + listLoaded("#xj-log-list"))
	shows(`#xj-filter-job option`, "desc")
	shows(`#xj-filter-group option`, "title")
	tb.Run(`document.getElementById('xj-filter-time').value = '2000-01-01 00:00:00 - 2100-01-01 00:00:00', true`, nil)
	tb.Click(`#xj-search`)
	tb.Wait(`document.querySelectorAll('#xj-log-list tbody .xj-handle-msg').length === 1`)
	clean("log list")
	dialog(`#xj-log-list tbody .xj-log-info`, "log info")
	shows(`.xj-dialog.in .xj-log-info-list`, "runparam")
	shows(`.xj-dialog.in .xj-log-info-list`, "handler")
	tb.Confirm()
	dialog(`#xj-log-list tbody .xj-handle-msg`, "handle msg")
	shows(`.xj-dialog.in .xj-msg`, "handlemsg")
	// the child-trigger result the admin appended keeps its colour
	if got := tb.Str(`(function () { var s = document.querySelector('.xj-dialog.in .xj-msg span'); return s ? s.style.color + s.textContent : ''; })()`); !strings.HasPrefix(got, "rgb(0, 192, 239)") {
		t.Errorf("child-trigger span in handle msg: %q", got)
	}
	tb.Confirm()
	tb.Click(`#xj-clean`)
	tb.Shown(`#xj-clear-modal`)
	shows(`#xj-clear-modal .xj-clear-job`, "desc")
	clean("clear dialog")
	tb.Click(`#xj-clear-modal [data-dismiss=modal]`)
	tb.Hidden(`#xj-clear-modal`)
	tb.Set(`#xj-filter-job`, "3")
	tb.Click(`#xj-search`)
	tb.Wait(`document.querySelectorAll('#xj-log-list tbody .xj-trigger-msg').length === 1 && !document.querySelector('#xj-log-list tbody .xj-handle-msg')`)
	dialog(`#xj-log-list tbody .xj-trigger-msg`, "trigger msg")
	shows(`.xj-dialog.in .xj-msg`, "runmsg")
	tb.Confirm()

	// the executor's log content
	tb.Open(adm.base + "/joblog/logDetailPage?id=" + itoa(parentLog))
	tb.Wait(`document.getElementById('xj-log-status').textContent !== '' && document.getElementById('xj-log-console').textContent !== ''`)
	shows(`#xj-log-console`, "logcontent")
	clean("log detail")

	// executor groups: appname, title, addresses
	tb.Open(adm.base + "/jobgroup")
	tb.Wait(`document.querySelectorAll('#xj-group-list tbody .btn-group').length === 2`)
	shows(`#xj-group-list tbody td`, "appname")
	shows(`#xj-group-list tbody td`, "title")
	clean("group list")
	tb.Click(`#xj-group-list tbody tr:nth-child(1) .xj-edit`)
	tb.Shown(`#xj-group-modal`)
	shows("#xj-g-appname", "appname")
	shows("#xj-g-title", "title")
	shows("#xj-g-address", "address")
	clean("group edit form")
	tb.Click(`#xj-group-modal [data-dismiss=modal]`)
	tb.Hidden(`#xj-group-modal`)
	dialog(`#xj-group-list tbody tr:nth-child(1) .xj-addresses`, "group addresses")
	shows(`.xj-dialog.in .xj-address-list li`, "address")
	tb.Confirm()

	// users: the name in the list and form, a planted permission checks
	// nothing; the group title beside its checkbox
	tb.Open(adm.base + "/user")
	tb.Wait(`document.querySelectorAll('#xj-user-list tbody .xj-edit').length === 4`)
	shows(`#xj-user-list tbody td`, "username")
	clean("user list")
	inRow(tb, "#xj-user-list", p("username"), ".xj-edit")
	tb.Shown(`#xj-user-modal`)
	shows("#xj-u-username", "username")
	shows(`#xj-user-modal label`, "title")
	clean("user form")
	tb.Click(`#xj-user-modal [data-dismiss=modal]`)
	tb.Hidden(`#xj-user-modal`)
	inRow(tb, "#xj-user-list", "victim2", ".xj-edit")
	tb.Shown(`#xj-user-modal`)
	if n := tb.Str(`String(document.querySelectorAll('#xj-user-modal input[name=permission]:checked').length)`); n != "0" {
		t.Errorf("a planted permission checked %s groups", n)
	}
	clean("planted permission")
	tb.Click(`#xj-user-modal [data-dismiss=modal]`)
	tb.Hidden(`#xj-user-modal`)

	// the GLUE IDE: source, remark, an older version's source and remark,
	// the job's description
	tb.Open(adm.base + "/jobcode?jobId=4")
	tb.Wait(`document.querySelector('.CodeMirror') && document.querySelector('.CodeMirror').CodeMirror.getValue() !== ''`)
	if got := tb.Str(`document.querySelector('.CodeMirror').CodeMirror.getValue()`); got != p("source") {
		t.Errorf("GLUE editor holds %q", got)
	}
	shows(`.xj-version`, "remark")
	shows(`.xj-version`, "oldremark")
	shows(`body`, "gluedesc")
	tb.Click(`.xj-version[data-version="0"]`)
	if got := tb.Str(`document.querySelector('.CodeMirror').CodeMirror.getValue()`); got != p("oldsource") {
		t.Errorf("older version loaded as %q", got)
	}
	clean("GLUE IDE")

	// the planted user name in the header of every page it opens
	tb.Open(adm.base + "/help")
	tb.Wait(`window.XJ`)
	tb.Click(`.xj-logout`)
	tb.Navigating(func() { tb.Accept() })
	login(tb, adm.base, shortName, "123456")
	for _, page := range []string{"/", "/jobinfo", "/joblog", "/help"} {
		tb.Open(adm.base + page)
		tb.Wait(`document.readyState === 'complete' && window.XJ`)
		if got := tb.Str(`document.querySelector('.navbar-custom-menu').textContent`); !strings.Contains(got, shortName) {
			t.Errorf("%s: header %q lacks the user name %q", page, got, shortName)
		}
		clean("header of " + page)
	}
}

// eventually waits (at most until ctx ends) for cond, checking every 20 ms.
func eventually(t *testing.T, ctx context.Context, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatal("condition not met in time")
		case <-tick.C:
		}
	}
}

// callback reports a log's result the way an executor does.
func callback(t *testing.T, root string, logID int64, code int, msg string) {
	t.Helper()
	body, _ := json.Marshal([]map[string]any{{"logId": logID, "logDateTim": time.Now().UnixMilli(), "handleCode": code, "handleMsg": msg}})
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, root+ctxPath+"/api/callback", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("XXL-JOB-ACCESS-TOKEN", consolereplay.AccessToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	ans, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(ans), `"code":200`) {
		t.Fatalf("callback: %s", ans)
	}
}

// consoleClient calls console endpoints as a script does, logged in.
type consoleClient struct {
	t    *testing.T
	base string
	http *http.Client
}

func newConsoleClient(t *testing.T, base, user, password string) *consoleClient {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &consoleClient{t: t, base: base, http: &http.Client{Jar: jar}}
	if ans := c.post("/login", "userName", user, "password", password); !strings.Contains(ans, `"code":200`) {
		t.Fatalf("login %s: %s", user, ans)
	}
	return c
}

func (c *consoleClient) post(path string, kv ...string) string {
	c.t.Helper()
	form := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		form.Add(kv[i], kv[i+1])
	}
	resp, err := c.http.PostForm(c.base+path, form)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
