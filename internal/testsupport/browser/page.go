package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Page is one tab. Its problems (uncaught exceptions, console errors, error
// log entries such as CSP violations and failed loads, native dialogs) are
// collected from the moment it is opened.
type Page struct {
	ctx    context.Context // the tab's chromedp context
	cancel context.CancelFunc

	mu       sync.Mutex
	problems []string
}

// event handles one DevTools event of the tab. It runs on chromedp's read
// loop, so it must not wait for a reply.
func (p *Page) event(ev any) {
	switch e := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		desc := ""
		if d.Exception != nil {
			desc = d.Exception.Description
		}
		p.addProblem(fmt.Sprintf("exception: %s %s (%s:%d)", d.Text, desc, d.URL, d.LineNumber+1))
	case *runtime.EventConsoleAPICalled:
		if e.Type != runtime.ConsoleAPICalledTypeError && e.Type != runtime.ConsoleAPICalledTypeAssert {
			return
		}
		var parts []string
		for _, a := range e.Args {
			var s string
			if len(a.Value) > 0 && json.Unmarshal(a.Value, &s) == nil {
				parts = append(parts, s)
			} else if len(a.Value) > 0 {
				parts = append(parts, string(a.Value))
			} else {
				parts = append(parts, a.Description)
			}
		}
		p.addProblem("console." + string(e.Type) + ": " + strings.Join(parts, " "))
	case *cdplog.EventEntryAdded:
		if e.Entry.Level == cdplog.EntryLevelError {
			p.addProblem(fmt.Sprintf("log %s: %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL))
		}
	case *page.EventJavascriptDialogOpening:
		p.addProblem(fmt.Sprintf("native %s dialog: %q", e.Type, e.Message))
		go func() { // dismiss it, off the read loop
			_, _ = chromedp.Call(p.ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}()
	}
}

func (p *Page) addProblem(s string) {
	p.mu.Lock()
	p.problems = append(p.problems, s)
	p.mu.Unlock()
}

// Problems returns what went wrong in the page so far and forgets it.
func (p *Page) Problems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.problems
	p.problems = nil
	return out
}

// bound runs on the tab with ctx's deadline and cancellation.
func (p *Page) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	tctx, cancel := context.WithCancel(p.ctx)
	stop := context.AfterFunc(ctx, cancel)
	return tctx, func() { stop(); cancel() }
}

// Navigate loads url and waits for its load event.
func (p *Page) Navigate(ctx context.Context, url string) error {
	tctx, cancel := p.bound(ctx)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("navigate %s: %w", url, p.timeout(ctx, err))
	}
	return nil
}

// timeout reports a wait ended by ctx as ErrTimeout.
func (p *Page) timeout(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w (%v)", ErrTimeout, err)
	}
	return err
}

// ExpectNavigation returns a wait for the next load event, for navigations
// the page starts itself (a click on a link, location.href = ...). The
// subscription starts now, so a load that happens before the wait is seen.
func (p *Page) ExpectNavigation() func(ctx context.Context) error {
	sub, stop := context.WithCancel(p.ctx)
	loads := chromedp.Events(sub, page.LoadEventFired)
	return func(ctx context.Context) error {
		defer stop()
		done := context.AfterFunc(ctx, stop)
		defer done()
		for _, err := range loads {
			if err != nil {
				return fmt.Errorf("load next page: %w", p.timeout(ctx, err))
			}
			return nil
		}
		return fmt.Errorf("load next page: %w", ErrTimeout)
	}
}

// ExpectLoadOf returns a wait for the load of a document whose URL starts
// with prefix, for a page that goes through others first (a form that posts
// itself on load). The subscription starts now.
func (p *Page) ExpectLoadOf(prefix string) func(ctx context.Context) error {
	sub, stop := context.WithCancel(p.ctx)
	loaded := make(chan struct{})
	var url string // of the main frame; only the read loop touches it
	var once sync.Once
	err := chromedp.Listen(sub, func(ev any) {
		switch e := ev.(type) {
		case *page.EventFrameNavigated:
			if e.Frame.ParentID == "" {
				url = e.Frame.URL
			}
		case *page.EventLoadEventFired:
			if strings.HasPrefix(url, prefix) {
				once.Do(func() { close(loaded) })
			}
		}
	})
	return func(ctx context.Context) error {
		defer stop()
		if err != nil {
			return err
		}
		select {
		case <-loaded:
			return nil
		case <-ctx.Done():
			return fmt.Errorf("load of %s: %w", prefix, ErrTimeout)
		}
	}
}

// userGesture makes an evaluation count as a user's action (focus, clicks
// that open things).
func userGesture(e *runtime.EvaluateParams) { e.UserGesture = new(true) }

// Eval evaluates a JavaScript expression in the page (awaiting a returned
// promise) and decodes its JSON-serialisable result into out (may be nil).
func (p *Page) Eval(ctx context.Context, expr string, out any) error {
	tctx, cancel := p.bound(ctx)
	defer cancel()
	raw, err := chromedp.Run(tctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise, userGesture))
	if err != nil {
		return fmt.Errorf("evaluate %.80q: %w", expr, p.timeout(ctx, err))
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// WaitFor waits until the JavaScript expression cond is truthy in the page.
// The page itself checks it every 20 ms and resolves a promise the call
// awaits, so the wait ends on the page's signal, not on a sleep here.
func (p *Page) WaitFor(ctx context.Context, cond string) error {
	expr := `new Promise(function (resolve) {
		function check() { try { return !!(` + cond + `); } catch (e) { return false; } }
		if (check()) { resolve(true); return; }
		var t = setInterval(function () { if (check()) { clearInterval(t); resolve(true); } }, 20);
	})`
	if err := p.Eval(ctx, expr, nil); err != nil {
		return fmt.Errorf("wait for %s: %w", cond, err)
	}
	return nil
}

// Screenshot returns a PNG of the viewport.
func (p *Page) Screenshot(ctx context.Context) ([]byte, error) {
	tctx, cancel := p.bound(ctx)
	defer cancel()
	png, err := chromedp.Run(tctx, chromedp.CaptureScreenshot())
	if err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	return png, nil
}

// Close closes the tab.
func (p *Page) Close(context.Context) error {
	err := chromedp.Cancel(p.ctx)
	p.cancel()
	return err
}

// ClearCookies removes every cookie of the browser (the HttpOnly login
// cookie included), as an expired session would leave it.
func (p *Page) ClearCookies(ctx context.Context) error {
	tctx, cancel := p.bound(ctx)
	defer cancel()
	_, err := chromedp.Call(tctx, network.ClearBrowserCookies, cdp.Empty{})
	return err
}
