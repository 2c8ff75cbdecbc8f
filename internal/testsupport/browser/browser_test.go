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

// Tabs are private windows: a cookie one tab got is not sent by another,
// so parallel tests never share a login. Landing waits for the document
// a page ends on, through one that posts itself on load.
func TestTabsAreIsolated(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/favicon.ico", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/set", func(w http.ResponseWriter, _ *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "login", Value: "yes", Path: "/"})
		_, _ = w.Write([]byte(`<!DOCTYPE html><body>set</body>`))
	})
	mux.HandleFunc("/get", func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Cookie("login")
		v := "none"
		if c != nil {
			v = c.Value
		}
		_, _ = w.Write([]byte(`<!DOCTYPE html><body>` + v + `</body>`))
	})
	mux.HandleFunc("/post", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`<!DOCTYPE html><body><form id="f" method="POST" action="/get"></form><script src="/submit.js"></script></body>`))
	})
	mux.HandleFunc("/submit.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write([]byte(`document.getElementById('f').submit();`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	b := ForTest(t)
	one, two := NewTab(t, b, 30*time.Second), NewTab(t, b, 30*time.Second)
	one.Open(srv.URL + "/set")
	one.Open(srv.URL + "/get")
	two.Open(srv.URL + "/get")
	if got := one.Str(`document.body.textContent`); got != "yes" {
		t.Errorf("the tab that got the cookie sends %q", got)
	}
	if got := two.Str(`document.body.textContent`); got != "none" {
		t.Errorf("another tab sends %q", got)
	}
	two.Landing(srv.URL+"/get", func() { two.Open(srv.URL + "/post") })
	if got := two.Str(`location.pathname + ' ' + document.body.textContent`); got != "/get none" {
		t.Errorf("landed on %q", got)
	}
	one.Clean("cookie tab")
	two.Clean("other tab")
}

// Download returns the file a click on an attachment link saved, with the
// name the server gave; SetFiles chooses a file as the file chooser would.
func TestDownloadAndSetFiles(t *testing.T) {
	const content = "{\"a\": \"ü\"}\n"
	mux := http.NewServeMux()
	mux.HandleFunc("/favicon.ico", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`<!DOCTYPE html><body><a id="get" href="/file">get</a><input type="file" id="in"><script src="/read.js"></script></body>`))
	})
	mux.HandleFunc("/file", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="jobs-1.json"`)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(content))
	})
	mux.HandleFunc("/read.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write([]byte(`document.getElementById('in').addEventListener('change', function (e) {
			var f = e.target.files[0]; f.text().then(function (t) { window.chosen = f.name + ':' + t; }); });`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	b := ForTest(t)
	tb := NewTab(t, b, 30*time.Second)
	tb.Open(srv.URL + "/")
	d := tb.Download(func() { tb.Click(`#get`) })
	if d.Name != "jobs-1.json" || string(d.Data) != content {
		t.Errorf("downloaded %q: %q", d.Name, d.Data)
	}
	path := t.TempDir() + "/chosen.json"
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	tb.SetFiles(`#in`, path)
	tb.Wait(`window.chosen`)
	if got := tb.Str(`window.chosen`); got != "chosen.json:"+content {
		t.Errorf("the page read %q", got)
	}
	tb.Clean("files")
}
