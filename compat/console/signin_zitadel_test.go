package console

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/xxl-admin-go/xxl-admin-go/core/signin"
)

// zitadelOP starts the example server of github.com/zitadel/oidc (an
// OpenID Certified provider library) with one web client whose redirect
// URI is the console's callback. Its users are "test-user@127.0.0.1" and
// "test-user2", password "verysecure".
func zitadelOP(t *testing.T, clientID, secret string, redirect func() string) string {
	t.Helper()
	var h atomic.Pointer[http.Handler]
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*h.Load()).ServeHTTP(w, r) }))
	srv.Start()
	t.Cleanup(srv.Close)
	issuer := srv.URL
	clients := map[string]*storage.Client{clientID: storage.WebClient(clientID, secret, redirect())}
	router := http.Handler(exampleop.SetupServer(issuer, storage.NewStorageWithClients(storage.NewUserStore(issuer), clients), nil, false,
		op.WithAllowInsecure()))
	h.Store(&router)
	return issuer
}

// TestOIDCSignInZitadel runs the code flow on both consoles against the
// zitadel provider: its discovery, its login page (the form posted as a
// browser would), its PKCE and code checks, its signed ID token and its
// userinfo endpoint (its ID tokens carry no profile claims).
func TestOIDCSignInZitadel(t *testing.T) {
	bothConsoles(t, func(t *testing.T, gen3 bool) {
		e := newSigninEnv(t, gen3, nil)
		issuer, redirect := e.useZitadel()
		n := e.users()
		b := e.browser()
		resp, body := e.do(b, http.MethodGet, e.srv.URL+ctxPath+oidcStartPath, nil)
		if resp.StatusCode != http.StatusFound || !strings.HasPrefix(resp.Header.Get("Location"), issuer) {
			t.Fatalf("start: %d %s", resp.StatusCode, body)
		}
		// The provider sends the browser to its login page with the id of
		// the authorization request.
		loc := resp.Header.Get("Location")
		for range 5 {
			resp, body = e.do(b, http.MethodGet, absolute(issuer, loc), nil)
			if resp.StatusCode != http.StatusFound {
				break
			}
			loc = resp.Header.Get("Location")
		}
		if !strings.Contains(body, `name="password"`) {
			t.Fatalf("no login page at %s: %d %s", loc, resp.StatusCode, body)
		}
		page, _ := url.Parse(absolute(issuer, loc))
		form := url.Values{"id": {page.Query().Get("authRequestID")}, "username": {"test-user2"}, "password": {"verysecure"}}
		resp, body = e.do(b, http.MethodPost, issuer+"/login/username", form)
		for resp.StatusCode == http.StatusFound && !strings.HasPrefix(resp.Header.Get("Location"), redirect) {
			resp, body = e.do(b, http.MethodGet, absolute(issuer, resp.Header.Get("Location")), nil)
		}
		if resp.StatusCode != http.StatusFound {
			t.Fatalf("provider login: %d %s", resp.StatusCode, body)
		}
		callback := resp.Header.Get("Location")
		resp, body = e.do(b, http.MethodGet, callback, nil)
		if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != ctxPath+"/" {
			t.Fatalf("callback: %d %s", resp.StatusCode, body)
		}
		if !e.loggedIn(b) {
			t.Fatal("not logged in")
		}
		if u := e.user("test-user2"); u.Role != 0 || signin.MarkerSource(u.Password) != "oidc" || e.users() != n+1 {
			t.Fatalf("row: %+v", u)
		}
		// The provider spends a code once: the same callback in a new
		// sign-in (its state and cookie) is refused by the provider.
		c := e.browser()
		start, _ := e.do(c, http.MethodGet, e.srv.URL+ctxPath+oidcStartPath, nil)
		st, _ := url.Parse(start.Header.Get("Location"))
		resp, body = e.do(c, http.MethodGet, withQuery(t, callback, "state", st.Query().Get("state")), nil)
		e.refused(t, resp, body, "refused the code", n+1)
	})
}

// useZitadel points the console's sign-in at a zitadel provider of its
// own; it returns the issuer and the console's callback URL.
func (e *signinEnv) useZitadel() (issuer, redirect string) {
	e.t.Helper()
	redirect = e.srv.URL + ctxPath + oidcCallbackPath
	issuer = zitadelOP(e.t, "xxl-web", "web-secret", func() string { return redirect })
	o, err := signin.NewOIDC(signin.OIDCConfig{Issuer: issuer, ClientID: "xxl-web", ClientSecret: "web-secret",
		Scopes: []string{"openid", "profile", "email"}})
	if err != nil {
		e.t.Fatal(err)
	}
	e.console.signin.OIDC = o // before the first request
	return issuer, redirect
}

func absolute(base, loc string) string {
	if strings.HasPrefix(loc, "/") {
		return base + loc
	}
	return loc
}
