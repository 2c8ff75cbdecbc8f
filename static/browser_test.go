package static_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// The page tests run the real pages (templates, vendor libraries, our
// scripts) in headless Chromium under the console's CSP, against a fake
// console answering with the recorded JSON shapes plus planted markup.
// XXL_PAGES_SCREENSHOTS=DIR also saves a screenshot of every page.

// tab is a browser tab on the fake console.
type tab struct {
	*browser.Tab
	srv *fakeConsole
}

func newTab(t *testing.T, b *browser.Browser, srv *fakeConsole) *tab {
	t.Helper()
	return &tab{Tab: browser.NewTab(t, b, 60*time.Second), srv: srv}
}

// open loads a console path of the fake console.
func (tb *tab) open(path string) {
	tb.T.Helper()
	tb.Open(tb.srv.url(path))
}

// openReady opens a console path and waits until page's scripts have run
// and its data has arrived (ready).
func (tb *tab) openReady(path, page string) {
	tb.T.Helper()
	tb.open(path)
	tb.Wait(ready[page].cond)
}

// openFresh opens path, ready as page, in a new tab on a fake console of
// its own.
func openFresh(t *testing.T, b *browser.Browser, path, page string) (*fakeConsole, *tab) {
	t.Helper()
	srv := newFakeConsole(t)
	tb := newTab(t, b, srv)
	tb.openReady(path, page)
	return srv, tb
}

func (tb *tab) waitCall(path string, n int) request {
	tb.T.Helper()
	r, err := tb.srv.waitCall(tb.Ctx, path, n)
	if err != nil {
		tb.T.Fatal(err)
	}
	return r
}

// ready is, per page, a condition that holds once its scripts have run and
// its data has arrived.
var ready = map[string]struct{ path, cond string }{
	"index":         {"/", `document.querySelector('#xj-line-chart canvas') && document.querySelector('#xj-pie-chart canvas') && document.querySelector('.xj-range-text').textContent.length > 0`},
	"jobinfo":       {"/jobinfo", `document.querySelectorAll('#xj-job-list tbody .btn-group').length === 3`},
	"joblog":        {"/joblog?jobId=7", `document.querySelectorAll('#xj-log-list tbody .xj-log-info').length === 3`},
	"joblog_detail": {"/joblog/logDetailPage?id=1", `document.getElementById('xj-log-status').textContent !== ''`},
	"jobgroup":      {"/jobgroup", `document.querySelectorAll('#xj-group-list tbody .btn-group').length === 2`},
	"jobcode":       {"/jobcode?jobId=4", `document.querySelector('.CodeMirror') && document.querySelector('.CodeMirror').CodeMirror.getValue() !== ''`},
	"user":          {"/user", `document.querySelectorAll('#xj-user-list tbody .xj-edit').length === 2`},
	"help":          {"/help", `document.readyState === 'complete' && window.XJ`},
	"login":         {"/toLogin", `document.querySelector('.icheckbox_square-blue')`},
	"error":         {"/error", `document.readyState === 'complete'`},
}

// Every page, in every language, loads under the CSP with no exception,
// console error, CSP violation or failed load, and no planted markup
// becomes an element.
func TestPagesLoadCleanly(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	srv := newFakeConsole(t)
	for _, lang := range langs {
		for _, name := range pageNames {
			t.Run(name+"/"+lang, func(t *testing.T) {
				t.Parallel()
				tb := newTab(t, b, srv)
				r := ready[name]
				sep := "?"
				if strings.Contains(r.path, "?") {
					sep = "&"
				}
				tb.open(r.path + sep + "lang=" + lang)
				tb.Wait(r.cond)
				if name != "error" && name != "login" {
					if got := tb.Str(`document.title`); got != samplePage(name, lang, true).Title {
						t.Errorf("title %q", got)
					}
				}
				tb.Screenshot(name + "." + lang)
				tb.Clean(name)
			})
		}
	}
}

// User data is shown as text: the job list shows the planted markup
// literally; the trigger and handle messages keep only the admin's <br> and
// coloured spans.
func TestDataShownAsText(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	srv := newFakeConsole(t)

	t.Run("job list", func(t *testing.T) {
		tb := newTab(t, b, srv)
		tb.openReady("/jobinfo", "jobinfo")
		row := tb.Str(`document.querySelector('#xj-job-list tbody tr').textContent`)
		for _, want := range []string{xssDesc, xssAuthor, "CRON：0 0 1 * * ?", "BEAN：demoJobHandler", "RUNNING"} {
			if !strings.Contains(row, want) {
				t.Errorf("first row %q lacks %q", row, want)
			}
		}
		tb.Clean("job list")
	})

	t.Run("trigger and handle messages", func(t *testing.T) {
		tb := newTab(t, b, srv)
		tb.openReady("/joblog", "joblog")
		// recorded message: <br> and the colour span survive
		tb.Click(`#xj-log-list tbody tr:nth-child(1) .xj-trigger-msg`)
		tb.Wait(`document.querySelector('.xj-dialog.in .xj-msg')`)
		var rec struct {
			Brs   int    `json:"brs"`
			Color string `json:"color"`
			Text  string `json:"text"`
		}
		tb.Run(`(function () { var m = document.querySelector('.xj-dialog.in .xj-msg');
			var s = m.querySelector('span');
			return {brs: m.querySelectorAll('br').length, color: s ? s.style.color : '', text: m.textContent}; })()`, &rec)
		if rec.Brs != 13 || rec.Color != "rgb(0, 192, 239)" || !strings.Contains(rec.Text, ">>>>>>>>>>>Trigger Job<<<<<<<<<<<") {
			t.Errorf("recorded trigger msg rendered as %+v", rec)
		}
		tb.Screenshot("trigger-msg")
		tb.Click(`.xj-dialog.in .btn-primary`)
		tb.Wait(`!document.querySelector('.xj-dialog')`)

		// planted message: the <img> and the span with onclick are text
		tb.Click(`#xj-log-list tbody tr:nth-child(2) .xj-trigger-msg`)
		tb.Wait(`document.querySelector('.xj-dialog.in .xj-msg')`)
		text := tb.Str(`document.querySelector('.xj-dialog.in .xj-msg').textContent`)
		for _, want := range []string{`<img src=x onerror=alert('trigger')>`, `<span style="color:red" onclick="alert('span')">red</span>`} {
			if !strings.Contains(text, want) {
				t.Errorf("planted trigger msg %q lacks the literal %q", text, want)
			}
		}
		if n := tb.Str(`String(document.querySelectorAll('.xj-dialog.in .xj-msg span').length)`); n != "1" {
			t.Errorf("%s spans kept, want only the one with a plain colour", n)
		}
		tb.Clean("trigger msg")
		tb.Click(`.xj-dialog.in .btn-primary`)
		tb.Wait(`!document.querySelector('.xj-dialog')`)

		tb.Click(`#xj-log-list tbody tr:nth-child(2) .xj-handle-msg`)
		tb.Wait(`document.querySelector('.xj-dialog.in .xj-msg')`)
		var hm struct {
			Text  string `json:"text"`
			Brs   int    `json:"brs"`
			Color string `json:"color"`
		}
		tb.Run(`(function () { var m = document.querySelector('.xj-dialog.in .xj-msg');
			var s = m.querySelector('span');
			return {text: m.textContent, brs: m.querySelectorAll('br').length, color: s ? s.style.color : ''}; })()`, &hm)
		// the same whitelist as trigger_msg: breaks and the child-trigger span
		// are elements, the executor's markup is text
		want := "<script>alert('handle')</script>firstsecond<img src=x onerror=alert('hm')> >>>>>>>>>>>Trigger child job<<<<<<<<<<< "
		if hm.Text != want || hm.Brs != 4 || hm.Color != "rgb(0, 192, 239)" {
			t.Errorf("handle msg rendered as %+v, want text %q, 4 breaks, the span's colour", hm, want)
		}
		tb.Clean("handle msg")
	})

	t.Run("server message with markup", func(t *testing.T) {
		tb := newTab(t, b, srv)
		tb.openReady("/jobinfo", "jobinfo")
		tb.Click(`#xj-add`)
		tb.Wait(`document.querySelector('#xj-job-modal.in')`)
		tb.Set(`#xj-f-desc`, "d")
		tb.Set(`#xj-f-author`, "a")
		tb.Set(`#xj-f-cron`, "0 0 1 * * ?")
		tb.Set(`#xj-f-handler`, "h")
		tb.Set(`#xj-f-child`, "<img src=x onerror=alert('child')>")
		tb.Click(`#xj-job-modal button[type=submit]`)
		tb.Wait(`document.querySelector('.xj-dialog.in')`)
		if got := tb.Str(`document.querySelector('.xj-dialog.in .modal-body').textContent`); got != "Child Job ID(<img src=x onerror=alert('child')>)illegal" {
			t.Errorf("server message shown as %q", got)
		}
		tb.Clean("server message")
	})
}

// The rolling log shows the executor's lines decoded once, as text, and
// follows console.md §6's rules.
func TestRollingLog(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	srv := newFakeConsole(t)
	const lines = "line1\nline2 <b>&'\"\n"

	t.Run("finished", func(t *testing.T) {
		tb := newTab(t, b, srv)
		tb.openReady("/joblog/logDetailPage?id=1&trigger=200&handle=200", "joblog_detail")
		if got := tb.Str(`document.getElementById('xj-log-console').textContent`); got != lines {
			t.Errorf("log %q, want %q", got, lines)
		}
		if got := tb.Str(`document.getElementById('xj-log-status').textContent`); got != "[Load Log Finish]" {
			t.Errorf("status %q", got)
		}
		tb.Clean("finished log")
	})

	t.Run("trigger failed", func(t *testing.T) {
		tb := newTab(t, b, srv)
		before := len(srv.calls("/joblog/logDetailCat"))
		tb.openReady("/joblog/logDetailPage?id=2&trigger=500&handle=0", "joblog_detail")
		if got := tb.Str(`document.getElementById('xj-log-status').textContent`); got != "The job trigger fail, can not view the rolling log" {
			t.Errorf("status %q", got)
		}
		if after := len(srv.calls("/joblog/logDetailCat")); after != before {
			t.Errorf("a trigger-failed log was pulled")
		}
	})

	t.Run("running until end", func(t *testing.T) {
		tb := newTab(t, b, srv)
		tb.open("/joblog/logDetailPage?id=3&trigger=200&handle=0")
		tb.Wait(`document.getElementById('xj-log-status').textContent === '[Rolling Log Finish]'`)
		if got := tb.Str(`document.getElementById('xj-log-console').textContent`); got != lines {
			t.Errorf("log %q, want %q", got, lines)
		}
		var froms []string
		for _, c := range srv.calls("/joblog/logDetailCat") {
			if c.Form.Get("logId") == "3" {
				froms = append(froms, c.Form.Get("fromLineNum"))
			}
		}
		if !slices.Equal(froms, []string{"1", "3"}) {
			t.Errorf("pulled from lines %v, want [1 3]", froms)
		}
		tb.Clean("running log")
	})
}
