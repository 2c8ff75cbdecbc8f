package browser_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/consolereplay"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// The screenshots of the 3.4.2 console (docs/screenshots/v3, `make
// screenshots`) and of the 3.4.2 jar beside them
// (docs/screenshots/java-admin-3.4.2): the same fixture, the same
// browser (1400x900, Asia/Shanghai), the same clicks. The clicks and
// waits use only what both consoles' pages have — the login form's field
// names, the sidebar's links, the frame's iframes, the first select of a
// list page (its executor), bootstrap-table's and CodeMirror's elements —
// so one script drives both.

// shot34 is one screenshot and the steps to it: each loads a path or runs
// JavaScript on the top page, then waits for its condition.
type shot34 struct {
	name  string
	steps []step34
}

type step34 struct {
	open, run, wait string
}

// inTab evaluates a condition on the document of the frame's visible tab.
func inTab(cond string) string {
	return `(function () {
		var f = [].filter.call(document.querySelectorAll('iframe'), function (f) { return f.offsetParent !== null; })[0];
		var d = f && f.contentDocument, w = f && f.contentWindow;
		return !!(d && d.readyState === 'complete' && w.jQuery && (` + cond + `));
	})()`
}

// doInTab runs code on the visible tab's window (w) and document (d).
func doInTab(code string) string {
	return `(function () {
		var f = [].filter.call(document.querySelectorAll('iframe'), function (f) { return f.offsetParent !== null; })[0];
		var d = f.contentDocument, w = f.contentWindow;
		` + code + `; return true;
	})()`
}

// listReady: a list page's table shows its first answer (rows or none);
// listShown: it shows rows.
const (
	listReady = `d.querySelector('.bootstrap-table tbody tr') && !d.querySelector('.fixed-table-loading.open')`
	listShown = `d.querySelectorAll('.bootstrap-table tbody tr[data-index]').length > 0 && !d.querySelector('.fixed-table-loading.open')`
)

// modalShown: a Bootstrap modal is in and its slide-in done.
const modalShown = `(function () { var m = d.querySelector('.modal.in .modal-dialog');
	return m && ['none', 'matrix(1, 0, 0, 1, 0, 0)'].indexOf(getComputedStyle(m).transform) >= 0; })()`

// menu clicks the sidebar link to a console path.
func menu(path string) string {
	return `document.querySelector('.sidebar-menu a[href$="` + path + `"]').click(), true`
}

// executor2 picks group 2 in a list page's executor filter (its first
// select), which reloads the page on it, as both consoles do.
const executor2 = `w.jQuery(d.querySelector('select')).val('2').trigger('change')`

var shots34 = []shot34{
	{"dashboard", []step34{
		{open: "/", wait: inTab(`d.querySelectorAll('canvas').length >= 2`)},
		{run: doInTab(`[].forEach.call(d.querySelectorAll('[_echarts_instance_]'), function (el) {
			w.echarts.getInstanceByDom(el).setOption({animation: false}); })`), wait: "true"},
	}},
	{"job_list", []step34{
		{run: menu("/jobinfo"), wait: inTab(listReady)},
		{run: doInTab(executor2), wait: inTab(`w.location.search.indexOf('jobGroup=2') >= 0 && ` + listShown)},
	}},
	{"job_add_dialog", []step34{
		{run: doInTab(`w.jQuery('.box-header button', d).first().click()`), wait: inTab(modalShown)},
	}},
	{"log_list", []step34{
		{open: "/", wait: "true"},
		{run: menu("/joblog"), wait: inTab(listReady)},
		{run: doInTab(executor2), wait: inTab(`w.location.search.indexOf('jobGroup=2') >= 0 && ` + listShown)},
	}},
	{"executor_list", []step34{{run: menu("/jobgroup"), wait: inTab(listShown)}}},
	{"user_list", []step34{{run: menu("/user"), wait: inTab(listShown)}}},
	{"log_detail", []step34{{open: "/joblog/logDetailPage?id=1", wait: `document.body.innerText.indexOf('[Rolling Log') >= 0`}}},
	{"glue_ide", []step34{{open: "/jobcode?jobId=4",
		wait: `document.querySelector('.CodeMirror') && document.querySelector('.CodeMirror').CodeMirror.getValue() !== ''`}}},
}

// takeShots34 logs in on the console at base (anonymous: the login page
// first) and saves every shot as DIR/<set>/<name>.<lang>.png.
func takeShots34(t *testing.T, tb *browser.Tab, base, set, lang string) {
	t.Helper()
	dir := os.Getenv(browser.EnvScreenshots)
	if dir != "" {
		if err := os.MkdirAll(filepath.Join(dir, set), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tb.Open(base + "/auth/login")
	tb.Wait(`document.readyState === 'complete' && document.querySelector('form input[name=password]') && document.fonts.status === 'loaded'`)
	tb.Screenshot(set + "/login." + lang)
	tb.Set(`form input[name=userName]`, "admin")
	tb.Set(`form input[name=password]`, "123456")
	tb.Navigating(func() { tb.Click(`form button[type=submit]`) })
	for _, s := range shots34 {
		for _, st := range s.steps {
			if st.open != "" {
				tb.Open(base + st.open)
			}
			if st.run != "" {
				tb.Run(st.run, nil)
			}
			tb.Wait(st.wait)
		}
		tb.Screenshot(set + "/" + s.name + "." + lang)
	}
}

// The 3.4.2 console's pages of our admin, for docs/screenshots/v3.
func TestScreenshots34(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	for _, lang := range []string{"en", "zh_CN"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			a := startAdmin34(t, lang, "")
			tb := browser.NewTab(t, b, 3*time.Minute)
			takeShots34(t, tb, a.base, "v3", lang)
			tb.Clean("screenshots")
		})
	}
}

// The same pages of the 3.4.2 jar on MariaDB with the release's tables and
// the same fixture, for docs/screenshots/java-admin-3.4.2.
func TestScreenshotsJava342(t *testing.T) {
	jar := javaadmin.Require342(t)
	if os.Getenv(storetest.EnvMySQL) == "" {
		t.Skip("[suite-off] the 3.4.2 jar runs on MariaDB: set " + storetest.EnvMySQL)
	}
	b := browser.ForTest(t)
	for _, lang := range []string{"en", "zh_CN"} {
		t.Run(lang, func(t *testing.T) {
			url, user, pass := storetest.MySQLURLZone(t, consolereplay.Zone)
			url += "&useUnicode=true&characterEncoding=UTF-8"
			db, err := consolereplay.OpenDB342(t.Context(), url, user, pass)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = db.Close() }()
			exec := startExecutor34(t)
			if err := (consolereplay.Fixture342{At: time.Now(), Executor: exec.address()}).Load(t.Context(), db); err != nil {
				t.Fatal(err)
			}
			out := &syncBuffer{}
			a, err := javaadmin.Start(t.Context(), javaadmin.Java{Jar: jar}, javaadmin.Settings{DatasourceURL: url, User: user,
				Password: pass, AccessToken: consolereplay.AccessToken, Lang: lang, WorkDir: t.TempDir(),
				ReadyPath: javaadmin.ReadyPath342}, out, 2*time.Minute)
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			defer func() { _ = a.Stop() }()
			tb := browser.NewTab(t, b, 3*time.Minute)
			takeShots34(t, tb, a.BaseURL, "java-admin-3.4.2", lang)
		})
	}
}
