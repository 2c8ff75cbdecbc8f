package browser_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/consolereplay"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/javaadmin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/browser"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// The 3.4.2 console's suites run our admin on a 3.x SQLite database (our
// 3.x tables and seed rows, as it creates them with xxl.job.schema=3) with
// the 3.4.2 recordings' fixture (consolereplay.Fixture342: groups 1–4,
// jobs 1–8, users admin, normal1, victim1, log rows 1–7) and a fake
// executor answering as xxl-job-core 3.4.2. Its context path is the root,
// as the 3.4.2 jar's, unless a test gives one.

// newDB34 creates a fresh SQLite database with our 3.x tables and seed
// rows; the handle stays open for the test's own reads.
func newDB34(t *testing.T) (string, *consolereplay.DB) {
	t.Helper()
	url := storetest.SQLiteURL(t, "serverTimezone="+consolereplay.Zone)
	db, err := consolereplay.OpenDB342(t.Context(), url, "", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return url, db
}

// admin34 is our admin on a 3.x database.
type admin34 struct {
	base string // console URL: http://127.0.0.1:PORT[/context path]
	db   *consolereplay.DB
	exec *executor
}

// startAdmin34 runs our admin in lang on a fresh 3.x database holding the
// fixture, with contextPath ("" for the root).
func startAdmin34(t *testing.T, lang, contextPath string) *admin34 {
	t.Helper()
	url, db := newDB34(t)
	exec := startExecutor34(t)
	if err := (consolereplay.Fixture342{At: time.Now(), Executor: exec.address()}).Load(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	return runAdmin34(t, url, db, exec, lang, contextPath)
}

// runAdmin34 runs our admin in lang on the 3.x database at url (db its
// handle, exec its executor), with contextPath ("" for the root).
func runAdmin34(t *testing.T, url string, db *consolereplay.DB, exec *executor, lang, contextPath string) *admin34 {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	mailPort, err := cluster.FreePort() // nothing listens: no mail may be sent
	if err != nil {
		t.Fatal(err)
	}
	s := javaadmin.Settings{DatasourceURL: url, AccessToken: consolereplay.AccessToken, Lang: lang, MailPort: mailPort,
		WorkDir: t.TempDir(), ReadyPath: contextPath + javaadmin.ReadyPath342}
	if contextPath != "" {
		s.Extra = []string{"--server.servlet.context-path=" + contextPath}
	}
	out := &syncBuffer{}
	a, err := javaadmin.Start(ctx, javaadmin.Ours{Bin: adminBin(t)}, s, out, time.Minute)
	if err != nil {
		cancel()
		t.Fatalf("%v\n%s", err, out.String())
	}
	var once sync.Once
	t.Cleanup(func() {
		once.Do(func() {
			if err := a.Stop(); err != nil {
				t.Logf("admin stop: %v", err)
			}
			cancel()
			if t.Failed() {
				t.Logf("admin output (%s):\n%s", lang, out.String())
			}
		})
	})
	return &admin34{base: a.BaseURL + contextPath, db: db, exec: exec}
}

// login34 logs in through the 3.4.2 login page and lands on the frame.
func login34(tb *browser.Tab, base, user, password string) {
	tb.T.Helper()
	tb.Open(base + "/auth/login")
	tb.Wait(`document.querySelector('.icheckbox_square-blue')`)
	tb.Set(`#login-form input[name=userName]`, user)
	tb.Set(`#login-form input[name=password]`, password)
	tb.Navigating(func() { tb.Click(`#login-form button[type=submit]`) })
	path := strings.TrimPrefix(strings.TrimPrefix(base, "http://"), hostOf(base))
	if got := tb.Str(`location.pathname`); got != path+"/" {
		tb.T.Fatalf("after login at %q (%s)", got, tb.Str(`document.body.innerText.slice(0, 200)`))
	}
}

// hostOf is the host:port of an http URL.
func hostOf(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	return u.Host
}

// tableLoaded holds once a bootstrap-table list (v3/js/list.js) showed n
// answers.
func tableLoaded(table string, n int) string {
	return `+(document.querySelector('` + table + `') || {getAttribute: function () { return 0; }}).getAttribute('data-xj-loads') >= ` + itoa(int64(n))
}

// rowsOf is the ids of a bootstrap-table list's rows, in order.
func rowsOf(tb *browser.Tab, table string) []string {
	tb.T.Helper()
	var ids []string
	tb.Run(`jQuery('`+table+`').bootstrapTable('getData').map(function (r) { return String(r.id); })`, &ids)
	return ids
}

// selectRow clicks the row of a bootstrap-table list whose data has this
// id, nothing being selected before (a click on the one selected row
// unselects it, as on the 3.4.2 pages): that row alone is selected.
func selectRow(tb *browser.Tab, table, id string) {
	tb.T.Helper()
	tb.Run(`(function () {
		jQuery('`+table+`').bootstrapTable('uncheckAll');
		var data = jQuery('`+table+`').bootstrapTable('getData');
		for (var i = 0; i < data.length; i++) {
			if (String(data[i].id) === `+quote(id)+`) {
				jQuery('`+table+` tbody tr[data-index="' + i + '"] td').eq(1).trigger('click');
				return true;
			}
		}
		throw new Error('no row ' + `+quote(id)+`);
	})()`, nil)
}

// checkRow ticks a row's check box (adding it to the selection).
func checkRow(tb *browser.Tab, table, id string) {
	tb.T.Helper()
	tb.Run(`jQuery('`+table+`').bootstrapTable('checkBy', {field: 'id', values: [`+id+`]}), true`, nil)
}

// selected is the ids of the selected rows.
func selected(tb *browser.Tab, table string) []string {
	tb.T.Helper()
	var ids []string
	tb.Run(`jQuery('`+table+`').bootstrapTable('getSelections').map(function (r) { return String(r.id); })`, &ids)
	return ids
}

// consoleClient34 is a logged-in client of the 3.4.2 console's endpoints,
// for setting up what a test then looks at in the browser.
type consoleClient34 struct {
	t    *testing.T
	base string
	http *http.Client
}

func newConsoleClient34(t *testing.T, base, user, password string) *consoleClient34 {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &consoleClient34{t: t, base: base, http: &http.Client{Jar: jar}}
	if ans := c.post("/auth/doLogin", "userName", user, "password", password); !strings.Contains(ans, `"code":200`) {
		t.Fatalf("login %s: %s", user, ans)
	}
	return c
}

func (c *consoleClient34) post(path string, kv ...string) string {
	c.t.Helper()
	form := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		form.Add(kv[i], kv[i+1])
	}
	resp, err := c.http.PostForm(c.base+path, form)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
