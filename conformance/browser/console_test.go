// Package browser_test drives our real admin binary in headless Chromium
// (chromedp, under the console's Content-Security-Policy) on an embedded
// SQLite database with a fake executor:
//
//   - console_test.go: every page in three languages with the recordings'
//     fixture (conformance/consolereplay) loads with no script error, CSP
//     violation or failed load, every form and action works against the
//     real handlers, and each page's screenshot for docs/screenshots;
//   - scenario_test.go: the scenario from login to logout, checked
//     on database rows and on what the executor received;
//   - xss_test.go: markup planted in every text field stays text;
//   - csrf_test.go: a foreign page cannot change anything;
//   - batch_test.go: the job list's batch actions, checked on the rows and
//     the executor;
//   - transfer_test.go: export from one admin's job list, import into
//     another's with a new database (dry run, import, refusal).
package browser_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

func login(tb *browser.Tab, base, user, password string) {
	tb.T.Helper()
	tb.Open(base + "/toLogin")
	tb.Wait(`document.querySelector('.icheckbox_square-blue')`)
	tb.Set(`#login-form input[name=userName]`, user)
	tb.Set(`#login-form input[name=password]`, password)
	tb.Navigating(func() { tb.Click(`#login-form button[type=submit]`) })
	if got := tb.Str(`location.pathname`); got != ctxPath+"/" {
		tb.T.Fatalf("after login at %q (%s)", got, tb.Str(`document.body.innerText.slice(0, 200)`))
	}
}

// listLoaded holds once a DataTables list got its first answer.
func listLoaded(table string) string {
	return `window.jQuery && jQuery.fn.dataTable && jQuery.fn.dataTable.isDataTable('` + table + `') && jQuery('` + table + `').DataTable().ajax.json() !== undefined`
}

// inRow clicks the element matching sel in the row of table whose first
// cell's text is key.
func inRow(tb *browser.Tab, table, key, sel string) {
	tb.T.Helper()
	tb.Run(`(function () {
		var rows = Array.prototype.slice.call(document.querySelectorAll('`+table+` tbody tr'));
		var row = rows.filter(function (r) { return r.cells[0] && r.cells[0].textContent === `+quote(key)+`; })[0];
		if (!row) { throw new Error('no row ' + `+quote(key)+`); }
		var e = row.querySelector(`+quote(sel)+`);
		if (!e) { throw new Error('no ' + `+quote(sel)+` + ' in row ' + `+quote(key)+`); }
		e.click(); return true; })()`, nil)
}

// lastDays is the log filter's text for the last n days up to today's end,
// in the admins' zone.
func lastDays(n int) string {
	loc, err := time.LoadLocation(browser.Zone)
	if err != nil {
		loc = time.UTC
	}
	today := time.Now().In(loc)
	return today.AddDate(0, 0, -n).Format("2006-01-02") + " 00:00:00 - " + today.Format("2006-01-02") + " 23:59:59"
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// pages are the console's pages with a condition that holds once their
// scripts ran and their data arrived (fixture: jobs 2, 4, 7, 8 in group 2;
// log 1 finished, log 4 trigger-failed; job 4 is GLUE shell), and the name
// of their screenshot (docs/screenshots, the Java admin's set in
// shared/conformance/screenshots/java-admin-2.4.2).
var pages = []struct{ name, path, ready, shot string }{
	{"index", "/", `document.querySelector('#xj-line-chart canvas') && document.querySelector('.xj-range-text').textContent !== ''`, "dashboard"},
	{"jobinfo", "/jobinfo?jobGroup=2", `document.querySelectorAll('#xj-job-list tbody .btn-group').length === 4`, "job_list"},
	{"jobinfo-first-group", "/jobinfo", listLoaded("#xj-job-list"), ""},
	{"joblog", "/joblog", listLoaded("#xj-log-list"), ""},
	{"joblog-job", "/joblog?jobId=2", `document.getElementById('xj-filter-job').value === '2' && ` + listLoaded("#xj-log-list"), "log_list"},
	{"joblog_detail", "/joblog/logDetailPage?id=1", `document.getElementById('xj-log-status').textContent !== ''`, "log_detail"},
	{"joblog_detail-fail", "/joblog/logDetailPage?id=4", `document.getElementById('xj-log-status').textContent !== ''`, ""},
	{"jobgroup", "/jobgroup", `document.querySelectorAll('#xj-group-list tbody .btn-group').length === 4`, "executor_list"},
	{"user", "/user", `document.querySelectorAll('#xj-user-list tbody .xj-edit').length === 3`, "user_list"},
	{"help", "/help", `document.readyState === 'complete' && window.XJ`, ""},
	{"jobcode", "/jobcode?jobId=4", `document.querySelector('.CodeMirror') && document.querySelector('.CodeMirror').CodeMirror.getValue() !== ''`, "glue_ide"},
	{"error", "/jobcode?jobId=999", `document.querySelector('.error-message')`, ""},
}

// shoot saves a screenshot for docs/screenshots (make screenshots), in the
// two languages the Java set has.
func shoot(tb *browser.Tab, name, lang string) {
	if name != "" && (lang == "en" || lang == "zh_CN") {
		tb.Screenshot(name + "." + lang)
	}
}

// Every page of the real console, in every language, loads cleanly.
func TestEveryPageLoads(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	for _, lang := range []string{"en", "zh_CN", "zh_TC"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			base := startAdmin(t, lang)
			tb := browser.NewTab(t, b, 2*time.Minute)
			tb.Open(base + "/")
			if got := tb.Str(`location.pathname`); got != ctxPath+"/toLogin" {
				t.Errorf("anonymous / ended at %q", got)
			}
			tb.Wait(`document.querySelector('.icheckbox_square-blue')`)
			shoot(tb, "login", lang)
			login(tb, base, "admin", "123456")
			for _, p := range pages {
				tb.Open(base + p.path)
				tb.Wait(p.ready)
				switch p.name {
				case "joblog-job": // the fixture's rows of the last days
					tb.Run(`document.getElementById('xj-filter-time').value = `+quote(lastDays(3))+`, true`, nil)
					tb.Click(`#xj-search`)
					tb.Wait(`document.querySelectorAll('#xj-log-list tbody tr').length >= 4`)
				case "joblog_detail":
					tb.Wait(`document.getElementById('xj-log-console').textContent !== ''`)
				case "index": // the charts' final state, not a frame of their animation
					tb.Run(`['xj-line-chart', 'xj-pie-chart'].forEach(function (id) {
						echarts.getInstanceByDom(document.getElementById(id)).setOption({animation: false}); }), true`, nil)
				}
				shoot(tb, p.shot, lang)
				if p.name == "jobinfo" {
					tb.Click(`#xj-add`)
					tb.Shown(`#xj-job-modal`)
					// its slide-in done (Bootstrap 3: translate(0, -25%) to none)
					tb.Wait(`['none', 'matrix(1, 0, 0, 1, 0, 0)'].indexOf(getComputedStyle(document.querySelector('#xj-job-modal .modal-dialog')).transform) >= 0`)
					shoot(tb, "job_add_dialog", lang)
					tb.Click(`#xj-job-modal [data-dismiss=modal]`)
					tb.Hidden(`#xj-job-modal`)
				}
				tb.Clean(p.name)
			}
			if got := tb.Str(`document.querySelector('.error-message').textContent`); !strings.Contains(got, "RuntimeException") {
				t.Errorf("error page message %q", got)
			}

			// a normal user (normal1: group 2) sees its pages without the admin's
			tb.Open(base + "/help")
			tb.Wait(pages[9].ready)
			tb.Click(`.xj-logout`)
			tb.Navigating(func() { tb.Accept() })
			login(tb, base, "normal1", "123456")
			for _, i := range []int{0, 1, 3, 9} {
				p := pages[i]
				tb.Open(base + p.path)
				tb.Wait(p.ready)
				tb.Clean("normal user " + p.path)
			}
			if n := tb.Str(`String(document.querySelectorAll('a[href$="/jobgroup"], a[href$="/user"]').length)`); n != "0" {
				t.Errorf("normal user's menu links admin pages")
			}
			tb.Open(base + "/joblog")
			tb.Wait(pages[3].ready)
			if n := tb.Str(`String(document.querySelectorAll('#xj-filter-group option[value="0"]').length)`); n != "0" {
				t.Errorf("normal user offered All groups")
			}
		})
	}
}

// The pages' actions work against the real handlers.
func TestConsoleFlows(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	base := startAdmin(t, "en")
	tb := browser.NewTab(t, b, 3*time.Minute)
	login(tb, base, "admin", "123456")

	const desc = `<img src=x onerror=alert('desc')>`
	t.Run("job add, edit, run, start, stop, copy, delete", func(t *testing.T) {
		tb.T = t
		tb.Open(base + pages[1].path)
		tb.Wait(pages[1].ready)
		tb.Click(`#xj-add`)
		tb.Shown(`#xj-job-modal`)
		tb.Set(`#xj-f-desc`, desc)
		tb.Set(`#xj-f-author`, "<b>me</b>")
		tb.Set(`#xj-f-cron`, "0 0 1 * * ?")
		tb.Set(`#xj-f-handler`, "demoJobHandler")
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Hidden(`#xj-job-modal`)
		tb.Wait(`document.querySelectorAll('#xj-job-list tbody .btn-group').length === 5`)
		first := `#xj-job-list tbody tr:nth-child(1) `
		if got := tb.Str(`document.querySelector('` + first + `td:nth-child(3)').textContent`); got != desc {
			t.Errorf("new job shown as %q", got)
		}

		tb.Click(first + `.xj-edit`)
		tb.Shown(`#xj-job-modal`)
		tb.Set(`#xj-f-stype`, "FIX_RATE")
		tb.Set(`#xj-f-rate`, "60")
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Hidden(`#xj-job-modal`)
		tb.Wait(`document.querySelector('` + first + `td:nth-child(4)').textContent === 'FIX_RATE：60'`)

		tb.Click(first + `.xj-start`)
		tb.Confirm()
		tb.Wait(`document.querySelector('` + first + `.label-success')`)
		tb.Click(first + `.xj-next-time`)
		tb.Wait(`document.querySelectorAll('.xj-dialog.in .xj-next-times li').length === 5`)
		tb.Confirm()
		tb.Click(first + `.xj-stop`)
		tb.Confirm()
		tb.Wait(`document.querySelector('` + first + `.label-default')`)

		tb.Click(first + `.xj-run`)
		tb.Shown(`#xj-trigger-modal`)
		tb.Set(`#xj-t-param`, "p=1")
		tb.Click(`#xj-trigger-modal button[type=submit]`)
		tb.Hidden(`#xj-trigger-modal`)

		tb.Click(first + `.xj-registry`)
		tb.Wait(`document.querySelectorAll('.xj-dialog.in .xj-address-list li').length === 1`)
		tb.Confirm()

		tb.Click(first + `.xj-copy`)
		tb.Shown(`#xj-job-modal`)
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Hidden(`#xj-job-modal`)
		tb.Wait(`document.querySelectorAll('#xj-job-list tbody .btn-group').length === 6`)

		tb.Click(first + `.xj-delete`)
		tb.Confirm()
		tb.Wait(`document.querySelectorAll('#xj-job-list tbody .btn-group').length === 5`)

		// a server-side refusal is shown as the server's text
		tb.Click(`#xj-add`)
		tb.Shown(`#xj-job-modal`)
		tb.Set(`#xj-f-desc`, "child")
		tb.Set(`#xj-f-author`, "me")
		tb.Set(`#xj-f-cron`, "0 0 1 * * ?")
		tb.Set(`#xj-f-handler`, "h")
		tb.Set(`#xj-f-child`, "<img src=x onerror=alert(1)>")
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Wait(`document.querySelector('.xj-dialog.in')`)
		if got := tb.Str(`document.querySelector('.xj-dialog.in .modal-body').textContent`); got != "Child Job ID(<img src=x onerror=alert(1)>)illegal" {
			t.Errorf("server refusal shown as %q", got)
		}
		tb.Confirm()
		tb.Click(`#xj-job-modal [data-dismiss=modal]`)
		tb.Hidden(`#xj-job-modal`)
		tb.Clean("job flows")
	})

	t.Run("trigger log: messages, rolling log, kill, clear", func(t *testing.T) {
		tb.T = t
		tb.Open(base + "/joblog?jobId=2")
		tb.Wait(pages[4].ready)
		// the whole time range, whatever the zones of browser and admin
		tb.Run(`document.getElementById('xj-filter-time').value = '2000-01-01 00:00:00 - 2100-01-01 00:00:00', true`, nil)
		tb.Click(`#xj-search`)
		tb.Wait(`document.querySelectorAll('#xj-log-list tbody .xj-log-info').length >= 5`)
		tb.Click(`#xj-log-list tbody .xj-trigger-msg`)
		tb.Wait(`document.querySelector('.xj-dialog.in .xj-msg')`)
		if got := tb.Str(`document.querySelector('.xj-dialog.in .xj-msg').textContent`); got == "" {
			t.Error("empty trigger message")
		}
		tb.Confirm()

		tb.Open(base + "/joblog/logDetailPage?id=1")
		tb.Wait(`document.getElementById('xj-log-status').textContent === '[Load Log Finish]'`)
		if got := tb.Str(`document.getElementById('xj-log-console').textContent`); got != "line1\nline2 <b>&'\"\n" {
			t.Errorf("rolling log %q", got)
		}

		tb.Open(base + "/joblog?jobId=2")
		tb.Wait(pages[4].ready)
		tb.Run(`document.getElementById('xj-filter-time').value = '2000-01-01 00:00:00 - 2100-01-01 00:00:00', true`, nil)
		tb.Set(`#xj-filter-status`, "3") // running
		tb.Wait(`document.querySelector('#xj-log-list tbody .xj-kill')`)
		tb.Click(`#xj-log-list tbody .xj-kill`)
		tb.Confirm()
		tb.Wait(`document.querySelector('.xj-toast')`)

		tb.Click(`#xj-clean`)
		tb.Shown(`#xj-clear-modal`)
		tb.Set(`#xj-clear-type`, "9")
		tb.Click(`#xj-clear-modal button[type=submit]`)
		tb.Hidden(`#xj-clear-modal`)
		tb.Set(`#xj-filter-status`, "-1")
		tb.Wait(`document.querySelectorAll('#xj-log-list tbody .xj-log-info').length === 0`)
		tb.Clean("log flows")
	})

	t.Run("executors and users", func(t *testing.T) {
		tb.T = t
		tb.Open(base + "/jobgroup")
		tb.Wait(pages[7].ready)
		tb.Click(`#xj-add`)
		tb.Shown(`#xj-group-modal`)
		tb.Set(`#xj-g-appname`, "new-app")
		tb.Set(`#xj-g-title`, "new app")
		tb.Click(`#xj-group-modal input[name=addressType][value="1"]`)
		tb.Set(`#xj-g-address`, "http://127.0.0.1:9999/")
		tb.Click(`#xj-group-modal button[type=submit]`)
		tb.Hidden(`#xj-group-modal`)
		tb.Wait(`document.querySelectorAll('#xj-group-list tbody .btn-group').length === 5`)
		inRow(tb, "#xj-group-list", "new-app", ".xj-edit")
		tb.Shown(`#xj-group-modal`)
		if got := tb.Str(`document.getElementById('xj-g-address').value`); got != "http://127.0.0.1:9999/" {
			t.Errorf("edit form address %q", got)
		}
		tb.Set(`#xj-g-title`, "renamed")
		tb.Click(`#xj-group-modal button[type=submit]`)
		tb.Hidden(`#xj-group-modal`)
		tb.Wait(`Array.prototype.some.call(document.querySelectorAll('#xj-group-list tbody td'), function (td) { return td.textContent === 'renamed'; })`)
		inRow(tb, "#xj-group-list", "fake-executor", ".xj-delete") // it has jobs: refused
		tb.Accept()
		tb.Wait(`document.querySelector('.xj-dialog.in .xj-dialog-text')`)
		if got := tb.Str(`document.querySelector('.xj-dialog.in .modal-body').textContent`); got != "Refuse to delete, the executor is being used" {
			t.Errorf("refusal %q", got)
		}
		tb.Confirm()
		inRow(tb, "#xj-group-list", "new-app", ".xj-delete")
		tb.Confirm()
		tb.Wait(`document.querySelectorAll('#xj-group-list tbody .btn-group').length === 4`)

		tb.Open(base + "/user")
		tb.Wait(pages[8].ready)
		tb.Click(`#xj-add`)
		tb.Shown(`#xj-user-modal`)
		tb.Set(`#xj-u-username`, "newuser")
		tb.Set(`#xj-u-password`, "pass1234")
		tb.Click(`#xj-user-modal input[name=permission][value="2"]`)
		tb.Click(`#xj-user-modal button[type=submit]`)
		tb.Hidden(`#xj-user-modal`)
		tb.Wait(`document.querySelectorAll('#xj-user-list tbody .xj-edit').length === 4`)
		inRow(tb, "#xj-user-list", "newuser", ".xj-edit")
		tb.Shown(`#xj-user-modal`)
		if got := tb.Str(`String(document.querySelectorAll('#xj-user-modal input[name=permission]:checked').length)`); got != "1" {
			t.Errorf("%s permissions checked, want 1", got)
		}
		tb.Click(`#xj-user-modal input[name=role][value="1"]`)
		tb.Click(`#xj-user-modal button[type=submit]`)
		tb.Hidden(`#xj-user-modal`)
		tb.Wait(`Array.prototype.some.call(document.querySelectorAll('#xj-user-list tbody tr'), function (r) { return r.cells[0].textContent === 'newuser' && r.cells[1].textContent === 'Admin User'; })`)
		inRow(tb, "#xj-user-list", "admin", ".xj-delete") // oneself: refused
		tb.Accept()
		tb.Wait(`document.querySelector('.xj-dialog.in .xj-dialog-text')`)
		if got := tb.Str(`document.querySelector('.xj-dialog.in .modal-body').textContent`); got != "Operation of current login account is not allowed" {
			t.Errorf("refusal %q", got)
		}
		tb.Confirm()
		inRow(tb, "#xj-user-list", "newuser", ".xj-delete")
		tb.Confirm()
		tb.Wait(`document.querySelectorAll('#xj-user-list tbody .xj-edit').length === 3`)
		tb.Clean("executor and user flows")
	})

	t.Run("GLUE IDE", func(t *testing.T) {
		tb.T = t
		tb.Open(base + "/jobcode?jobId=4")
		tb.Wait(pages[10].ready)
		tb.Run(`document.querySelector('.CodeMirror').CodeMirror.setValue('#!/bin/bash\necho v2\n'), true`, nil)
		tb.Click(`#xj-ide-save`)
		tb.Shown(`#xj-remark-modal`)
		tb.Set(`#xj-remark`, "<b>second</b>")
		tb.Click(`#xj-remark-modal button[type=submit]`)
		tb.Wait(`document.querySelector('.xj-dialog.in')`)
		tb.Navigating(func() { tb.Click(`.xj-dialog.in .btn-primary`) })
		tb.Wait(pages[10].ready)
		if got := tb.Str(`document.querySelector('.CodeMirror').CodeMirror.getValue()`); got != "#!/bin/bash\necho v2\n" {
			t.Errorf("saved source %q", got)
		}
		if got := tb.Str(`document.querySelector('.xj-version[data-version="0"]').textContent`); !strings.Contains(got, "<b>second</b>") {
			t.Errorf("newest version %q", got)
		}
		tb.Clean("GLUE IDE")
	})

	t.Run("expired session, password change, logout", func(t *testing.T) {
		tb.T = t
		tb.Open(base + "/jobgroup")
		tb.Wait(pages[7].ready)
		if err := tb.ClearCookies(tb.Ctx); err != nil {
			t.Fatal(err)
		}
		tb.Navigating(func() { tb.Click(`#xj-search`) })
		if got := tb.Str(`location.pathname`); got != ctxPath+"/toLogin" {
			t.Errorf("expired session ended at %q", got)
		}

		login(tb, base, "admin", "123456")
		tb.Click(`.xj-change-pwd`)
		tb.Shown(`#xj-password-modal`)
		tb.Set(`#xj-old-password`, "123456")
		tb.Set(`#xj-new-password`, "654321")
		tb.Click(`#xj-password-modal button[type=submit]`)
		tb.Navigating(func() { tb.Accept() })
		if got := tb.Str(`location.pathname`); got != ctxPath+"/toLogin" {
			t.Errorf("after password change at %q", got)
		}
		login(tb, base, "admin", "654321")

		tb.Click(`.xj-logout`)
		tb.Navigating(func() { tb.Accept() })
		if got := tb.Str(`location.pathname`); got != ctxPath+"/toLogin" {
			t.Errorf("after logout at %q", got)
		}
		tb.Open(base + "/jobinfo")
		if got := tb.Str(`location.pathname`); got != ctxPath+"/toLogin" {
			t.Errorf("logged out, /jobinfo ended at %q", got)
		}
		tb.Clean("session flows")
	})
}
