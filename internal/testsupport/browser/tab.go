package browser

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// EnvScreenshots names a directory; when set, Tab.Screenshot saves PNGs there.
const EnvScreenshots = "XXL_PAGES_SCREENSHOTS"

// shared is the test binary's one Chromium: launched by the first ForTest,
// closed by Main. Tests share it and open tabs of their own (each in its
// own browser context), so parallel tests pay for one start-up.
var shared struct {
	once sync.Once
	b    *Browser
	err  error
}

// ForTest returns the test binary's Chromium, launching it on first use, or
// skips the test when the browser suite is off (EnvChromium unset). The
// package's TestMain must end with Main, which closes it.
func ForTest(t testing.TB) *Browser {
	t.Helper()
	path := os.Getenv(EnvChromium)
	if path == "" {
		t.Skip("[suite-off] headless Chromium page tests: set " + EnvChromium + "=/usr/bin/chromium")
	}
	shared.once.Do(func() { shared.b, shared.err = Launch(path) })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.b
}

// Parallel is how many parallel tests of a browser package run at once
// unless -parallel says otherwise. A page test mostly waits (fades, timers,
// the server), so four tabs keep two cores busy where GOMAXPROCS (2) would
// leave them idle.
const Parallel = 4

// Main runs the tests and then closes the shared browser; a package's
// TestMain is os.Exit(browser.Main(m)).
func Main(m *testing.M) int {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(Parallel))
	}
	code := m.Run()
	if shared.b != nil {
		if err := shared.b.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "close browser: %v\n", err)
		}
	}
	return code
}

// Tab is a page in a test: every step fails the test on error.
type Tab struct {
	*Page
	T   testing.TB
	Ctx context.Context
}

// NewTab opens a tab that must finish its work within limit.
func NewTab(t testing.TB, b *Browser, limit time.Duration) *Tab {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	t.Cleanup(cancel)
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close(context.Background()) })
	return &Tab{Page: p, T: t, Ctx: ctx}
}

// Open loads url.
func (tb *Tab) Open(url string) {
	tb.T.Helper()
	if err := tb.Navigate(tb.Ctx, url); err != nil {
		tb.T.Fatal(err)
	}
}

// WaitLimit bounds each Wait.
const WaitLimit = 20 * time.Second

// Wait waits (at most WaitLimit) until the JavaScript condition holds.
func (tb *Tab) Wait(cond string) {
	tb.T.Helper()
	ctx, cancel := context.WithTimeout(tb.Ctx, WaitLimit)
	defer cancel()
	if err := tb.WaitFor(ctx, cond); err != nil {
		tb.T.Fatalf("%v (problems: %v)", err, tb.Problems())
	}
}

// Run evaluates a JavaScript expression; out (may be nil) receives its value.
func (tb *Tab) Run(expr string, out any) {
	tb.T.Helper()
	if err := tb.Eval(tb.Ctx, expr, out); err != nil {
		tb.T.Fatal(err)
	}
}

// Str is the string value of a JavaScript expression.
func (tb *Tab) Str(expr string) string {
	tb.T.Helper()
	var s string
	tb.Run(expr, &s)
	return s
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Click clicks the first element matching a CSS selector (a real DOM click).
func (tb *Tab) Click(sel string) {
	tb.T.Helper()
	q := jsString(sel)
	tb.Run(`(function () { var e = document.querySelector(`+q+`);
		if (!e) { throw new Error('nothing matches ' + `+q+`); } e.click(); return true; })()`, nil)
}

// Set gives a form control a value and fires input and change, as typing
// or choosing would.
func (tb *Tab) Set(sel, value string) {
	tb.T.Helper()
	q := jsString(sel)
	tb.Run(`(function () { var e = document.querySelector(`+q+`);
		if (!e) { throw new Error('nothing matches ' + `+q+`); }
		e.value = `+jsString(value)+`; e.dispatchEvent(new Event('input', {bubbles: true}));
		if (window.jQuery) { jQuery(e).trigger('change'); } else { e.dispatchEvent(new Event('change', {bubbles: true})); }
		return true; })()`, nil)
}

// Navigating runs action, which makes the page load another one, and waits
// for that load.
func (tb *Tab) Navigating(action func()) {
	tb.T.Helper()
	done := tb.ExpectNavigation()
	action()
	if err := done(tb.Ctx); err != nil {
		tb.T.Fatal(err)
	}
}

// Landing runs action, which makes the page go (maybe through others) to a
// document whose URL starts with prefix, and waits for that one's load.
func (tb *Tab) Landing(prefix string, action func()) {
	tb.T.Helper()
	done := tb.ExpectLoadOf(prefix)
	action()
	if err := done(tb.Ctx); err != nil {
		tb.T.Fatal(err)
	}
}

// PlantedJS lists elements that only injected markup could have created:
// images, SVG, inline scripts with code, any on* attribute. The console
// shows no image from data, so a test planting <img onerror> or <svg
// onload> in data finds it here if it reached the DOM as HTML.
const PlantedJS = `(function () {
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

// Clean fails the test if the page had problems (exceptions, console
// errors, CSP violations, failed loads, native dialogs) or holds elements
// from injected markup.
func (tb *Tab) Clean(what string) {
	tb.T.Helper()
	for _, p := range tb.Problems() {
		tb.T.Errorf("%s: %s", what, p)
	}
	var bad []string
	tb.Run(PlantedJS, &bad)
	for _, b := range bad {
		tb.T.Errorf("%s: injected markup became an element: %s", what, b)
	}
}

// Screenshot saves the viewport as NAME.png in EnvScreenshots, when set.
func (tb *Tab) Screenshot(name string) {
	dir := os.Getenv(EnvScreenshots)
	if dir == "" {
		return
	}
	png, err := tb.Page.Screenshot(tb.Ctx)
	if err != nil {
		tb.T.Errorf("screenshot: %v", err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		tb.T.Errorf("screenshot: %v", err)
	}
}

// The console's own dialogs (XJ.alert / XJ.confirm in static/js/common.js).

// Accept clicks OK in the open dialog (when the page may go elsewhere next).
func (tb *Tab) Accept() {
	tb.T.Helper()
	tb.Wait(`document.querySelector('.xj-dialog.in .btn-primary')`)
	tb.Click(`.xj-dialog.in .btn-primary`)
}

// Confirm clicks OK in the open dialog and waits for it to close.
func (tb *Tab) Confirm() {
	tb.T.Helper()
	tb.Accept()
	tb.Wait(`!document.querySelector('.xj-dialog')`)
}

// Shown waits until the modal with this CSS selector is shown.
func (tb *Tab) Shown(sel string) {
	tb.T.Helper()
	tb.Wait(`document.querySelector(` + jsString(sel+".in") + `)`)
}

// Hidden waits until the modal with this CSS selector is hidden, its fade
// finished (a modal shown again while still fading out is hidden by the end
// of that fade).
func (tb *Tab) Hidden(sel string) {
	tb.T.Helper()
	q := jsString(sel)
	tb.Wait(`(function () { var e = document.querySelector(` + q + `);
		return !e || (!e.classList.contains('in') && getComputedStyle(e).display === 'none'); })()`)
}
