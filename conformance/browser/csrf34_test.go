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

// A page of another origin that the logged-in victim of the 3.x console
// opens cannot change anything: an auto-submitted form POST to
// /jobinfo/delete (ids[]=2) and a top-level GET link to /jobinfo/stop
// (the 3.4.2 endpoints take any method) are refused and the rows stay as
// they were — from a same-site origin (127.0.0.1 on another port) and a
// cross-site one (localhost). The 3.4.2 jar has no such check: its
// endpoints act on any request that carries the login cookie.
func TestForeignOriginRefused34(t *testing.T) {
	t.Parallel()
	b := browser.ForTest(t)
	a := startAdmin34(t, "en", "")
	_, port, _ := net.SplitHostPort(hostOf(a.base))
	// (xxl-sso keeps one login per user: the client's, then the browser's)
	api := newConsoleClient34(t, a.base, "admin", "123456")
	if ans := api.post("/jobinfo/start", "ids[]", "7"); !strings.Contains(ans, `"code":200`) {
		t.Fatalf("start job 7: %s", ans)
	}
	tb := browser.NewTab(t, b, 2*time.Minute)
	login34(tb, a.base, "admin", "123456")

	evil := http.NewServeMux()
	evil.HandleFunc("/form", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!DOCTYPE html><body><form id="f" method="POST" action="http://127.0.0.1:` + port + `/jobinfo/delete">` +
			`<input name="ids[]" value="2"></form><script src="/submit.js"></script></body>`))
	})
	evil.HandleFunc("/submit.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write([]byte(`document.getElementById('f').submit();`))
	})
	evil.HandleFunc("/link", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!DOCTYPE html><body><a id="go" href="http://127.0.0.1:` + port + `/jobinfo/stop?ids%5B%5D=7">win a prize</a></body>`))
	})
	srv := httptest.NewServer(evil)
	defer srv.Close()
	_, evilPort, _ := net.SplitHostPort(hostOf(srv.URL))
	admin := "http://127.0.0.1:" + port + "/"

	state := func() string {
		return itoa(int64(one[int](t, a.db, `SELECT COUNT(*) FROM xxl_job_info WHERE id = 2`))) + "," +
			itoa(int64(one[int](t, a.db, `SELECT trigger_status FROM xxl_job_info WHERE id = 7`)))
	}
	if got := state(); got != "1,1" {
		t.Fatalf("before: job 2 rows, job 7 status = %s", got)
	}
	for _, origin := range []struct{ name, host string }{
		{"same-site", "127.0.0.1"},
		{"cross-site", "localhost"},
	} {
		evilURL := "http://" + origin.host + ":" + evilPort
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
		if got := state(); got != "1,1" {
			t.Errorf("%s: job 2 rows, job 7 status became %s", origin.name, got)
		}
	}
	// the same-site refusal is the console's own check, with the cookie sent
	tb.Landing(admin, func() { tb.Open("http://127.0.0.1:" + evilPort + "/form") })
	if body := tb.Str(`document.body.textContent`); !strings.Contains(body, "Cross-site request refused") {
		t.Errorf("same-site form POST answered %q", body)
	}
	tb.Problems()
	// and the console's own page still works: the list shows both jobs
	tb.Open(a.base + "/jobinfo?jobGroup=2")
	tb.Wait(tableLoaded("#xj-job-list", 1))
	if got := strings.Join(rowsOf(tb, "#xj-job-list"), ","); got != "8,7,4,2" {
		t.Errorf("jobs after the attempts %s", got)
	}
	for _, p := range tb.Problems() {
		if !strings.Contains(p, "/favicon.ico") {
			t.Errorf("job list: %s", p)
		}
	}
}
