package browser_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
)

// A page of another origin that the logged-in victim opens cannot change
// anything: an auto-submitted form POST to /jobinfo/remove and a top-level
// GET link to /jobinfo/stop are refused and the rows stay as they were —
// from a same-site origin (127.0.0.1 on another port: the SameSite=Lax
// login cookie is sent, the console's cross-site check refuses) and from a
// cross-site one (localhost: the browser sends no cookie either). Scripts
// that send none of the browser's headers still work: compat/console
// TestCrossSite.
func TestForeignOriginRefused(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	base := startAdmin(t, "en")
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(strings.TrimSuffix(base, ctxPath), "http://"))

	// the fixture's jobs 2 and 7 (group 2); job 7 is started first
	tb := browser.NewTab(t, b, 2*time.Minute)
	login(tb, base, "admin", "123456")
	api := newConsoleClient(t, base, "admin", "123456")
	if ans := api.post("/jobinfo/start", "id", "7"); !strings.Contains(ans, `"code":200`) {
		t.Fatalf("start job 7: %s", ans)
	}

	evil := http.NewServeMux()
	evil.HandleFunc("/form", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!DOCTYPE html><body><form id="f" method="POST" action="http://127.0.0.1:` + port + ctxPath + `/jobinfo/remove">` +
			`<input name="id" value="2"></form><script src="/submit.js"></script></body>`))
	})
	evil.HandleFunc("/submit.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write([]byte(`document.getElementById('f').submit();`))
	})
	evil.HandleFunc("/link", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!DOCTYPE html><body><a id="go" href="http://127.0.0.1:` + port + ctxPath + `/jobinfo/stop?id=7">win a prize</a></body>`))
	})
	srv := httptest.NewServer(evil)
	defer srv.Close()
	_, evilPort, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	admin := "http://127.0.0.1:" + port + ctxPath + "/"

	jobList := func() []string {
		var ids []string
		tb.Open(base + "/jobinfo?jobGroup=2")
		tb.Wait(`document.querySelectorAll('#xj-job-list tbody .btn-group').length > 0`)
		tb.Run(`jQuery('#xj-job-list').DataTable().rows().data().toArray().map(function (j) { return j.id + ':' + j.triggerStatus; })`, &ids)
		for _, p := range tb.Problems() {
			// the browser asks the refusal's origin for /favicon.ico, which
			// no admin serves; that load may be reported late
			if !strings.Contains(p, "/favicon.ico") {
				t.Errorf("job list: %s", p)
			}
		}
		tb.Clean("job list")
		return ids
	}
	before := jobList()
	if !strings.Contains(strings.Join(before, " "), "2:0") || !strings.Contains(strings.Join(before, " "), "7:1") {
		t.Fatalf("fixture jobs %v", before)
	}

	for _, origin := range []struct{ name, host string }{
		{"same-site", "127.0.0.1"},
		{"cross-site", "localhost"},
	} {
		evilURL := "http://" + origin.host + ":" + evilPort
		// the form posts itself on load and the browser shows the answer
		tb.Landing(admin, func() { tb.Open(evilURL + "/form") })
		if body := tb.Str(`document.body.textContent`); strings.Contains(body, `"code":200`) {
			t.Errorf("%s form POST answered %q", origin.name, body)
		}
		tb.Open(evilURL + "/link")
		tb.Landing(admin, func() { tb.Click(`#go`) })
		if body := tb.Str(`document.body.textContent`); strings.Contains(body, `"code":200`) {
			t.Errorf("%s link GET answered %q", origin.name, body)
		}
		tb.Problems() // the refusals are failed loads by design
		if after := jobList(); strings.Join(after, " ") != strings.Join(before, " ") {
			t.Errorf("%s: jobs %v became %v", origin.name, before, after)
		}
	}
	// the same-site refusal is the console's own check, with the cookie sent
	tb.Landing(admin, func() { tb.Open("http://127.0.0.1:" + evilPort + "/form") })
	if body := tb.Str(`document.body.textContent`); !strings.Contains(body, "Cross-site request refused") {
		t.Errorf("same-site form POST answered %q", body)
	}
	tb.Problems()
}
