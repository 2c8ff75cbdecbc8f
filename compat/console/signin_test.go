package console

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/i18n"
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/signin"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/oidcop"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/static"
)

// signinEnv is a console of one generation, with the real templates,
// signing in through a test OpenID provider (and the test slapd when
// XXL_TEST_LDAP is set).
type signinEnv struct {
	t     *testing.T
	gen3  bool
	store *schema.Store
	srv   *httptest.Server
	op    *oidcop.Provider
	skew  atomic.Int64 // added to the console's clock

	console *Console
}

var opUsers = map[string]oidcop.User{
	"alice": {Password: "alice-op", Claims: map[string]any{"preferred_username": "alice", "groups": []string{"xxl-admins", "team-a"}}},
	"bob":   {Password: "bob-op", Claims: map[string]any{"preferred_username": "bob", "groups": "team-b"}},
	"admin": {Password: "admin-op", Claims: map[string]any{"preferred_username": "admin", "groups": []string{"xxl-admins"}}},
	"dave":  {Password: "dave-op", Claims: map[string]any{"preferred_username": "dave"}},
	// No user name claim, neither in the ID token nor at userinfo.
	"nameless": {Password: "nameless-op", Claims: map[string]any{"email": "x@example.com"}},
}

func newSigninEnv(t *testing.T, gen3 bool, edit func(*SigninConfig)) *signinEnv {
	t.Helper()
	e := &signinEnv{t: t, gen3: gen3, op: oidcop.Start(t, opUsers)}
	gen, texts := 2, i18n.Load("en")
	if gen3 {
		gen, texts = 3, i18n.LoadFor(3, "en")
		e.store = storetest.OpenGen(t, schema.Gen3, storetest.SQLiteURL(t, ""), "", "")
	} else {
		e.store = storetest.SQLite(t)
	}
	o, err := signin.NewOIDC(signin.OIDCConfig{Issuer: e.op.Issuer, ClientID: e.op.ClientID, ClientSecret: e.op.ClientSecret,
		Scopes: []string{"openid", "profile"}, AdminValues: []string{"xxl-admins"}})
	if err != nil {
		t.Fatal(err)
	}
	sc := &SigninConfig{OIDC: o, OIDCName: "Test IdP", PasswordLogin: true, SessionTimeout: time.Hour,
		OIDCMapping: signin.Mapping{Permissions: map[string][]int{"team-a": {1}, "team-b": {2, 1}}}}
	if url := os.Getenv("XXL_TEST_LDAP"); url != "" {
		sc.LDAP, err = signin.NewDirectory(signin.LDAPConfig{URL: url, BindDN: "cn=reader,dc=example,dc=org",
			BindPassword: "reader-secret", BaseDN: "ou=people,dc=example,dc=org", UserFilter: "(uid={0})",
			GroupFilter: "(member={0})", GroupBaseDN: "ou=groups,dc=example,dc=org", Timeout: 3 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		sc.LDAPMapping = signin.Mapping{AdminGroups: []string{"xxl-admins"}, Permissions: map[string][]int{"team-b": {2}}}
	}
	if edit != nil {
		edit(sc)
	}
	c, err := New(Config{Store: e.store, Jobs: jobs.New(jobs.Config{Store: e.store, Texts: texts, Loc: time.UTC, Now: time.Now}),
		Trigger: &submits{}, Executor: &fakeExecutor{}, Results: overwriter{e.store}, Texts: texts, Files: static.Files(),
		ContextPath: ctxPath, Secret: []byte("0123456789abcdef0123456789abcdef"), Generation: gen, Signin: sc,
		Loc: time.UTC, Now: func() time.Time { return time.Now().Add(time.Duration(e.skew.Load())) }, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	e.console = c
	e.srv = httptest.NewServer(c.Handler())
	t.Cleanup(e.srv.Close)
	e.op.AllowRedirect(e.srv.URL + ctxPath + oidcCallbackPath)
	return e
}

// browser is a cookie jar that does not follow redirects.
func (e *signinEnv) browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func (e *signinEnv) do(c *http.Client, method, u string, form url.Values) (*http.Response, string) {
	e.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, u, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// toProvider starts a sign-in and logs in at the provider's page; it
// returns the callback URL the provider sends the browser to.
func (e *signinEnv) toProvider(c *http.Client, user, password string) string {
	e.t.Helper()
	resp, body := e.do(c, http.MethodGet, e.srv.URL+ctxPath+oidcStartPath, nil)
	if resp.StatusCode != http.StatusFound {
		e.t.Fatalf("start: %d %s", resp.StatusCode, body)
	}
	auth, _ := url.Parse(resp.Header.Get("Location"))
	if resp, body := e.do(c, http.MethodGet, auth.String(), nil); resp.StatusCode != http.StatusOK || !strings.Contains(body, "Test provider sign-in") {
		e.t.Fatalf("provider page: %d %s", resp.StatusCode, body)
	}
	form := auth.Query()
	form.Set("username", user)
	form.Set("password", password)
	resp, body = e.do(c, http.MethodPost, e.op.Issuer+"/login", form)
	if resp.StatusCode != http.StatusFound {
		e.t.Fatalf("provider login: %d %s", resp.StatusCode, body)
	}
	return resp.Header.Get("Location")
}

// signIn runs the whole code flow and fails unless it logs in.
func (e *signinEnv) signIn(c *http.Client, user, password string) {
	e.t.Helper()
	resp, body := e.do(c, http.MethodGet, e.toProvider(c, user, password), nil)
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != ctxPath+"/" {
		e.t.Fatalf("callback: %d %s %s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	if !e.loggedIn(c) {
		e.t.Fatal("not logged in after the callback")
	}
}

func (e *signinEnv) loggedIn(c *http.Client) bool {
	e.t.Helper()
	resp, _ := e.do(c, http.MethodGet, e.srv.URL+ctxPath+"/", nil)
	return resp.StatusCode == http.StatusOK
}

// refused checks a refusal page and that xxl_job_user kept its rows.
func (e *signinEnv) refused(t *testing.T, resp *http.Response, body, want string, users int) {
	t.Helper()
	if resp.StatusCode < 400 || !strings.Contains(body, want) {
		t.Fatalf("want a refusal page with %q, got %d %s", want, resp.StatusCode, body)
	}
	if n := e.users(); n != users {
		t.Fatalf("xxl_job_user has %d rows, want %d", n, users)
	}
}

func (e *signinEnv) users() int {
	_, n, err := e.store.UserPageList(context.Background(), 0, 100, schema.UserFilter{})
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

func (e *signinEnv) user(name string) schema.User {
	e.t.Helper()
	u, err := e.store.UserLoadByName(context.Background(), name)
	if err != nil {
		e.t.Fatal(err)
	}
	return u
}

// loginPath and passwordPath are the generation's login page and form.
func (e *signinEnv) loginPath() string {
	if e.gen3 {
		return "/auth/login"
	}
	return "/toLogin"
}

func (e *signinEnv) password(c *http.Client, user, password string) (code float64, msg string) {
	e.t.Helper()
	path := "/login"
	if e.gen3 {
		path = "/auth/doLogin"
	}
	_, body := e.do(c, http.MethodPost, e.srv.URL+ctxPath+path, url.Values{"userName": {user}, "password": {password}})
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		e.t.Fatalf("password login: %s", body)
	}
	msg, _ = m["msg"].(string)
	return m["code"].(float64), msg
}

func bothConsoles(t *testing.T, fn func(t *testing.T, gen3 bool)) {
	t.Run("2.4", func(t *testing.T) { fn(t, false) })
	t.Run("3.4", func(t *testing.T) { fn(t, true) })
}

func schemaUser(name, hash string) schema.User {
	empty := ""
	return schema.User{Username: name, Password: hash, Permission: &empty}
}
