package browser_test

import (
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// The 3.4.2 console of our admin in headless Chromium (the *34_test.go
// files): every page loads cleanly in every language; the frame's tabs,
// themes and sidebar behave as the 3.4.2 frame's; the pages' actions work
// against the real endpoints (flows34); planted markup stays text (xss34);
// a foreign page changes nothing (csrf34); the batch actions and the
// export/import (batch34); the screenshots beside the 3.4.2 jar's
// (screenshots34).

// pages34 are the 3.x console's pages on the fixture (jobs 2, 4, 7, 8 in
// group 2; log 1 finished, log 4 trigger-failed; job 4 GLUE shell) with
// the condition that holds once their scripts ran and their data arrived.
var pages34 = []struct{ name, path, ready string }{
	{"frame", "/", `document.querySelector('.xj-tab.active') && document.querySelector('iframe.xj-tab-frame')`},
	{"dashboard", "/dashboard", `document.querySelector('#xj-line-chart canvas')`},
	{"jobinfo", "/jobinfo?jobGroup=2", tableLoaded("#xj-job-list", 1) + ` && document.querySelectorAll('#xj-job-list tbody tr[data-index]').length === 4`},
	{"jobinfo-first-group", "/jobinfo", tableLoaded("#xj-job-list", 1)},
	{"joblog", "/joblog", tableLoaded("#xj-log-list", 1)},
	{"joblog-job", "/joblog?jobId=2", tableLoaded("#xj-log-list", 1) + ` && document.getElementById('xj-filter-job').value === '2'`},
	{"joblog_detail", "/joblog/logDetailPage?id=1", `document.getElementById('xj-log-status').textContent !== ''`},
	{"joblog_detail-fail", "/joblog/logDetailPage?id=4", `document.getElementById('xj-log-status').textContent !== ''`},
	{"jobgroup", "/jobgroup", tableLoaded("#xj-group-list", 1)},
	{"user", "/user", tableLoaded("#xj-user-list", 1)},
	{"help", "/help", `document.readyState === 'complete' && window.XJ`},
	{"jobcode", "/jobcode?jobId=4", `document.querySelector('.CodeMirror') && document.querySelector('.CodeMirror').CodeMirror.getValue() !== ''`},
	{"error", "/jobcode?jobId=999", `document.querySelector('.error-message')`},
}

// Every page of the 3.x console, in every language, loads with no script
// error, CSP violation or failed load; a normal user's frame has no admin
// entries and the admin pages show xxl-sso's refusal.
func TestEveryPage34Loads(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	for _, lang := range []string{"en", "zh_CN", "zh_TC"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			a := startAdmin34(t, lang, "")
			tb := browser.NewTab(t, b, 2*time.Minute)
			tb.Open(a.base + "/")
			if got := tb.Str(`location.pathname`); got != "/auth/login" {
				t.Errorf("anonymous / ended at %q", got)
			}
			login34(tb, a.base, "admin", "123456")
			for _, p := range pages34 {
				tb.Open(a.base + p.path)
				tb.Wait(p.ready)
				tb.Clean(p.name)
			}
			if got := tb.Str(`document.querySelector('.error-message').textContent`); !strings.HasPrefix(got, "java.lang.RuntimeException: ") {
				t.Errorf("error page message %q", got)
			}
			if tb.Str(`getComputedStyle(document.querySelector('.xj-back')).display`) == "none" {
				t.Error("the error page on its own has no way back")
			}
			// the trigger-failed log says so and does not roll
			tb.Open(a.base + "/joblog/logDetailPage?id=4")
			tb.Wait(pages34[7].ready)
			if got := tb.Str(`document.getElementById('xj-log-status').textContent`); !strings.HasPrefix(got, "[") || len(a.exec.callsTo("/log")) > 1 {
				t.Errorf("trigger-failed log: %q, %d pulls", got, len(a.exec.callsTo("/log")))
			}

			// a normal user (normal1: group 2) has no executor and user pages
			tb.Open(a.base + "/")
			tb.Wait(pages34[0].ready)
			tb.Click(`.xj-logout`)
			tb.Navigating(func() { tb.Accept() })
			login34(tb, a.base, "normal1", "123456")
			if n := tb.Str(`String(document.querySelectorAll('.sidebar-menu a[href$="/jobgroup"], .sidebar-menu a[href$="/user"]').length)`); n != "0" {
				t.Errorf("normal user's menu links admin pages")
			}
			for _, i := range []int{2, 10, 4} { // the log list last: its groups are checked
				tb.Open(a.base + pages34[i].path)
				tb.Wait(pages34[i].ready)
				tb.Clean("normal user " + pages34[i].path)
			}
			var groups []string
			tb.Run(`[].map.call(document.querySelectorAll('#xj-filter-group option'), function (o) { return o.value; })`, &groups)
			if strings.Join(groups, ",") != "2" {
				t.Errorf("normal user's log groups %v", groups)
			}
			tb.Open(a.base + "/jobgroup")
			if got := tb.Str(`document.querySelector('.error-message').textContent`); !strings.Contains(got, "does not have role:ADMIN") {
				t.Errorf("normal user's /jobgroup: %q", got)
			}
			tb.Clean("normal user /jobgroup")
		})
	}
}

// frameTabs lists the frame's tabs as "url" ("*url" for the active one).
func frameTabs(tb *browser.Tab) string {
	tb.T.Helper()
	return tb.Str(`[].map.call(document.querySelectorAll('.xj-tab'), function (a) {
		return (a.classList.contains('active') ? '*' : '') + a.getAttribute('data-url'); }).join(' ')`)
}

// tabReady holds when the frame's tab of url shows its page with cond
// true in it (d: its document, w: its window).
func tabReady(url, cond string) string {
	return `(function () {
		var f = document.querySelector('iframe.xj-tab-frame[data-url="` + url + `"]');
		var d = f && f.contentDocument, w = f && f.contentWindow;
		return !!(f && f.offsetParent !== null && d && d.readyState === 'complete' && w.XJ && (` + cond + `));
	})()`
}

// The frame (with a context path): menu entries open tabs, an open one is
// shown again rather than opened twice, the address's #fragment names the
// current tab and a reload reopens it, close other/all keep the dashboard,
// the reload button reloads the current page, pages open tabs (the job's
// logs), the theme and the sidebar's state survive a reload, and a
// fragment naming anything but a console path opens nothing.
func TestFrameTabs34(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	const ctx = "/xxl-job-admin"
	a := startAdmin34(t, "en", ctx)
	tb := browser.NewTab(t, b, 3*time.Minute)
	login34(tb, a.base, "admin", "123456")
	tb.Wait(`document.querySelector('.xj-tab.active')`)
	if got := frameTabs(tb); got != "*/dashboard" {
		t.Fatalf("first tabs %q", got)
	}
	if tb.Str(`String(document.querySelectorAll('.xj-tab[data-url="/dashboard"] .xj-tab-close').length)`) != "0" {
		t.Error("the dashboard's tab can be closed")
	}

	menu := func(path string) {
		tb.T.Helper()
		tb.Click(`.sidebar-menu a[data-url="` + path + `"]`)
	}
	menu("/jobinfo")
	tb.Wait(tabReady("/jobinfo", `d.querySelector('#xj-job-list')`))
	menu("/joblog")
	menu("/jobinfo") // shown again, not opened twice
	if got := frameTabs(tb); got != "/dashboard */jobinfo /joblog" {
		t.Errorf("tabs after reopening %q", got)
	}
	if got := tb.Str(`location.hash`); got != "#"+ctx+"/jobinfo" {
		t.Errorf("hash %q", got)
	}
	if tb.Str(`document.querySelector('.sidebar-menu li.active a').getAttribute('data-url')`) != "/jobinfo" {
		t.Error("the menu does not mark the current tab")
	}

	// the job list's executor filter reloads the tab's page on group 2,
	// and its "query log" opens the job's logs in a tab of its own
	tb.Wait(tabReady("/jobinfo", tableLoadedIn("#xj-job-list")))
	tb.Run(`document.querySelector('iframe[data-url="/jobinfo"]').contentWindow.jQuery('#xj-filter-group').val('2').trigger('change'), true`, nil)
	tb.Wait(tabReady("/jobinfo", `w.location.search === '?jobGroup=2' && `+tableLoadedIn("#xj-job-list")))
	tb.Run(`(function () { var w = document.querySelector('iframe[data-url="/jobinfo"]').contentWindow;
		w.jQuery('#xj-job-list').bootstrapTable('checkBy', {field: 'id', values: [2]}); w.jQuery('#xj-log').click(); return true; })()`, nil)
	tb.Wait(tabReady("/joblog?jobId=2", `d.getElementById('xj-filter-job') && d.getElementById('xj-filter-job').value === '2'`))
	if got := frameTabs(tb); got != "/dashboard /jobinfo /joblog */joblog?jobId=2" {
		t.Errorf("tabs after query log %q", got)
	}

	// a reload of the whole page reopens the tab the address names
	tb.Open(a.base + "/help")
	tb.Open(a.base + "/#" + ctx + "/joblog?jobId=2")
	tb.Wait(tabReady("/joblog?jobId=2", `d.getElementById('xj-filter-job')`))
	if got := frameTabs(tb); got != "/dashboard */joblog?jobId=2" {
		t.Errorf("tabs after a reload %q", got)
	}

	// the reload button reloads the current tab's page
	tb.Run(`document.querySelector('iframe[data-url="/joblog?jobId=2"]').contentWindow.xjMarker = 1, true`, nil)
	tb.Click(`.xj-tab-reload`)
	tb.Wait(tabReady("/joblog?jobId=2", `w.xjMarker === undefined && d.getElementById('xj-filter-job')`))

	// close other keeps the dashboard and the current tab; close all the dashboard
	menu("/jobgroup")
	menu("/user")
	menu("/jobgroup")
	tb.Click(`.xj-tab-close-other`)
	if got := frameTabs(tb); got != "/dashboard */jobgroup" {
		t.Errorf("tabs after close other %q", got)
	}
	menu("/help")
	tb.Click(`.xj-tab.active .xj-tab-close`) // the next tab, else the one before, takes over
	if got := frameTabs(tb); got != "/dashboard */jobgroup" {
		t.Errorf("tabs after closing the last %q", got)
	}
	tb.Click(`.xj-tab-close-all`)
	if got := frameTabs(tb); got != "*/dashboard" || tb.Str(`String(document.querySelectorAll('iframe.xj-tab-frame').length)`) != "1" {
		t.Errorf("tabs after close all %q", got)
	}

	// a page's error shown in a tab has no way back (the frame is there)
	tb.Run(`XJ.openTab('/jobcode?jobId=999', 'GLUE IDE'), true`, nil)
	tb.Wait(tabReady("/jobcode?jobId=999", `d.querySelector('.error-message') && getComputedStyle(d.querySelector('.xj-back')).display === 'none'`))

	// an address naming another origin or a javascript: URL opens no tab
	for _, bad := range []string{"javascript:top.xss=1", "//example.com/x", ctx + "/\\example.com", "https://example.com" + ctx + "/jobinfo"} {
		tb.Open(a.base + "/help")
		tb.Open(a.base + "/#" + bad)
		tb.Wait(`document.querySelector('.xj-tab.active')`)
		if got := frameTabs(tb); got != "*/dashboard" {
			t.Errorf("#%s opened %q", bad, got)
		}
		if tb.Str(`String(window.xss)`) != "undefined" {
			t.Errorf("#%s ran code", bad)
		}
	}

	// the theme: chosen in the dialog, kept under the 3.4.2 key, worn after
	// a reload and by the windows of their own (the GLUE IDE)
	tb.Click(`.xj-change-skin`)
	tb.Shown(`#xj-skin-modal`)
	if n := tb.Str(`String(document.querySelectorAll('#xj-skin-modal .xj-skin').length)`); n != "12" {
		t.Errorf("%s skins offered", n)
	}
	tb.Click(`#xj-skin-modal .xj-skin[data-skin="skin-purple-light"]`)
	if tb.Str(`document.body.className`) == "" || !strings.Contains(tb.Str(`document.body.className`), "skin-purple-light") {
		t.Errorf("body %q after choosing purple-light", tb.Str(`document.body.className`))
	}
	if got := tb.Str(`localStorage.getItem('admin_skin')`); got != "skin-purple-light" {
		t.Errorf("kept skin %q", got)
	}
	tb.Open(a.base + "/")
	tb.Wait(`document.body.classList.contains('skin-purple-light') && !document.body.classList.contains('skin-blue')`)
	tb.Open(a.base + "/jobcode?jobId=4")
	tb.Wait(`document.body.classList.contains('skin-purple-light')`)

	// the sidebar's state, under the 3.4.2 key
	tb.Open(a.base + "/")
	tb.Wait(`document.querySelector('.xj-tab.active')`)
	tb.Click(`.sidebar-toggle`)
	tb.Wait(`localStorage.getItem('admin_sidebar_status') === 'close'`)
	tb.Open(a.base + "/")
	tb.Wait(`document.body.classList.contains('sidebar-collapse')`)
	tb.Clean("frame")
}

// tableLoadedIn is tableLoaded for a list in a tab (d: its document).
func tableLoadedIn(table string) string {
	return `+(d.querySelector('` + table + `') || {getAttribute: function () { return 0; }}).getAttribute('data-xj-loads') >= 1`
}
