package console

import (
	"net/http"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestAnonymous: every console path but the login ones sends anonymous
// callers to /toLogin with a 302, JSON endpoints included; static files
// need no login (recording not_logged_in.en).
func TestAnonymous(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t), "en", false)
	c := e.anonymous()
	for path := range (&Console{}).routeTable() {
		switch path {
		case "/toLogin", "/login", "/logout":
			continue
		}
		r := c.post(path)
		if r.status != http.StatusFound || r.header.Get("Location") != ctxPath+"/toLogin" || r.body != "" {
			t.Errorf("POST %s anonymous: %d %q", path, r.status, r.header.Get("Location"))
		}
	}
	if r := c.get("/toLogin"); r.status != 200 || r.header.Get("Content-Type") != "text/html;charset=UTF-8" ||
		!strings.Contains(r.body, "<title>Scheduling Center</title>") {
		t.Errorf("toLogin: %d %s", r.status, r.body)
	}
	if r := c.get("/static/js/app.js"); r.status != 200 || r.body != "console.log(1)" {
		t.Errorf("static file: %d %q", r.status, r.body)
	}
	if r := c.get("/nowhere"); r.status != http.StatusFound {
		t.Errorf("unknown path anonymous: %d", r.status)
	}
}

// TestStaticVersioned: pages link files under a versioned prefix cached
// for a year; another build's version is not served.
func TestStaticVersioned(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t), "en", false)
	c, err := New(Config{Store: e.store, Texts: nil, Files: pageFS, ContextPath: ctxPath, Secret: []byte("0123456789abcdef")})
	if err != nil {
		t.Fatal(err)
	}
	prefix := strings.TrimPrefix(c.static.prefix, ctxPath)
	r := e.anonymous().get(prefix + "/js/app.js")
	if r.status != 200 || r.header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Errorf("versioned: %d %q", r.status, r.header.Get("Cache-Control"))
	}
	if r := e.anonymous().get("/static/v/000000000000/js/app.js"); r.status != http.StatusNotFound {
		t.Errorf("other version: %d", r.status)
	}
	if r := e.anonymous().get("/static/templates/layout.html"); r.status != http.StatusNotFound {
		t.Errorf("templates are not static files: %d", r.status)
	}
}

// TestBindingErrors follows recording http_methods_and_binding.en: a
// non-numeric int is HTTP 400 with Spring's JSON error body; a missing one
// is code 500 with a clean message (Java: an IllegalStateException text).
func TestBindingErrors(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		c := e.login("admin", "123456")
		r := c.post("/jobgroup/remove", "id", "abc")
		if r.status != 400 || r.json()["status"] != float64(400) || r.json()["error"] != "Bad Request" ||
			r.json()["path"] != ctxPath+"/jobgroup/remove" || r.json()["timestamp"] == nil {
			t.Errorf("non-numeric: %d %s", r.status, r.body)
		}
		r = c.post("/jobgroup/remove")
		if r.status != 200 || r.header.Get("Content-Type") != "application/json;charset=utf-8" ||
			r.msg() != "Required int parameter 'id' is not present" {
			t.Errorf("missing: %d %s %s", r.status, r.header.Get("Content-Type"), r.body)
		}
		r = c.get("/jobinfo?jobGroup=abc")
		if r.status != 400 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
			t.Errorf("page with a non-numeric int: %d %s", r.status, r.header.Get("Content-Type"))
		}
		if r := c.post("/jobinfo/add", "jobGroup", "1", "executorTimeout", "x"); r.status != 400 {
			t.Errorf("bean int not numeric: %d %s", r.status, r.body)
		}
		if r := c.getAJAX("/jobinfo/pageList?jobGroup=1&triggerStatus=-1"); r.status != 200 || r.json()["recordsTotal"] != float64(1) {
			t.Errorf("GET on a JSON endpoint: %d %s", r.status, r.body)
		}
	})
}

// TestCrossSite: state-changing requests a browser sends from another
// site are refused; same-origin pages and scripts (no Origin, Referer or
// Sec-Fetch-Site) are not affected (issue 8, "CSRF").
func TestCrossSite(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t), "en", false)
	c := e.login("admin", "123456")
	host := strings.TrimPrefix(e.srv.URL, "http://")
	for _, tc := range []struct {
		headers map[string]string
		refused bool
	}{
		{map[string]string{"Origin": "http://evil.example"}, true},
		{map[string]string{"Origin": "null"}, true},
		{map[string]string{"Referer": "http://evil.example/page"}, true},
		{map[string]string{"Sec-Fetch-Site": "cross-site"}, true},
		{map[string]string{"Sec-Fetch-Site": "same-site", "Origin": "http://" + host}, true},
		{map[string]string{"Origin": "http://" + host, "Sec-Fetch-Site": "same-origin"}, false},
		{map[string]string{"Referer": "http://" + host + "/xxl-job-admin/user"}, false},
		{nil, false},
	} {
		r := c.postWith("/user/add", tc.headers, "username", "", "password", "x")
		if refused := r.status == http.StatusForbidden; refused != tc.refused {
			t.Errorf("%v: status %d %s", tc.headers, r.status, r.body)
		}
	}
	// Reads are not refused: a link from another site may open a page.
	if r := c.postWith("/chartInfo", map[string]string{"Origin": "http://evil.example"}); r.status != 200 {
		t.Errorf("cross-site read refused: %d", r.status)
	}
	// A GET that changes state (Java maps every method) is refused too.
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+ctxPath+"/jobinfo/remove?id=1", nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	if r := c.do(req); r.status != http.StatusForbidden {
		t.Errorf("cross-site GET remove: %d", r.status)
	}
}
