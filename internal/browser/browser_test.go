package browser

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// The harness must see what it is there to catch: a blocked inline script
// and inline handler (CSP), an uncaught exception, console.error, a failed
// load and a native dialog.
func TestPageReportsProblems(t *testing.T) {
	path := os.Getenv(EnvChromium)
	if path == "" {
		t.Skip("[suite-off] headless Chromium: set " + EnvChromium + "=/usr/bin/chromium")
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/csp", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self'")
		_, _ = w.Write([]byte(`<!DOCTYPE html><body><script>document.title='ran'</script>` +
			`<img src="/missing.png" onerror="document.title='handler'"><script src="/app.js"></script></body>`))
	})
	mux.HandleFunc("/app.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write([]byte(`console.error('boom'); window.ready = true; setTimeout(function () { throw new Error('late'); }, 0);`))
	})
	mux.HandleFunc("/dialog", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`<!DOCTYPE html><body><script>alert('hi'); window.after = true;</script></body>`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	b, err := Launch(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(ctx, srv.URL+"/csp"); err != nil {
		t.Fatal(err)
	}
	if err := p.WaitFor(ctx, `window.ready`); err != nil {
		t.Fatal(err)
	}
	var title string
	if err := p.Eval(ctx, `document.title`, &title); err != nil {
		t.Fatal(err)
	}
	if title != "" {
		t.Errorf("inline code ran under the CSP: title %q", title)
	}
	// the late exception is queued behind the load; wait for the page to report it
	if err := p.WaitFor(ctx, `new Promise(function (r) { setTimeout(function () { r(true); }, 50); })`); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(p.Problems(), "\n")
	for _, want := range []string{"Content Security Policy", "console.error: boom", "exception", "late", "404"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}

	if err := p.Navigate(ctx, srv.URL+"/dialog"); err != nil {
		t.Fatal(err)
	}
	if err := p.WaitFor(ctx, `window.after`); err != nil {
		t.Fatal(err)
	}
	if all := strings.Join(p.Problems(), "\n"); !strings.Contains(all, `native alert dialog: "hi"`) {
		t.Errorf("no dialog problem:\n%s", all)
	}
}

func TestMain(m *testing.M) { os.Exit(Main(m)) }
