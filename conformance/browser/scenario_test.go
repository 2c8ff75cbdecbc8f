package browser_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// The browser scenario, on our real admin (SQLite, seed rows only)
// with a fake executor, every step through the pages and checked on what
// it really did: the database rows and what the executor received. Every
// page must stay free of script errors, CSP violations and failed loads.
func TestScenario(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	url, db := newDB(t)
	exec := startExecutor(t)
	adm := runAdmin(t, url, "en")
	base := adm.base
	tb := browser.NewTab(t, b, 4*time.Minute)

	// log in
	login(tb, base, "admin", "123456")
	tb.Clean("login")

	// an executor group with the fake executor as its manual address
	tb.Open(base + "/jobgroup")
	tb.Wait(`document.querySelectorAll('#xj-group-list tbody .btn-group').length === 1`)
	tb.Click(`#xj-add`)
	tb.Shown(`#xj-group-modal`)
	tb.Set(`#xj-g-appname`, "scenario-exec")
	tb.Set(`#xj-g-title`, "scenario")
	tb.Click(`#xj-group-modal input[name=addressType][value="1"]`)
	tb.Set(`#xj-g-address`, exec.address())
	tb.Click(`#xj-group-modal button[type=submit]`)
	tb.Hidden(`#xj-group-modal`)
	tb.Wait(`document.querySelectorAll('#xj-group-list tbody .btn-group').length === 2`)
	group := one[int64](t, db, `SELECT id FROM xxl_job_group WHERE app_name = 'scenario-exec'`)
	if got := one[string](t, db, `SELECT address_list FROM xxl_job_group WHERE id = ?`, group); got != exec.address() {
		t.Errorf("group address_list %q", got)
	}
	if got := one[int](t, db, `SELECT address_type FROM xxl_job_group WHERE id = ?`, group); got != 1 {
		t.Errorf("group address_type %d", got)
	}
	tb.Clean("executor group")

	// a GLUE shell job whose cron is made in the form's cron builder:
	// 03:00:00 on the last day of every month
	const cron = "0 0 3 L * ?"
	tb.Open(base + "/jobinfo?jobGroup=" + itoa(group))
	tb.Wait(listLoaded("#xj-job-list"))
	tb.Click(`#xj-add`)
	tb.Shown(`#xj-job-modal`)
	tb.Set(`#xj-f-group`, itoa(group))
	tb.Set(`#xj-f-desc`, "scenario job")
	tb.Set(`#xj-f-author`, "tester")
	tb.Set(`#xj-f-glue`, "GLUE_SHELL")
	tb.Click(`.xj-cron-toggle`)
	tb.Wait(`!document.querySelector('.xj-cron-builder').hidden`)
	cronValue := func() string { return tb.Str(`document.getElementById('xj-f-cron').value`) }
	// the builder shows an empty field as 0 0 0 * * ? and writes on change
	for _, step := range []struct{ click, want string }{
		{`.xj-cron-pane[data-field=hour] .xj-cron-values input[value="3"]`, "0 0 0,3 * * ?"},
		{`.xj-cron-pane[data-field=hour] .xj-cron-values input[value="0"]`, "0 0 3 * * ?"},
		{`.xj-cron-pane[data-field=day] input[value=last]`, cron},
	} {
		tb.Click(step.click)
		if got := cronValue(); got != step.want {
			t.Fatalf("after %s the cron is %q, want %q", step.click, got, step.want)
		}
	}
	tb.Click(`#xj-job-modal button[type=submit]`)
	tb.Hidden(`#xj-job-modal`)
	tb.Wait(`document.querySelectorAll('#xj-job-list tbody .btn-group').length === 1`)
	job := one[int64](t, db, `SELECT id FROM xxl_job_info WHERE job_desc = 'scenario job'`)
	var row struct {
		group                    int64
		stype, conf, glue, owner string
	}
	if err := db.SQL.QueryRowContext(t.Context(), `SELECT job_group, schedule_type, schedule_conf, glue_type, author
		FROM xxl_job_info WHERE id = ?`, job).Scan(&row.group, &row.stype, &row.conf, &row.glue, &row.owner); err != nil {
		t.Fatal(err)
	}
	if row.group != group || row.stype != "CRON" || row.conf != cron || row.glue != "GLUE_SHELL" || row.owner != "tester" {
		t.Errorf("job row %+v", row)
	}
	tb.Clean("job add")

	// start it, and see its next trigger times
	first := `#xj-job-list tbody tr:nth-child(1) `
	tb.Click(first + `.xj-start`)
	tb.Confirm()
	tb.Wait(`document.querySelector('` + first + `.label-success')`)
	if got := one[int](t, db, `SELECT trigger_status FROM xxl_job_info WHERE id = ?`, job); got != 1 {
		t.Errorf("trigger_status %d after start", got)
	}
	next := one[int64](t, db, `SELECT trigger_next_time FROM xxl_job_info WHERE id = ?`, job)
	tb.Click(first + `.xj-next-time`)
	tb.Wait(`document.querySelectorAll('.xj-dialog.in .xj-next-times li').length === 5`)
	var times []string
	tb.Run(`Array.prototype.map.call(document.querySelectorAll('.xj-dialog.in .xj-next-times li'), function (li) { return li.textContent; })`, &times)
	checkLastDays(t, times)
	if want := time.UnixMilli(next).In(shanghai(t)).Format("2006-01-02 15:04:05"); len(times) > 0 && times[0] != want {
		t.Errorf("first next time %q, trigger_next_time %s", times[0], want)
	}
	tb.Confirm()
	tb.Clean("start and next times")

	// run it once with a parameter and an address: the executor receives
	// exactly that, once
	const param = "scenario param ☃ a=1&b=2"
	tb.Click(first + `.xj-run`)
	tb.Shown(`#xj-trigger-modal`)
	tb.Set(`#xj-t-param`, param)
	tb.Set(`#xj-t-address`, exec.address())
	tb.Click(`#xj-trigger-modal button[type=submit]`)
	tb.Hidden(`#xj-trigger-modal`)
	run, err := exec.wait(tb.Ctx, "/run", 1)
	if err != nil {
		t.Fatal(err)
	}
	if run.Body["jobId"] != float64(job) || run.Body["executorParams"] != param || run.Body["glueType"] != "GLUE_SHELL" {
		t.Errorf("executor received %v", run.Body)
	}
	logID := int64(run.Body["logId"].(float64))
	tb.Clean("run once")

	// the log list, filtered to the running rows of the job; the log
	// detail from the executor's /log; kill
	tb.Open(base + "/joblog?jobId=" + itoa(job))
	tb.Wait(`document.getElementById('xj-filter-job').value === '` + itoa(job) + `' && ` + listLoaded("#xj-log-list"))
	tb.Run(`document.getElementById('xj-filter-time').value = '2000-01-01 00:00:00 - 2100-01-01 00:00:00', true`, nil)
	tb.Set(`#xj-filter-status`, "3") // running
	tb.Wait(`document.querySelectorAll('#xj-log-list tbody .xj-kill').length === 1`)
	if n := len(exec.callsTo("/run")); n != 1 {
		t.Errorf("executor received %d runs, want 1", n)
	}
	var logRow struct {
		addr, param string
		code        int
	}
	if err := db.SQL.QueryRowContext(t.Context(), `SELECT executor_address, executor_param, trigger_code FROM xxl_job_log WHERE id = ?`,
		logID).Scan(&logRow.addr, &logRow.param, &logRow.code); err != nil {
		t.Fatal(err)
	}
	if logRow.addr != exec.address() || logRow.param != param || logRow.code != 200 {
		t.Errorf("log row %+v", logRow)
	}
	detail := tb.Str(`document.querySelector('#xj-log-list tbody a[href*="logDetailPage"]').getAttribute('href')`)
	exec.answerLog("scenario line 1\nscenario <line> 2\n")
	tb.Open(strings.TrimSuffix(base, ctxPath) + detail)
	tb.Wait(`document.getElementById('xj-log-console').textContent === 'scenario line 1\nscenario <line> 2\n'`)
	if c := exec.callsTo("/log"); len(c) == 0 || c[0].Body["logId"] != float64(logID) {
		t.Errorf("executor /log calls %v", c)
	}
	tb.Clean("log detail")
	tb.Open(base + "/joblog?jobId=" + itoa(job))
	tb.Wait(listLoaded("#xj-log-list"))
	tb.Run(`document.getElementById('xj-filter-time').value = '2000-01-01 00:00:00 - 2100-01-01 00:00:00', true`, nil)
	tb.Set(`#xj-filter-status`, "3")
	tb.Wait(`document.querySelectorAll('#xj-log-list tbody .xj-kill').length === 1`)
	tb.Click(`#xj-log-list tbody .xj-kill`)
	tb.Confirm()
	tb.Wait(`document.querySelector('.xj-toast')`)
	tb.Wait(`document.querySelectorAll('#xj-log-list tbody .xj-kill').length === 0`)
	if kill, err := exec.wait(tb.Ctx, "/kill", 1); err != nil || kill.Body["jobId"] != float64(job) {
		t.Errorf("executor /kill: %v %v", kill.Body, err)
	}
	if got := one[int](t, db, `SELECT handle_code FROM xxl_job_log WHERE id = ?`, logID); got != 500 {
		t.Errorf("killed log handle_code %d", got)
	}
	tb.Clean("kill")

	// GLUE: two saves, then the older one restored
	const v2, v3 = "#!/bin/bash\necho v2\n", "#!/bin/bash\necho v3\n"
	save := func(source, remark string) {
		tb.T.Helper()
		tb.Open(base + "/jobcode?jobId=" + itoa(job))
		tb.Wait(`document.querySelector('.CodeMirror') && document.querySelector('.CodeMirror').CodeMirror.getValue() !== ''`)
		if source != "" {
			tb.Run(`document.querySelector('.CodeMirror').CodeMirror.setValue(`+quote(source)+`), true`, nil)
		}
		tb.Click(`#xj-ide-save`)
		tb.Shown(`#xj-remark-modal`)
		tb.Set(`#xj-remark`, remark)
		tb.Click(`#xj-remark-modal button[type=submit]`)
		tb.Wait(`document.querySelector('.xj-dialog.in')`)
		tb.Navigating(func() { tb.Click(`.xj-dialog.in .btn-primary`) })
		tb.Clean("GLUE save " + remark)
	}
	save(v2, "second version")
	save(v3, "third version")
	tb.Wait(`document.querySelector('.CodeMirror') && document.querySelector('.CodeMirror').CodeMirror.getValue() === ` + quote(v3))
	tb.Click(`.xj-version[data-version="1"]`) // newest first: 0 is v3, 1 is v2
	if got := tb.Str(`document.querySelector('.CodeMirror').CodeMirror.getValue()`); got != v2 {
		t.Fatalf("older version loaded as %q", got)
	}
	tb.Click(`#xj-ide-save`)
	tb.Shown(`#xj-remark-modal`)
	tb.Set(`#xj-remark`, "restore v2")
	tb.Click(`#xj-remark-modal button[type=submit]`)
	tb.Wait(`document.querySelector('.xj-dialog.in')`)
	tb.Navigating(func() { tb.Click(`.xj-dialog.in .btn-primary`) })
	if got := one[string](t, db, `SELECT glue_source FROM xxl_job_info WHERE id = ?`, job); got != v2 {
		t.Errorf("glue_source after restore %q", got)
	}
	if got := one[string](t, db, `SELECT glue_remark FROM xxl_job_info WHERE id = ?`, job); got != "restore v2" {
		t.Errorf("glue_remark after restore %q", got)
	}
	if got := one[int](t, db, `SELECT COUNT(*) FROM xxl_job_logglue WHERE job_id = ?`, job); got != 3 {
		t.Errorf("%d GLUE versions, want 3", got)
	}
	tb.Clean("GLUE restore")

	// a user with the one group, and what it sees
	tb.Open(base + "/user")
	tb.Wait(`document.querySelectorAll('#xj-user-list tbody .xj-edit').length === 1`)
	tb.Click(`#xj-add`)
	tb.Shown(`#xj-user-modal`)
	tb.Set(`#xj-u-username`, "scenario1")
	tb.Set(`#xj-u-password`, "pass1234")
	tb.Click(`#xj-user-modal input[name=permission][value="` + itoa(group) + `"]`)
	tb.Click(`#xj-user-modal button[type=submit]`)
	tb.Hidden(`#xj-user-modal`)
	tb.Wait(`document.querySelectorAll('#xj-user-list tbody .xj-edit').length === 2`)
	if got := one[string](t, db, `SELECT permission FROM xxl_job_user WHERE username = 'scenario1'`); got != itoa(group) {
		t.Errorf("new user's permission %q", got)
	}
	tb.Clean("user add")
	logout(tb)
	login(tb, base, "scenario1", "pass1234")
	tb.Open(base + "/jobinfo")
	tb.Wait(`document.querySelectorAll('#xj-job-list tbody .btn-group').length === 1`)
	var groups []string
	tb.Run(`Array.prototype.map.call(document.querySelectorAll('#xj-filter-group option'), function (o) { return o.value; })`, &groups)
	if len(groups) != 1 || groups[0] != itoa(group) {
		t.Errorf("the user is offered groups %v", groups)
	}
	if got := tb.Str(`document.querySelector('#xj-job-list tbody td:nth-child(3)').textContent`); got != "scenario job" {
		t.Errorf("the user sees job %q", got)
	}
	if n := tb.Str(`String(document.querySelectorAll('a[href$="/jobgroup"], a[href$="/user"]').length)`); n != "0" {
		t.Error("the user's menu links the admin pages")
	}
	tb.Clean("user's job list")
	tb.Open(base + "/joblog")
	tb.Wait(listLoaded("#xj-log-list"))
	groups = nil
	tb.Run(`Array.prototype.map.call(document.querySelectorAll('#xj-filter-group option'), function (o) { return o.value; })`, &groups)
	if len(groups) != 1 || groups[0] != itoa(group) {
		t.Errorf("the user's log list offers groups %v", groups)
	}
	tb.Clean("user's log list")
	tb.Open(base + "/jobgroup")
	tb.Wait(`document.querySelector('.error-message')`)
	if got := tb.Str(`document.querySelector('.error-message').textContent`); !strings.Contains(got, "Permission limit") {
		t.Errorf("the user's /jobgroup shows %q", got)
	}
	tb.Clean("user's refused page")
	tb.Open(base + "/help")
	tb.Wait(`window.XJ`)
	logout(tb)

	// another language: the same database under xxl.job.i18n=zh_CN
	adm.stop()
	zh := i18n.Load("zh_CN")
	base = runAdmin(t, url, "zh_CN").base
	tb.Open(base + "/toLogin")
	tb.Wait(`document.querySelector('.icheckbox_square-blue')`)
	if got := tb.Str(`document.documentElement.lang`); got != "zh-CN" {
		t.Errorf("html lang %q", got)
	}
	login(tb, base, "admin", "123456")
	if got := tb.Str(`document.title`); got != zh.Text("admin_name") {
		t.Errorf("zh_CN title %q", got)
	}
	tb.Open(base + "/joblog?jobId=" + itoa(job))
	tb.Wait(listLoaded("#xj-log-list"))
	tb.Run(`document.getElementById('xj-filter-time').value = '2000-01-01 00:00:00 - 2100-01-01 00:00:00', true`, nil)
	tb.Click(`#xj-search`)
	tb.Wait(`document.querySelectorAll('#xj-log-list tbody .xj-handle-msg').length === 1`)
	menu := tb.Str(`document.querySelector('.sidebar-menu').textContent`)
	for _, key := range []string{"jobinfo_name", "joblog_name", "jobgroup_name", "user_manage"} {
		if !strings.Contains(menu, zh.Text(key)) {
			t.Errorf("zh_CN menu %q lacks %q", menu, zh.Text(key))
		}
	}
	tb.Click(`#xj-log-list tbody .xj-handle-msg`)
	tb.Wait(`document.querySelector('.xj-dialog.in .xj-msg')`)
	// the message was stored by the English admin; the dialog is Chinese
	if got := tb.Str(`document.querySelector('.xj-dialog.in .xj-msg').textContent`); got != i18n.Load("en").Text("joblog_kill_log_byman")+":job thread already killed." {
		t.Errorf("killed log's handle msg %q", got)
	}
	if got := tb.Str(`document.querySelector('.xj-dialog.in .modal-title').textContent`); got != zh.Text("joblog_field_handleMsg") {
		t.Errorf("zh_CN dialog title %q", got)
	}
	tb.Confirm()
	tb.Clean("zh_CN pages")

	// log out
	logout(tb)
	tb.Open(base + "/jobinfo")
	if got := tb.Str(`location.pathname`); got != ctxPath+"/toLogin" {
		t.Errorf("logged out, /jobinfo ended at %q", got)
	}
	tb.Clean("logout")
}

func logout(tb *browser.Tab) {
	tb.T.Helper()
	tb.Click(`.xj-logout`)
	tb.Navigating(func() { tb.Accept() })
	if got := tb.Str(`location.pathname`); got != ctxPath+"/toLogin" {
		tb.T.Fatalf("after logout at %q", got)
	}
}

var nextTimeRe = regexp.MustCompile(`^\d{4}-\d\d-\d\d 03:00:00$`)

// checkLastDays checks five next times of "0 0 3 L * ?": 03:00:00 on the
// last day of five consecutive months.
func checkLastDays(t *testing.T, times []string) {
	t.Helper()
	if len(times) != 5 {
		t.Fatalf("next times %v", times)
	}
	var prev time.Time
	for _, s := range times {
		d, err := time.Parse("2006-01-02 15:04:05", s)
		if err != nil || !nextTimeRe.MatchString(s) || d.AddDate(0, 0, 1).Day() != 1 {
			t.Errorf("next time %q is not 03:00 on a month's last day", s)
			continue
		}
		if !prev.IsZero() && (d.Month()-prev.Month()+12)%12 != 1 {
			t.Errorf("next times %v skip a month", times)
		}
		prev = d
	}
}

func shanghai(t *testing.T) *time.Location {
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}
