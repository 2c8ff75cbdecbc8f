package console

import (
	"encoding/hex"
	"net/http"
	"strings"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// javaAdminCookie is the seed admin's cookie as the Java admin issues it
// (recording login_success.en, console.md §2).
const javaAdminCookie = "7b226964223a312c22757365726e616d65223a2261646d696e222c2270617373776f7264223a226531306164633339343962613539616262653536653035376632306638383365222c22726f6c65223a312c227065726d697373696f6e223a6e756c6c7d"

func loginCookie(t *testing.T, a answer) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: a.header}).Cookies() {
		if c.Name == CookieName {
			return c
		}
	}
	t.Fatalf("no %s cookie in %v", CookieName, a.header)
	return nil
}

// TestLoginCookieSigned: the default cookie is signed, carries no password
// hash, is HttpOnly + SameSite=Lax on Path=/, is a session cookie unless
// "remember" (then Java's Max-Age), and stops working when the password
// changes (issue 8, "Session").
func TestLoginCookieSigned(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", false)
		a := e.anonymous().post("/login", "userName", "admin", "password", "123456")
		ck := loginCookie(t, a)
		if !strings.HasPrefix(ck.Value, signedPrefix) || strings.Contains(ck.Value, "e10adc39") {
			t.Errorf("cookie value %q: want the signed format without the hash", ck.Value)
		}
		raw := a.header.Get("Set-Cookie")
		for _, want := range []string{"Path=/", "HttpOnly", "SameSite=Lax"} {
			if !strings.Contains(raw, want) {
				t.Errorf("Set-Cookie %q lacks %s", raw, want)
			}
		}
		if ck.MaxAge != 0 {
			t.Errorf("session cookie has Max-Age %d", ck.MaxAge)
		}
		a = e.anonymous().post("/login", "userName", "admin", "password", "123456", "ifRemember", "on")
		if ck := loginCookie(t, a); ck.MaxAge != rememberMaxAge || !strings.Contains(a.header.Get("Set-Cookie"), "Expires=") {
			t.Errorf("remembered cookie: %q", a.header.Get("Set-Cookie"))
		}

		c := e.login("admin", "123456")
		if r := c.post("/chartInfo"); r.status != 200 || r.json()["code"] != float64(200) {
			t.Fatalf("logged in: %d %s", r.status, r.body)
		}
		// Forged: another user's name under admin's signature.
		forged := e.anonymous()
		forged.http.Jar.SetCookies(mustURL(e.srv.URL), []*http.Cookie{{Name: CookieName, Value: strings.Replace(loginCookie(t, a).Value, "s1.", "s1.x", 1)}})
		if r := forged.post("/chartInfo"); r.status != http.StatusFound {
			t.Errorf("tampered cookie answered %d", r.status)
		}
		// The Java format is refused unless legacy mode is on.
		javaCk := e.anonymous()
		javaCk.http.Jar.SetCookies(mustURL(e.srv.URL), []*http.Cookie{{Name: CookieName, Value: javaAdminCookie}})
		if r := javaCk.post("/chartInfo"); r.status != http.StatusFound {
			t.Errorf("Java cookie accepted in signed mode: %d", r.status)
		}
		// A password change ends the sessions of the old password.
		if r := c.post("/user/updatePwd", "oldPassword", "123456", "password", "654321"); r.msg() != "<nil>" {
			t.Fatalf("updatePwd: %s", r.body)
		}
		if r := c.post("/chartInfo"); r.status != http.StatusFound || r.header.Get("Location") != ctxPath+"/toLogin" {
			t.Errorf("old session after password change: %d %s", r.status, r.header.Get("Location"))
		}
	})
}

// TestLoginCookieLegacy: with xxl.job.console.legacy-cookie the Java
// cookie is issued byte for byte and accepted (recording login_success.en),
// a cookie whose hash no longer matches is refused and a non-hex value is
// cleared (recording not_logged_in.en #5, #6).
func TestLoginCookieLegacy(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		e := newEnv(t, s, "en", true)
		a := e.anonymous().post("/login", "userName", "ADMIN", "password", "123456")
		if ck := loginCookie(t, a); ck.Value != javaAdminCookie {
			t.Errorf("legacy cookie %q, want the Java admin's", ck.Value)
		}
		if strings.Contains(a.header.Get("Set-Cookie"), "SameSite") {
			t.Errorf("legacy cookie has SameSite: %q", a.header.Get("Set-Cookie"))
		}
		java := e.anonymous()
		java.http.Jar.SetCookies(mustURL(e.srv.URL), []*http.Cookie{{Name: CookieName, Value: javaAdminCookie}})
		if r := java.post("/chartInfo"); r.status != 200 {
			t.Errorf("Java cookie refused in legacy mode: %d", r.status)
		}
		u := testfactory.User(t, s, testfactory.UserOpts{Username: "other1"})
		stale := strings.Replace(string(javaCookieJSON(u)), u.Password, testfactory.MD5("nope"), 1)
		bad := e.anonymous()
		bad.http.Jar.SetCookies(mustURL(e.srv.URL), []*http.Cookie{{Name: CookieName, Value: hex.EncodeToString([]byte(stale))}})
		if r := bad.post("/chartInfo"); r.status != http.StatusFound {
			t.Errorf("stale hash accepted: %d", r.status)
		}
		nonHex := e.anonymous()
		nonHex.http.Jar.SetCookies(mustURL(e.srv.URL), []*http.Cookie{{Name: CookieName, Value: "zz-not-hex"}})
		r := nonHex.post("/chartInfo")
		if r.status != http.StatusFound || !strings.Contains(r.header.Get("Set-Cookie"), "Max-Age=0") {
			t.Errorf("non-hex cookie: %d %q", r.status, r.header.Get("Set-Cookie"))
		}
	})
}

// TestLoginAnswers follows recordings login_failures.en and logout.en.
func TestLoginAnswers(t *testing.T) {
	e := newEnv(t, storetest.SQLite(t), "en", false)
	c := e.anonymous()
	for _, tc := range []struct {
		kv   []string
		want string
	}{
		{[]string{"userName", "admin", "password", "wrong"}, "Username or password error"},
		{[]string{"userName", "nobody", "password", "123456"}, "Username or password error"},
		{[]string{"userName", "", "password", ""}, "Username or password is empty"},
		{[]string{"userName", "admin", "password", ""}, "Username or password is empty"},
		{[]string{"userName", "  ", "password", "123456"}, "Username or password is empty"},
		{nil, "Username or password is empty"},
	} {
		r := c.post("/login", tc.kv...)
		if r.status != 200 || r.msg() != tc.want || r.header.Get("Content-Type") != "application/json" {
			t.Errorf("%v: %d %s %s", tc.kv, r.status, r.header.Get("Content-Type"), r.body)
		}
	}
	// GET /login: 405 behind the login, so anonymous callers get the 302
	// with the Allow header (login_failures.en #6).
	r := c.get("/login?userName=admin&password=123456")
	if r.status != http.StatusFound || r.header.Get("Allow") != "POST" || r.header.Get("Location") != ctxPath+"/toLogin" {
		t.Errorf("GET /login: %d %v", r.status, r.header)
	}
	admin := e.login("admin", "123456")
	r = admin.getAJAX("/logout")
	if r.status != http.StatusMethodNotAllowed || r.json()["error"] != "Method Not Allowed" || r.json()["path"] != ctxPath+"/logout" {
		t.Errorf("GET /logout logged in: %d %s", r.status, r.body)
	}
	r = admin.post("/logout")
	if r.body != `{"code":200,"msg":null,"content":null}` || !strings.Contains(r.header.Get("Set-Cookie"), "Max-Age=0") ||
		!strings.Contains(r.header.Get("Set-Cookie"), "Expires=Thu, 01 Jan 1970 00:00:10 GMT") {
		t.Errorf("logout: %s %q", r.body, r.header.Get("Set-Cookie"))
	}
	if r := e.anonymous().post("/logout"); r.header.Get("Set-Cookie") != "" || r.json()["code"] != float64(200) {
		t.Errorf("logout without cookie: %q %s", r.header.Get("Set-Cookie"), r.body)
	}
	// /toLogin with a valid login: 303 home (not_logged_in.en #4).
	if r := e.login("admin", "123456").get("/toLogin"); r.status != http.StatusSeeOther || r.header.Get("Location") != ctxPath+"/" {
		t.Errorf("toLogin logged in: %d %q", r.status, r.header.Get("Location"))
	}
}

// TestThrottle: after five wrong passwords for a name or an address the
// next attempts wait, doubling up to the cap; a success clears the name.
func TestThrottle(t *testing.T) {
	now := testNow
	th := newThrottle(func() timeT { return now })
	for range freeFailures {
		if d := th.delay("u:admin", "a:1.2.3.4"); d != 0 {
			t.Fatalf("delay %v before %d failures", d, freeFailures)
		}
		th.failed("u:admin", "a:1.2.3.4")
	}
	if d := th.delay("u:admin", "a:9.9.9.9"); d != baseDelay {
		t.Errorf("6th attempt on the name waits %v, want %v", d, baseDelay)
	}
	if d := th.delay("u:other", "a:1.2.3.4"); d != baseDelay {
		t.Errorf("6th attempt from the address waits %v", d)
	}
	for range 20 {
		th.failed("u:admin")
	}
	if d := th.delay("u:admin"); d != maxDelay {
		t.Errorf("many failures wait %v, want the cap %v", d, maxDelay)
	}
	now = now.Add(window)
	if d := th.delay("u:admin"); d != 0 {
		t.Errorf("failures older than the window still count: %v", d)
	}
	th.failed("u:admin")
	th.succeeded("u:admin")
	if d := th.delay("u:admin"); d != 0 {
		t.Errorf("success did not clear: %v", d)
	}
}
