// Package oidcop is an OpenID provider for tests: discovery, an
// authorization endpoint with its own login page, a token endpoint that
// checks PKCE and spends each code once, RS256 ID tokens from keys that
// can be rotated, and an end-session endpoint. Hooks forge what an
// attacker would send: tampered claims, a key the provider never
// published.
package oidcop

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// User is a person the provider knows.
type User struct {
	Password string
	Claims   map[string]any // added to the ID token (preferred_username, groups, ...)
}

type key struct {
	id   string
	priv *rsa.PrivateKey
}

type grant struct {
	clientID, redirect, nonce, challenge, user string
	used                                       bool
}

// Provider is a running test provider.
type Provider struct {
	Issuer       string
	ClientID     string
	ClientSecret string

	srv *httptest.Server

	mu          sync.Mutex
	redirects   []string
	users       map[string]User
	keys        []key // published; the last one signs
	codes       map[string]*grant
	tamper      func(claims map[string]any)
	forgeKey    *rsa.PrivateKey
	endSessions []url.Values
	access      map[string]string // access token → user
	thin        bool              // profile claims at userinfo only
	infoSubject string            // userinfo's sub when set (an answer about someone else)
}

// Start runs a provider with one client and the given users until the
// test ends.
func Start(t interface {
	Helper()
	Cleanup(func())
	Fatal(...any)
}, users map[string]User) *Provider {
	t.Helper()
	p := &Provider{ClientID: "xxl-admin", ClientSecret: "client-secret-0123456789", users: users, codes: map[string]*grant{}, access: map[string]string{}}
	p.Rotate(false)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", p.discovery)
	mux.HandleFunc("GET /keys", p.jwks)
	mux.HandleFunc("GET /authorize", p.authorize)
	mux.HandleFunc("POST /login", p.login)
	mux.HandleFunc("POST /token", p.token)
	mux.HandleFunc("GET /end_session", p.endSession)
	mux.HandleFunc("GET /userinfo", p.userinfo)
	p.srv = httptest.NewServer(mux)
	p.Issuer = p.srv.URL
	t.Cleanup(p.srv.Close)
	return p
}

// AllowRedirect registers a client redirect URI.
func (p *Provider) AllowRedirect(u string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.redirects = append(p.redirects, u)
}

// Rotate publishes a new signing key; dropOld unpublishes the others.
func (p *Provider) Rotate(dropOld bool) {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if dropOld {
		p.keys = nil
	}
	p.keys = append(p.keys, key{id: fmt.Sprintf("k%d", time.Now().UnixNano()), priv: priv})
}

// Tamper changes the claims of the ID tokens issued from now on (nil: none).
func (p *Provider) Tamper(f func(claims map[string]any)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tamper = f
}

// Forge signs the ID tokens from now on with a key never published (false: the real key).
func (p *Provider) Forge(on bool) {
	var k *rsa.PrivateKey
	if on {
		var err error
		if k, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic(err)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.forgeKey = k
}

// Thin issues ID tokens without the users' claims, which userinfo then
// answers; subject, when not empty, is the sub userinfo claims.
func (p *Provider) Thin(on bool, subject string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.thin, p.infoSubject = on, subject
}

// EndSessions are the queries of the end-session requests received.
func (p *Provider) EndSessions() []url.Values {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.endSessions)
}

func (p *Provider) discovery(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer": p.Issuer, "authorization_endpoint": p.Issuer + "/authorize", "token_endpoint": p.Issuer + "/token",
		"jwks_uri": p.Issuer + "/keys", "userinfo_endpoint": p.Issuer + "/userinfo", "end_session_endpoint": p.Issuer + "/end_session",
		"response_types_supported": []string{"code"}, "subject_types_supported": []string{"public"},
		"id_token_signing_alg_values_supported": []string{"RS256"}, "code_challenge_methods_supported": []string{"S256"},
	})
}

func (p *Provider) jwks(w http.ResponseWriter, _ *http.Request) {
	p.mu.Lock()
	var set jose.JSONWebKeySet
	for _, k := range p.keys {
		set.Keys = append(set.Keys, jose.JSONWebKey{Key: &k.priv.PublicKey, KeyID: k.id, Algorithm: "RS256", Use: "sig"})
	}
	p.mu.Unlock()
	writeJSON(w, http.StatusOK, set)
}

var loginPage = template.Must(template.New("login").Parse(`<!doctype html><html><head><title>Test provider</title></head>
<body><h1>Test provider sign-in</h1><form method="post" action="/login">{{range $k, $v := .}}
<input type="hidden" name="{{$k}}" value="{{index $v 0}}">{{end}}
<label>User <input id="username" name="username"></label><label>Password <input id="password" type="password" name="password"></label>
<button id="submit" type="submit">Sign in</button></form></body></html>`))

// authorize checks the request and shows the login page.
func (p *Provider) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if err := p.checkAuthorize(q); err != "" {
		http.Error(w, err, http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = loginPage.Execute(w, q)
}

func (p *Provider) checkAuthorize(q url.Values) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case q.Get("client_id") != p.ClientID:
		return "unknown client"
	case !slices.Contains(p.redirects, q.Get("redirect_uri")):
		return "redirect_uri not registered"
	case q.Get("response_type") != "code":
		return "response_type must be code"
	case q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256":
		return "PKCE S256 required"
	}
	return ""
}

// login checks the user's password and sends the browser back with a code.
func (p *Provider) login(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	f := r.PostForm
	if err := p.checkAuthorize(f); err != "" {
		http.Error(w, err, http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	u, ok := p.users[f.Get("username")]
	if !ok || u.Password != f.Get("password") {
		p.mu.Unlock()
		http.Error(w, "wrong user name or password", http.StatusUnauthorized)
		return
	}
	code := random()
	p.codes[code] = &grant{clientID: f.Get("client_id"), redirect: f.Get("redirect_uri"), nonce: f.Get("nonce"),
		challenge: f.Get("code_challenge"), user: f.Get("username")}
	p.mu.Unlock()
	back, _ := url.Parse(f.Get("redirect_uri"))
	bq := back.Query()
	bq.Set("code", code)
	bq.Set("state", f.Get("state"))
	back.RawQuery = bq.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// token exchanges a code, once, for an ID token.
func (p *Provider) token(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if id != p.ClientID || secret != p.ClientSecret {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	g := p.codes[r.PostForm.Get("code")]
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	switch {
	case g == nil || g.used:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "unknown or used code"})
		return
	case g.redirect != r.PostForm.Get("redirect_uri") || g.clientID != id:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "redirect_uri mismatch"})
		return
	case base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
		g.used = true
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "PKCE verifier mismatch"})
		return
	}
	g.used = true
	now := time.Now()
	claims := map[string]any{"iss": p.Issuer, "sub": "sub-" + g.user, "aud": p.ClientID, "iat": now.Unix(),
		"exp": now.Add(5 * time.Minute).Unix(), "nonce": g.nonce}
	if !p.thin {
		for k, v := range p.users[g.user].Claims {
			claims[k] = v
		}
	}
	if p.tamper != nil {
		p.tamper(claims)
	}
	k := p.keys[len(p.keys)-1]
	if p.forgeKey != nil {
		k = key{id: k.id, priv: p.forgeKey} // the published key's id, another key
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: k.priv, KeyID: k.id}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	payload, _ := json.Marshal(claims)
	jws, err := signer.Sign(payload)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	raw, _ := jws.CompactSerialize()
	at := random()
	p.access[at] = g.user
	writeJSON(w, http.StatusOK, map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": 300, "id_token": raw})
}

func (p *Provider) userinfo(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	user, ok := p.access[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
	if !ok {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token"})
		return
	}
	claims := map[string]any{"sub": "sub-" + user}
	if p.infoSubject != "" {
		claims["sub"] = p.infoSubject
	}
	for k, v := range p.users[user].Claims {
		claims[k] = v
	}
	writeJSON(w, http.StatusOK, claims)
}

func (p *Provider) endSession(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p.mu.Lock()
	p.endSessions = append(p.endSessions, q)
	p.mu.Unlock()
	if back := q.Get("post_logout_redirect_uri"); back != "" {
		http.Redirect(w, r, back, http.StatusFound)
		return
	}
	_, _ = w.Write([]byte("signed out"))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func random() string {
	b := make([]byte, 18)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
