package browser_test

import (
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// The 3.x console against the XSS batch 3.4.1 fixed (ISSUE-3964 and its
// kind) and the rolling log's whitelist (3.1.0, tightened in 3.4.x):
// markup planted in every text field the pages show — job description,
// author, e-mail, handler, parameter, child ids, GLUE source and remarks,
// executor AppName, title and addresses, user names and permissions, log
// messages, the executor's log — is shown as its literal text on every
// page, dialog and form that shows it, in the real browser under the
// console's CSP: no planted code runs, no planted element exists, no CSP
// violation is reported. The rolling log keeps exactly its whitelist:
// <br>, <b> and </b> become elements, nothing else does.
// ranNothing34 is ranNothing where bootstrap-table's own pager and menu
// links (href="javascript:void(0)", inert under the CSP) are allowed.
const ranNothing34 = `window.xss === undefined && ![].some.call(document.querySelectorAll('a[href^="javascript:" i]'),
	function (a) { return a.getAttribute('href') !== 'javascript:void(0)'; })`

func TestPlantedMarkupStaysText34(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	a := startAdmin34(t, "en", "")
	p := planted
	exec1 := func(q string, args ...any) {
		t.Helper()
		if _, err := a.db.SQL.ExecContext(t.Context(), q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	now := a.db.Time(time.Now())
	exec1(`UPDATE xxl_job_group SET app_name = ?, title = ?, address_list = ? WHERE id = 3`,
		p("appname"), p("title"), a.exec.address()+","+p("address"))
	exec1(`UPDATE xxl_job_info SET job_desc = ?, author = ?, alarm_email = ?, executor_handler = ?, executor_param = ?, child_jobid = ? WHERE id = 3`,
		p("desc"), p("author"), p("email"), p("handler"), p("param"), p("childids"))
	exec1(`UPDATE xxl_job_info SET job_desc = ?, glue_source = ?, glue_remark = ? WHERE id = 5`, p("gluedesc"), p("source"), p("remark"))
	exec1(`INSERT INTO xxl_job_logglue (job_id, glue_type, glue_source, glue_remark, add_time, update_time) VALUES (5, 'GLUE_GROOVY', ?, ?, ?, ?)`,
		p("oldsource"), p("oldremark"), now, now)
	exec1(`UPDATE xxl_job_log SET trigger_msg = ?, handle_msg = ?, executor_param = ? WHERE id = 7`, p("triggermsg"), p("handlemsg"), p("runparam"))
	exec1(`UPDATE xxl_job_user SET username = ?, permission = ? WHERE id = 3`, p("username"), p("permission"))
	// the login form takes at most 20 characters: a short planted name
	// that logs in and is shown in the frame's header
	const shortName = `"><svg onload=xss=1>`
	exec1(`UPDATE xxl_job_user SET username = ?, permission = '3' WHERE id = 2`, shortName)
	// the executor's log: its own tags the whitelist keeps, and planted markup
	a.exec.answerLog("<b>bold</b> & " + p("logcontent") + "<br>second line<BR>third\n")

	tb := browser.NewTab(t, b, 3*time.Minute)
	login34(tb, a.base, "admin", "123456")
	clean := func(what string) {
		tb.T.Helper()
		var ok bool
		tb.Run(ranNothing34, &ok)
		if !ok {
			t.Errorf("%s: planted code ran (window.xss=%s)", what, tb.Str(`String(window.xss)`))
		}
		tb.Clean(what)
	}
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
		t.Errorf("%s: no %s holds the %s text; found %q", tb.Str(`location.pathname`), sel, field, got)
	}
	dialog := func(what string) {
		tb.T.Helper()
		tb.Wait(`document.querySelector('.xj-dialog.in')`)
		clean(what)
	}

	// job list of group 3: description (cut to 15 characters, whole in the
	// title), author, handler; the executor filter's title
	const jobs = "#xj-job-list"
	tb.Open(a.base + "/jobinfo?jobGroup=3")
	tb.Wait(tableLoaded(jobs, 1))
	var titles []string
	tb.Run(`[].map.call(document.querySelectorAll('#xj-job-list tbody td span[title]'), function (e) { return e.getAttribute('title'); })`, &titles)
	if !strings.Contains(strings.Join(titles, "\n"), p("desc")) {
		t.Errorf("no cut description has the whole one as its title: %q", titles)
	}
	shows(`#xj-job-list tbody td`, "author")
	shows(`#xj-job-list tbody td`, "handler")
	shows(`#xj-filter-group option`, "title")
	shows(`.select2-selection__rendered`, "title")
	clean("job list")
	selectRow(tb, jobs, "3")
	tb.Click(`#xj-edit`)
	tb.Shown(`#xj-job-modal`)
	for sel, field := range map[string]string{"#xj-f-desc": "desc", "#xj-f-author": "author", "#xj-f-email": "email",
		"#xj-f-handler": "handler", "#xj-f-param": "param", "#xj-f-child": "childids", "#xj-f-group option": "title"} {
		shows(sel, field)
	}
	clean("job edit form")
	// planted child ids are refused on save; the refusal shows them as
	// text (the other fields shortened to pass the form's length limits)
	const child = `<img src=x onerror=top.xss='child'>`
	for sel, v := range map[string]string{"#xj-f-desc": "short", "#xj-f-author": "me", "#xj-f-email": "", "#xj-f-handler": "h", "#xj-f-child": child} {
		tb.Set(sel, v)
	}
	tb.Click(`#xj-job-modal button[type=submit]`)
	dialog("child id refusal")
	if got := tb.Str(`document.querySelector('.xj-dialog.in .modal-body').textContent`); !strings.Contains(got, child) {
		t.Errorf("child id refusal %q", got)
	}
	tb.Confirm()
	tb.Click(`#xj-job-modal [data-dismiss=modal]`)
	tb.Hidden(`#xj-job-modal`)
	tb.Click(`#xj-run`)
	tb.Shown(`#xj-trigger-modal`)
	shows("#xj-t-param", "param")
	clean("run once form")
	tb.Click(`#xj-trigger-modal [data-dismiss=modal]`)
	tb.Hidden(`#xj-trigger-modal`)
	tb.Click(`#xj-registry`)
	dialog("registry list")
	shows(`.xj-dialog.in .xj-address-list li`, "address")
	tb.Confirm()
	tb.Click(`#xj-batch`) // the batch menu names the selection's jobs in its confirmation
	tb.Click(`#xj-batch-stop`)
	dialog("batch confirmation")
	shows(`.xj-dialog.in .xj-batch-jobs li`, "desc")
	tb.Run(`document.querySelector('.xj-dialog.in .xj-confirm-cancel').click(), true`, nil)
	tb.Wait(`!document.querySelector('.xj-dialog')`)

	// log list of group 3: the job filter's descriptions, the job column,
	// the messages' dialogs
	const logs = "#xj-log-list"
	tb.Open(a.base + "/joblog?jobId=3")
	tb.Wait(tableLoaded(logs, 1))
	shows(`#xj-filter-job option`, "desc")
	shows(`#xj-filter-group option`, "title")
	clean("log list")
	row7 := `#xj-log-list tbody tr[data-index="` + tb.Str(`String(jQuery('#xj-log-list').bootstrapTable('getData').map(function (r) { return r.id; }).indexOf(7))`) + `"] `
	tb.Click(row7 + `.xj-log-msg[data-kind="triggerMsg"]`)
	dialog("trigger msg")
	shows(`.xj-dialog.in .xj-msg`, "triggermsg")
	tb.Confirm()
	tb.Click(row7 + `.xj-log-msg[data-kind="handleMsg"]`)
	dialog("handle msg")
	shows(`.xj-dialog.in .xj-msg`, "handlemsg")
	tb.Confirm()
	tb.Click(`#xj-clean`)
	tb.Shown(`#xj-clear-modal`)
	shows(`#xj-clear-job`, "desc")
	shows(`#xj-clear-group`, "title")
	clean("clear dialog")
	tb.Click(`#xj-clear-modal [data-dismiss=modal]`)
	tb.Hidden(`#xj-clear-modal`)

	// the rolling log of log 7: the job in the top bar, the executor's log
	// through the 3.4.x whitelist
	tb.Open(a.base + "/joblog/logDetailPage?id=7")
	tb.Wait(`document.getElementById('xj-log-status').textContent !== '' && document.getElementById('xj-log-console').textContent !== ''`)
	shows(`.xj-log-job`, "desc")
	shows(`#xj-log-console`, "logcontent")
	var kept []string
	tb.Run(`[].map.call(document.querySelectorAll('#xj-log-console *'), function (e) { return e.tagName + ':' + e.textContent; })`, &kept)
	if strings.Join(kept, ",") != "B:bold,BR:" {
		t.Errorf("elements from the log %q, want the whitelist's B:bold,BR:", kept)
	}
	if got := tb.Str(`document.getElementById('xj-log-console').textContent`); !strings.Contains(got, "bold & ") || !strings.Contains(got, "second line<BR>third") {
		t.Errorf("log text %q", got)
	}
	clean("rolling log")

	// executors: AppName, title, addresses in the list, form and dialog
	const groups = "#xj-group-list"
	tb.Open(a.base + "/jobgroup")
	tb.Wait(tableLoaded(groups, 1))
	shows(`#xj-group-list tbody td`, "appname")
	shows(`#xj-group-list tbody td`, "title")
	clean("executor list")
	selectRow(tb, groups, "3")
	tb.Click(`#xj-edit`)
	tb.Shown(`#xj-group-modal`)
	shows("#xj-g-appname", "appname")
	shows("#xj-g-title", "title")
	shows("#xj-g-address", "address")
	clean("executor form")
	tb.Click(`#xj-group-modal [data-dismiss=modal]`)
	tb.Hidden(`#xj-group-modal`)
	idx := tb.Str(`String(jQuery('#xj-group-list').bootstrapTable('getData').map(function (r) { return r.id; }).indexOf(3))`)
	tb.Click(`#xj-group-list tbody tr[data-index="` + idx + `"] .xj-addresses`)
	dialog("executor addresses")
	shows(`.xj-dialog.in .xj-address-table`, "address")
	tb.Confirm()

	// users: the name in the list and form, a planted permission checks
	// nothing; the group titles beside the boxes
	const users = "#xj-user-list"
	tb.Open(a.base + "/user")
	tb.Wait(tableLoaded(users, 1))
	shows(`#xj-user-list tbody td`, "username")
	clean("user list")
	selectRow(tb, users, "3")
	tb.Click(`#xj-edit`)
	tb.Shown(`#xj-user-modal`)
	shows("#xj-u-username", "username")
	shows(`#xj-user-modal .xj-permissions label`, "title")
	if n := tb.Str(`String(document.querySelectorAll('#xj-user-modal input[name=permission]:checked').length)`); n != "0" {
		t.Errorf("a planted permission checked %s groups", n)
	}
	clean("user form")
	tb.Click(`#xj-user-modal [data-dismiss=modal]`)
	tb.Hidden(`#xj-user-modal`)

	// the GLUE IDE of job 5: source, remark, an older version's, the job
	tb.Open(a.base + "/jobcode?jobId=5")
	tb.Wait(`document.querySelector('.CodeMirror') && document.querySelector('.CodeMirror').CodeMirror.getValue() !== ''`)
	if got := tb.Str(`document.querySelector('.CodeMirror').CodeMirror.getValue()`); got != p("source") {
		t.Errorf("GLUE editor holds %q", got)
	}
	shows(`.xj-version`, "oldremark")
	shows(`.xj-ide-job`, "gluedesc")
	tb.Click(`.xj-version[data-version="0"]`)
	if got := tb.Str(`document.querySelector('.CodeMirror').CodeMirror.getValue()`); got != p("oldsource") {
		t.Errorf("older version loaded as %q", got)
	}
	clean("GLUE IDE")

	// the planted name in the frame's header, and the frame's menu
	tb.Open(a.base + "/")
	tb.Wait(`document.querySelector('.xj-tab.active')`)
	tb.Click(`.xj-logout`)
	tb.Navigating(func() { tb.Accept() })
	login34(tb, a.base, shortName, "123456")
	tb.Wait(`document.querySelector('.xj-tab.active')`)
	if got := tb.Str(`document.querySelector('.navbar-custom-menu .xj-user').textContent`); !strings.Contains(got, shortName) {
		t.Errorf("header %q lacks the user name %q", got, shortName)
	}
	clean("frame header")
}
