package console

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// pageFS3 is pageFS for the 3.4.2 console's templates.
var pageFS3 = func() map[string]string {
	return map[string]string{
		"v3/templates/layout.html": `{{define "layout"}}<html><head><title>{{.Title}}</title></head><body>{{template "content" .}}</body></html>{{end}}`,
		"v3/templates/error.html":  `{{define "content"}}<p class="error-message">{{.Data.Message}}</p>{{end}}`,
		"v3/templates/login.html":  `{{define "content"}}<form id="login-form"></form>{{end}}`,
	}
}()

// env34 is a 3.4.2 console on a real 3.x store.
type env34 struct {
	t     *testing.T
	store *schema.Store
	c     *Console
	srv   *httptest.Server
	now   *time.Time
	audit *syncBuffer // the job service's log lines
}

// syncBuffer collects log lines written from the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func newEnv34(t *testing.T, s *schema.Store, timeout time.Duration, opts ...func(*Config)) *env34 {
	t.Helper()
	now := time.Date(2026, 11, 27, 14, 0, 0, 0, time.UTC)
	e := &env34{t: t, store: s, now: &now, audit: &syncBuffer{}}
	files := fstest.MapFS{}
	maps.Copy(files, pageFS)
	for name, body := range pageFS3 {
		files[name] = &fstest.MapFile{Data: []byte(body)}
	}
	texts := i18n.LoadFor(3, "zh_CN")
	clock := func() time.Time { return *e.now }
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{
		Store: s, Jobs: jobs.New(jobs.Config{Store: s, Texts: texts, Rules: jobs.Rules342, FixRate: cron.FixRate342, Loc: shanghai,
			Now: clock, Log: zerolog.New(e.audit)}), Trigger: &submits{}, Executor: &fakeExecutor{},
		Results: overwriter{s}, Texts: texts, Files: files, Secret: []byte("0123456789abcdef0123456789abcdef"),
		Generation: 3, TokenTimeout: timeout, Loc: shanghai, Now: clock, Log: zerolog.Nop(),
	}
	for _, o := range opts {
		o(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.c = c
	e.srv = httptest.NewServer(c.Handler())
	t.Cleanup(e.srv.Close)
	return e
}

// post sends a form with an optional login cookie; redirects are not followed.
func (e *env34) post(path, cookie string, form url.Values) (*http.Response, string) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
	return e.do(req, cookie)
}

func (e *env34) get(path, cookie string) (*http.Response, string) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+path, nil)
	return e.do(req, cookie)
}

func (e *env34) do(req *http.Request, cookie string) (*http.Response, string) {
	e.t.Helper()
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: "xxl_job_login_token", Value: cookie})
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// login logs admin in and returns the cookie value.
func (e *env34) login(user, password string) string {
	e.t.Helper()
	res, body := e.post("/auth/doLogin", "", url.Values{"userName": {user}, "password": {password}})
	if body != `{"code":200,"data":null,"msg":"Success","success":true}` {
		e.t.Fatalf("login of %s answered %s", user, body)
	}
	for _, c := range res.Cookies() {
		if c.Name == "xxl_job_login_token" {
			v, _ := url.QueryUnescape(c.Value)
			return v
		}
	}
	e.t.Fatal("no login cookie")
	return ""
}

// TestAuth34Login checks /auth/doLogin against the 3.4.2 jar's answers
// (LoginController, xxl-sso TokenHelper): the Response envelope with
// members in alphabetical order, the cookie xxl_job_login_token holding
// base64url {"userId","expireTime","signature"} whose signature is the
// token stored in xxl_job_user.token, and one login per user at a time.
func TestAuth34Login(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		e := newEnv34(t, s, 7*24*time.Hour)
		for _, tc := range []struct {
			form url.Values
			want string
		}{
			{url.Values{"userName": {"admin"}}, e.c.text("login_param_empty")},
			{url.Values{"userName": {"admin"}, "password": {"bad"}}, e.c.text("login_param_invalid")},
			{url.Values{"userName": {"nobody"}, "password": {"123456"}}, e.c.text("login_param_invalid")},
		} {
			res, body := e.post("/auth/doLogin", "", tc.form)
			want := `{"code":500,"data":null,"msg":` + string(jackson(tc.want)) + `,"success":false}`
			if body != want || res.Header.Get("Content-Type") != "application/json" || len(res.Cookies()) != 0 {
				t.Errorf("%v: %s %s, want %s", tc.form, res.Header.Get("Content-Type"), body, want)
			}
		}
		res, body := e.post("/auth/doLogin", "", url.Values{"userName": {"admin"}, "password": {"123456"}, "ifRemember": {"on"}})
		if body != `{"code":200,"data":null,"msg":"Success","success":true}` {
			t.Fatalf("login answered %s", body)
		}
		ck := res.Cookies()[0]
		if ck.Name != "xxl_job_login_token" || ck.MaxAge != 2147483647 || !ck.HttpOnly || ck.Path != "/" {
			t.Errorf("cookie %+v", ck)
		}
		raw, err := base64.RawURLEncoding.DecodeString(ck.Value)
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			UserID     string `json:"userId"`
			ExpireTime int64  `json:"expireTime"`
			Signature  string `json:"signature"`
		}
		// Byte-compatible with the jar's cookie ({"userId":"1","expireTime":0,
		// "signature":<32 hex>}); the login time is in the signature, a
		// UUID version 7.
		if err := json.Unmarshal(raw, &p); err != nil || p.UserID != "1" || len(p.Signature) != 32 || p.Signature[12] != '7' ||
			!strings.HasPrefix(string(raw), `{"userId":"1","expireTime":0,"signature":"`) {
			t.Errorf("token %s (%v)", raw, err)
		}
		if at, ok := tokenTime(p.Signature); !ok || !at.Equal(*e.now) {
			t.Errorf("token time %v %v, want %v", at, ok, *e.now)
		}
		u, err := s.UserLoadByID(context.Background(), 1)
		if err != nil || u.Token == nil || *u.Token != p.Signature {
			t.Errorf("stored token %v, cookie's %s", u.Token, p.Signature)
		}
		// A second login replaces the token: the first cookie is logged out.
		second := e.login("admin", "123456")
		if _, body := e.post("/auth/updatePwd", ck.Value, nil); !strings.Contains(body, "not login for path:/auth/updatePwd") {
			t.Errorf("the first login still works after a second one: %s", body)
		}
		if _, body := e.post("/auth/updatePwd", second, nil); !strings.Contains(body, `"code":500`) || strings.Contains(body, "not login") {
			t.Errorf("the second login does not work: %s", body)
		}
	})
}

// TestAuth34JavaCookie: a cookie issued by a Java 3.4.2 admin on the same
// database (expireTime 0, the stored token) is a login here too; ours
// with an expiry in the past is not.
func TestAuth34JavaCookie(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		e := newEnv34(t, s, time.Hour)
		if _, err := s.UserUpdateToken(context.Background(), 1, "7dd116003e924ec58cb18210dc911dea"); err != nil {
			t.Fatal(err)
		}
		// The bytes the 3.4.2 jar set after logging admin in with that token.
		java := "eyJ1c2VySWQiOiIxIiwiZXhwaXJlVGltZSI6MCwic2lnbmF0dXJlIjoiN2RkMTE2MDAzZTkyNGVjNThjYjE4MjEwZGM5MTFkZWEifQ"
		if res, _ := e.get("/auth/login", java); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/" {
			t.Errorf("GET /auth/login with the Java cookie: %d %q", res.StatusCode, res.Header.Get("Location"))
		}
		ours := e.login("admin", "123456")
		*e.now = e.now.Add(time.Hour + time.Second)
		res, body := e.get("/auth/login", ours)
		if res.StatusCode != http.StatusOK || !strings.Contains(body, "login-form") || !strings.Contains(res.Header.Get("Set-Cookie"), "xxl_job_login_token=;") {
			t.Errorf("an expired login: %d %v %s", res.StatusCode, res.Header, body)
		}
	})
}

// TestAuth34NotLoggedIn: xxl-sso's interceptor answers a JSON route with
// Gson's {"code":500,"msg":"…XxlSsoException: not login for path:…"},
// ended by println's line break, and the charset content type (answer of
// the 3.4.2 jar to POST /jobinfo/pageList without a cookie); POST-only
// routes refuse GET with 405.
func TestAuth34NotLoggedIn(t *testing.T) {
	e := newEnv34(t, storetest.OpenGen(t, schema.Gen3, storetest.SQLiteURL(t, ""), "", ""), 0)
	res, body := e.post("/auth/updatePwd", "", nil)
	if want := `{"code":500,"msg":"com.xxl.sso.core.exception.XxlSsoException: not login for path:/auth/updatePwd"}` + "\n"; body != want ||
		res.Header.Get("Content-Type") != "application/json;charset=UTF-8" {
		t.Errorf("%s %s\nwant %s", res.Header.Get("Content-Type"), body, want)
	}
	res, _ = e.post("/auth/updatePwd", "garbage", nil)
	if !strings.Contains(res.Header.Get("Set-Cookie"), "xxl_job_login_token=;") {
		t.Errorf("an invalid cookie is not cleared: %v", res.Header)
	}
	res, body = e.get("/auth/doLogin", "")
	if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "POST" || !strings.Contains(body, "HTTP Status Code: 405") {
		t.Errorf("GET /auth/doLogin: %d %v %s", res.StatusCode, res.Header, body)
	}
}

// TestAuth34LogoutAndPassword: a logout stores "" (the cookie no longer
// logs in, wherever it is sent); a password change ends the user's other
// sessions and keeps this one with a new token; the old password is
// checked first.
func TestAuth34LogoutAndPassword(t *testing.T) {
	storetest.ForEach3(t, func(t *testing.T, s *schema.Store) {
		e := newEnv34(t, s, 0)
		if _, body := e.post("/auth/logout", "", nil); body != `{"code":200,"data":null,"msg":"Success","success":true}` {
			t.Errorf("logout without a cookie: %s", body)
		}
		ck := e.login("admin", "123456")
		res, body := e.post("/auth/logout", ck, nil)
		if body != `{"code":200,"data":null,"msg":"Success","success":true}` || !strings.Contains(res.Header.Get("Set-Cookie"), "xxl_job_login_token=;") {
			t.Errorf("logout: %v %s", res.Header, body)
		}
		if u, _ := s.UserLoadByID(context.Background(), 1); u.Token == nil || *u.Token != "" {
			t.Errorf("token after logout %v", u.Token)
		}
		if res, _ := e.get("/auth/login", ck); res.StatusCode != http.StatusOK {
			t.Errorf("the logged-out cookie still logs in: %d", res.StatusCode)
		}

		a := e.login("admin", "123456")
		if _, body := e.post("/auth/updatePwd", a, url.Values{"oldPassword": {"wrong"}, "password": {"654321"}}); !strings.Contains(body, e.c.text("change_pwd_field_oldpwd")) {
			t.Errorf("wrong old password: %s", body)
		}
		res, body = e.post("/auth/updatePwd", a, url.Values{"oldPassword": {"123456"}, "password": {" 654321 "}})
		if body != `{"code":200,"data":null,"msg":"Success","success":true}` {
			t.Fatalf("updatePwd: %s", body)
		}
		if u, _ := s.UserLoadByID(context.Background(), 1); u.Password != PasswordHash34("654321") {
			t.Errorf("stored hash %s", u.Password)
		}
		renewed := ""
		for _, c := range res.Cookies() {
			renewed, _ = url.QueryUnescape(c.Value)
		}
		if res, _ := e.get("/auth/login", a); res.StatusCode != http.StatusOK {
			t.Error("the session of the old password still logs in")
		}
		if res, _ := e.get("/auth/login", renewed); res.StatusCode != http.StatusSeeOther {
			t.Error("the session that changed the password was logged out")
		}
	})
}

// TestAuth34MD5Password: a user whose row still holds the 2.x MD5 hash
// (the 3.2.0 re-hash step not run) gets, with the right password, a
// message naming the statement that fixes it — not a silent refusal —
// and with a wrong one the usual refusal.
func TestAuth34MD5Password(t *testing.T) {
	s := storetest.OpenGen(t, schema.Gen3, storetest.SQLiteURL(t, ""), "", "")
	if _, err := s.UserUpdate(context.Background(), schema.User{ID: 1, Password: PasswordHash("123456"), Role: 1}); err != nil {
		t.Fatal(err)
	}
	e := newEnv34(t, s, 0)
	_, body := e.post("/auth/doLogin", "", url.Values{"userName": {"admin"}, "password": {"123456"}})
	if !strings.Contains(body, "UPDATE xxl_job_user SET password = '"+PasswordHash34("123456")+"' WHERE username = 'admin'") {
		t.Errorf("MD5 row, right password: %s", body)
	}
	if _, body := e.post("/auth/doLogin", "", url.Values{"userName": {"admin"}, "password": {"x"}}); strings.Contains(body, "MD5") {
		t.Errorf("MD5 row, wrong password: %s", body)
	}
}

// TestAuth34RedirectAbsolute: a page asked for without a login is sent to
// the login page with an absolute Location, as Tomcat's sendRedirect
// writes it (recordings java-admin-3.4.2, not_logged_in), on the scheme
// and host a proxy names in X-Forwarded-Proto / -Host.
func TestAuth34RedirectAbsolute(t *testing.T) {
	e := newEnv34(t, storetest.OpenGen(t, schema.Gen3, storetest.SQLiteURL(t, ""), "", ""), 0)
	res, _ := e.get("/", "")
	host := strings.TrimPrefix(e.srv.URL, "http://")
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "http://"+host+"/auth/login" {
		t.Errorf("%d %q", res.StatusCode, res.Header.Get("Location"))
	}
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/", nil)
	req.Header.Set("X-Forwarded-Proto", "https")
	req.Header.Set("X-Forwarded-Host", "jobs.example.com")
	if res, _ := e.do(req, ""); res.Header.Get("Location") != "https://jobs.example.com/auth/login" {
		t.Errorf("behind a proxy: %q", res.Header.Get("Location"))
	}
}
