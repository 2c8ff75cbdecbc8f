package static_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/static/internal/browser"
)

// The page tests run the real pages (templates, vendor libraries, our
// scripts) in headless Chromium under the console's CSP, against a fake
// console answering with the recorded JSON shapes plus planted markup.
// XXL_PAGES_SCREENSHOTS=DIR also saves a screenshot of every page.

func launch(t *testing.T) *browser.Browser {
	t.Helper()
	path := os.Getenv(browser.EnvChromium)
	if path == "" {
		t.Skip("[suite-off] headless Chromium page tests: set " + browser.EnvChromium + "=/usr/bin/chromium")
	}
	b, err := browser.Launch(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("close browser: %v", err)
		}
	})
	return b
}

// tab is one browser tab in a test, failing the test on any error.
type tab struct {
	t   *testing.T
	ctx context.Context
	p   *browser.Page
	srv *fakeConsole
}

func newTab(t *testing.T, b *browser.Browser, srv *fakeConsole) *tab {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close(context.Background()) })
	return &tab{t: t, ctx: ctx, p: p, srv: srv}
}

func (tb *tab) open(path string) {
	tb.t.Helper()
	if err := tb.p.Navigate(tb.ctx, tb.srv.url(path)); err != nil {
		tb.t.Fatal(err)
	}
}

func (tb *tab) wait(cond string) {
	tb.t.Helper()
	if err := tb.p.WaitFor(tb.ctx, cond); err != nil {
		tb.t.Fatalf("%v (problems: %v)", err, tb.p.Problems())
	}
}

func (tb *tab) eval(expr string, out any) {
	tb.t.Helper()
	if err := tb.p.Eval(tb.ctx, expr, out); err != nil {
		tb.t.Fatal(err)
	}
}

func (tb *tab) str(expr string) string {
	tb.t.Helper()
	var s string
	tb.eval(expr, &s)
	return s
}

// click clicks the first element matching a CSS selector (a real DOM click).
func (tb *tab) click(sel string) {
	tb.t.Helper()
	q, _ := json.Marshal(sel)
	tb.eval(`(function () { var e = document.querySelector(`+string(q)+`);
		if (!e) { throw new Error('nothing matches ' + `+string(q)+`); } e.click(); return true; })()`, nil)
}

// set sets a form control's value and fires input/change as typing would.
func (tb *tab) set(sel, value string) {
	tb.t.Helper()
	q, _ := json.Marshal(sel)
	v, _ := json.Marshal(value)
	tb.eval(`(function () { var e = document.querySelector(`+string(q)+`);
		if (!e) { throw new Error('nothing matches ' + `+string(q)+`); }
		e.value = `+string(v)+`; e.dispatchEvent(new Event('input', {bubbles: true}));
		jQuery(e).trigger('change'); return true; })()`, nil)
}

// plantedJS lists elements that only planted markup could have created:
// images, SVG, inline scripts with code, any on* attribute.
const plantedJS = `(function () {
	var bad = [];
	document.querySelectorAll('*').forEach(function (e) {
		var tag = e.tagName.toLowerCase();
		var hit = tag === 'img' || tag === 'svg' ||
			(tag === 'script' && !e.src && e.type !== 'application/json');
		for (var i = 0; i < e.attributes.length; i++) {
			if (/^on/i.test(e.attributes[i].name)) { hit = true; }
		}
		if (hit) { bad.push(e.outerHTML.slice(0, 120)); }
	});
	return bad;
})()`

// clean fails the test if the page had problems (exceptions, console
// errors, CSP violations, failed loads, native dialogs) or holds elements
// from planted markup.
func (tb *tab) clean(what string) {
	tb.t.Helper()
	for _, p := range tb.p.Problems() {
		tb.t.Errorf("%s: %s", what, p)
	}
	var bad []string
	tb.eval(plantedJS, &bad)
	for _, b := range bad {
		tb.t.Errorf("%s: planted markup became an element: %s", what, b)
	}
}

func (tb *tab) screenshot(name string) {
	dir := os.Getenv("XXL_PAGES_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := tb.p.Screenshot(tb.ctx)
	if err != nil {
		tb.t.Errorf("screenshot: %v", err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		tb.t.Errorf("screenshot: %v", err)
	}
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
	b := launch(t)
	srv := newFakeConsole(t)
	for _, lang := range langs {
		for _, name := range pageNames {
			t.Run(name+"/"+lang, func(t *testing.T) {
				tb := newTab(t, b, srv)
				r := ready[name]
				sep := "?"
				if strings.Contains(r.path, "?") {
					sep = "&"
				}
				tb.open(r.path + sep + "lang=" + lang)
				tb.wait(r.cond)
				if name != "error" && name != "login" {
					if got := tb.str(`document.title`); got != samplePage(name, lang, true).Title {
						t.Errorf("title %q", got)
					}
				}
				tb.screenshot(name + "." + lang)
				tb.clean(name)
			})
		}
	}
}

// User data is shown as text: the job list shows the planted markup
// literally; the trigger message keeps only the admin's <br> and coloured
// spans; the handle message is text with line breaks.
func TestDataShownAsText(t *testing.T) {
	b := launch(t)
	srv := newFakeConsole(t)

	t.Run("job list", func(t *testing.T) {
		tb := newTab(t, b, srv)
		tb.open("/jobinfo")
		tb.wait(ready["jobinfo"].cond)
		row := tb.str(`document.querySelector('#xj-job-list tbody tr').textContent`)
		for _, want := range []string{xssDesc, xssAuthor, "CRON：0 0 1 * * ?", "BEAN：demoJobHandler", "RUNNING"} {
			if !strings.Contains(row, want) {
				t.Errorf("first row %q lacks %q", row, want)
			}
		}
		tb.clean("job list")
	})

	t.Run("trigger and handle messages", func(t *testing.T) {
		tb := newTab(t, b, srv)
		tb.open("/joblog")
		tb.wait(ready["joblog"].cond)
		// recorded message: <br> and the colour span survive
		tb.click(`#xj-log-list tbody tr:nth-child(1) .xj-trigger-msg`)
		tb.wait(`document.querySelector('.xj-dialog.in .xj-msg')`)
		var rec struct {
			Brs   int    `json:"brs"`
			Color string `json:"color"`
			Text  string `json:"text"`
		}
		tb.eval(`(function () { var m = document.querySelector('.xj-dialog.in .xj-msg');
			var s = m.querySelector('span');
			return {brs: m.querySelectorAll('br').length, color: s ? s.style.color : '', text: m.textContent}; })()`, &rec)
		if rec.Brs != 13 || rec.Color != "rgb(0, 192, 239)" || !strings.Contains(rec.Text, ">>>>>>>>>>>Trigger Job<<<<<<<<<<<") {
			t.Errorf("recorded trigger msg rendered as %+v", rec)
		}
		tb.click(`.xj-dialog.in .btn-primary`)
		tb.wait(`!document.querySelector('.xj-dialog')`)

		// planted message: the <img> and the span with onclick are text
		tb.click(`#xj-log-list tbody tr:nth-child(2) .xj-trigger-msg`)
		tb.wait(`document.querySelector('.xj-dialog.in .xj-msg')`)
		text := tb.str(`document.querySelector('.xj-dialog.in .xj-msg').textContent`)
		for _, want := range []string{`<img src=x onerror=alert('trigger')>`, `<span style="color:red" onclick="alert('span')">red</span>`} {
			if !strings.Contains(text, want) {
				t.Errorf("planted trigger msg %q lacks the literal %q", text, want)
			}
		}
		if n := tb.str(`String(document.querySelectorAll('.xj-dialog.in .xj-msg span').length)`); n != "1" {
			t.Errorf("%s spans kept, want only the one with a plain colour", n)
		}
		tb.clean("trigger msg")
		tb.click(`.xj-dialog.in .btn-primary`)
		tb.wait(`!document.querySelector('.xj-dialog')`)

		tb.click(`#xj-log-list tbody tr:nth-child(2) .xj-handle-msg`)
		tb.wait(`document.querySelector('.xj-dialog.in .xj-msg')`)
		var hm struct {
			Text string `json:"text"`
			Brs  int    `json:"brs"`
		}
		tb.eval(`(function () { var m = document.querySelector('.xj-dialog.in .xj-msg');
			return {text: m.textContent, brs: m.querySelectorAll('br').length}; })()`, &hm)
		if hm.Text != "<script>alert('handle')</script>firstsecond" || hm.Brs != 1 {
			t.Errorf("handle msg rendered as %+v", hm)
		}
		tb.clean("handle msg")
	})

	t.Run("server message with markup", func(t *testing.T) {
		tb := newTab(t, b, srv)
		tb.open("/jobinfo")
		tb.wait(ready["jobinfo"].cond)
		tb.click(`#xj-add`)
		tb.wait(`document.querySelector('#xj-job-modal.in')`)
		tb.set(`#xj-f-desc`, "d")
		tb.set(`#xj-f-author`, "a")
		tb.set(`#xj-f-cron`, "0 0 1 * * ?")
		tb.set(`#xj-f-handler`, "h")
		tb.set(`#xj-f-child`, "<img src=x onerror=alert('child')>")
		tb.click(`#xj-job-modal button[type=submit]`)
		tb.wait(`document.querySelector('.xj-dialog.in')`)
		if got := tb.str(`document.querySelector('.xj-dialog.in .modal-body').textContent`); got != "Child Job ID(<img src=x onerror=alert('child')>)illegal" {
			t.Errorf("server message shown as %q", got)
		}
		tb.clean("server message")
	})
}

// The rolling log shows the executor's lines decoded once, as text, and
// follows console.md §6's rules.
func TestRollingLog(t *testing.T) {
	b := launch(t)
	srv := newFakeConsole(t)
	const lines = "line1\nline2 <b>&'\"\n"

	t.Run("finished", func(t *testing.T) {
		tb := newTab(t, b, srv)
		tb.open("/joblog/logDetailPage?id=1&trigger=200&handle=200")
		tb.wait(ready["joblog_detail"].cond)
		if got := tb.str(`document.getElementById('xj-log-console').textContent`); got != lines {
			t.Errorf("log %q, want %q", got, lines)
		}
		if got := tb.str(`document.getElementById('xj-log-status').textContent`); got != "[Load Log Finish]" {
			t.Errorf("status %q", got)
		}
		tb.clean("finished log")
	})

	t.Run("trigger failed", func(t *testing.T) {
		tb := newTab(t, b, srv)
		before := len(srv.calls("/joblog/logDetailCat"))
		tb.open("/joblog/logDetailPage?id=2&trigger=500&handle=0")
		tb.wait(ready["joblog_detail"].cond)
		if got := tb.str(`document.getElementById('xj-log-status').textContent`); got != "The job trigger fail, can not view the rolling log" {
			t.Errorf("status %q", got)
		}
		if after := len(srv.calls("/joblog/logDetailCat")); after != before {
			t.Errorf("a trigger-failed log was pulled")
		}
	})

	t.Run("running until end", func(t *testing.T) {
		tb := newTab(t, b, srv)
		tb.open("/joblog/logDetailPage?id=3&trigger=200&handle=0")
		tb.wait(`document.getElementById('xj-log-status').textContent === '[Rolling Log Finish]'`)
		if got := tb.str(`document.getElementById('xj-log-console').textContent`); got != lines {
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
		tb.clean("running log")
	})
}
