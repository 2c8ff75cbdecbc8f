package browser

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// Page is one tab. Its problems (uncaught exceptions, console errors, error
// log entries such as CSP violations and failed loads, native dialogs) are
// collected from the moment it is opened.
type Page struct {
	b       *Browser
	session string
	target  string

	mu       sync.Mutex
	problems []string
	loaded   chan struct{} // replaced per navigation, closed on its load event
}

// event handles one DevTools event of this page's session; it runs on the
// browser's read loop, so it must not wait for replies.
func (p *Page) event(method string, params json.RawMessage) {
	switch method {
	case "Page.loadEventFired":
		p.mu.Lock()
		select {
		case <-p.loaded:
		default:
			close(p.loaded)
		}
		p.mu.Unlock()
	case "Runtime.exceptionThrown":
		var e struct {
			Details struct {
				Text      string `json:"text"`
				URL       string `json:"url"`
				Line      int    `json:"lineNumber"`
				Exception struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		_ = json.Unmarshal(params, &e)
		p.addProblem(fmt.Sprintf("exception: %s %s (%s:%d)", e.Details.Text,
			e.Details.Exception.Description, e.Details.URL, e.Details.Line+1))
	case "Runtime.consoleAPICalled":
		var e struct {
			Type string `json:"type"`
			Args []struct {
				Value       any    `json:"value"`
				Description string `json:"description"`
			} `json:"args"`
		}
		_ = json.Unmarshal(params, &e)
		if e.Type != "error" && e.Type != "assert" {
			return
		}
		var parts []string
		for _, a := range e.Args {
			if a.Value != nil {
				parts = append(parts, fmt.Sprint(a.Value))
			} else {
				parts = append(parts, a.Description)
			}
		}
		p.addProblem("console." + e.Type + ": " + strings.Join(parts, " "))
	case "Log.entryAdded":
		var e struct {
			Entry struct {
				Source string `json:"source"`
				Level  string `json:"level"`
				Text   string `json:"text"`
				URL    string `json:"url"`
			} `json:"entry"`
		}
		_ = json.Unmarshal(params, &e)
		if e.Entry.Level == "error" {
			p.addProblem(fmt.Sprintf("log %s: %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL))
		}
	case "Page.javascriptDialogOpening":
		var e struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(params, &e)
		p.addProblem(fmt.Sprintf("native %s dialog: %q", e.Type, e.Message))
		go func() { // dismiss it, off the read loop
			_, _ = p.b.call(context.Background(), p.session, "Page.handleJavaScriptDialog", map[string]any{"accept": false})
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

// Navigate loads url and waits for its load event.
func (p *Page) Navigate(ctx context.Context, url string) error {
	p.mu.Lock()
	loaded := make(chan struct{})
	p.loaded = loaded
	p.mu.Unlock()
	raw, err := p.b.call(ctx, p.session, "Page.navigate", map[string]any{"url": url})
	if err != nil {
		return err
	}
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := json.Unmarshal(raw, &nav); err == nil && nav.ErrorText != "" {
		return fmt.Errorf("navigate %s: %s", url, nav.ErrorText)
	}
	return p.waitLoaded(ctx, loaded, url)
}

// ExpectNavigation returns a wait for the next load event, for navigations
// the page starts itself (a click on a link, location.href = ...).
func (p *Page) ExpectNavigation() func(ctx context.Context) error {
	p.mu.Lock()
	loaded := make(chan struct{})
	p.loaded = loaded
	p.mu.Unlock()
	return func(ctx context.Context) error { return p.waitLoaded(ctx, loaded, "next page") }
}

func (p *Page) waitLoaded(ctx context.Context, loaded chan struct{}, what string) error {
	select {
	case <-loaded:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("load %s: %w", what, ErrTimeout)
	}
}

// Eval evaluates a JavaScript expression in the page (awaiting a returned
// promise) and decodes its JSON-serialisable result into out (may be nil).
func (p *Page) Eval(ctx context.Context, expr string, out any) error {
	raw, err := p.b.call(ctx, p.session, "Runtime.evaluate", map[string]any{
		"expression": expr, "returnByValue": true, "awaitPromise": true, "userGesture": true,
	})
	if err != nil {
		return err
	}
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("evaluate: %w", err)
	}
	if r.Exception != nil {
		return fmt.Errorf("evaluate %.80q: %s %s", expr, r.Exception.Text, r.Exception.Exception.Description)
	}
	if out == nil || len(r.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
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
	done := make(chan error, 1)
	go func() { done <- p.Eval(ctx, expr, nil) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("wait for %s: %w", cond, ErrTimeout)
	}
}

// Screenshot returns a PNG of the viewport.
func (p *Page) Screenshot(ctx context.Context) ([]byte, error) {
	raw, err := p.b.call(ctx, p.session, "Page.captureScreenshot", map[string]any{"format": "png"})
	if err != nil {
		return nil, err
	}
	var r struct {
		Data string `json:"data"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("screenshot: %w", err)
	}
	return base64.StdEncoding.DecodeString(r.Data)
}

// Close closes the tab.
func (p *Page) Close(ctx context.Context) error {
	_, err := p.b.call(ctx, "", "Target.closeTarget", map[string]any{"targetId": p.target})
	p.b.mu.Lock()
	delete(p.b.pages, p.session)
	p.b.mu.Unlock()
	return err
}

// ClearCookies removes every cookie of the browser (the HttpOnly login
// cookie included), as an expired session would leave it.
func (p *Page) ClearCookies(ctx context.Context) error {
	_, err := p.b.call(ctx, p.session, "Network.clearBrowserCookies", nil)
	return err
}
