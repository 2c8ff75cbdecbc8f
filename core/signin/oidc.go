package signin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// ErrRefused is a sign-in the provider's answer does not prove: a bad or
// expired ID token, a wrong nonce, a code the provider refused. Its
// wrapped text says which, for the log and the page.
var ErrRefused = errors.New("sign-in refused")

// OIDCConfig is xxl.job.console.oidc.*.
type OIDCConfig struct {
	Issuer        string
	ClientID      string
	ClientSecret  string
	Scopes        []string
	UsernameClaim string // default preferred_username
	GroupClaim    string // default groups
	AdminClaim    string // default GroupClaim
	AdminValues   []string
	HTTPClient    *http.Client // for discovery, keys and the token call; nil: one with a 10 s timeout
}

// OIDC signs people in with an OpenID Connect provider: authorization
// code flow with PKCE, state and nonce; the ID token is verified by
// go-oidc against the provider's published keys (fetched again when a
// token names a key it has not seen: key rotation).
type OIDC struct {
	cfg OIDCConfig

	mu       sync.Mutex // guards the discovery below, done at first use
	provider *oidc.Provider
	verifier *oidc.IDTokenVerifier
	endpoint struct {
		EndSession string `json:"end_session_endpoint"`
	}
}

// NewOIDC checks cfg. Discovery waits for the first sign-in, so an admin
// starts (and schedules) while the provider is down.
func NewOIDC(cfg OIDCConfig) (*OIDC, error) {
	if cfg.Issuer == "" || cfg.ClientID == "" {
		return nil, fmt.Errorf("oidc: issuer and client-id are required")
	}
	if cfg.UsernameClaim == "" {
		cfg.UsernameClaim = "preferred_username"
	}
	if cfg.GroupClaim == "" {
		cfg.GroupClaim = "groups"
	}
	if cfg.AdminClaim == "" {
		cfg.AdminClaim = cfg.GroupClaim
	}
	if cfg.HTTPClient == nil {
		// A provider that never answers must not hold sign-ins (and the
		// discovery lock) forever.
		cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	if !slices.Contains(cfg.Scopes, oidc.ScopeOpenID) {
		cfg.Scopes = append([]string{oidc.ScopeOpenID}, cfg.Scopes...)
	}
	return &OIDC{cfg: cfg}, nil
}

func (o *OIDC) ctx(ctx context.Context) context.Context {
	return oidc.ClientContext(ctx, o.cfg.HTTPClient)
}

// discover reads the provider's metadata once it answers.
func (o *OIDC) discover(ctx context.Context) (*oidc.Provider, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.provider != nil {
		return o.provider, nil
	}
	// The key set outlives this request: its context must not end with it.
	p, err := oidc.NewProvider(o.ctx(context.WithoutCancel(ctx)), o.cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("oidc discovery at %s: %w", o.cfg.Issuer, err)
	}
	if err := p.Claims(&o.endpoint); err != nil {
		return nil, fmt.Errorf("oidc discovery at %s: %w", o.cfg.Issuer, err)
	}
	o.provider = p
	o.verifier = p.Verifier(&oidc.Config{ClientID: o.cfg.ClientID})
	return p, nil
}

func (o *OIDC) oauth(p *oidc.Provider, redirectURL string) *oauth2.Config {
	return &oauth2.Config{ClientID: o.cfg.ClientID, ClientSecret: o.cfg.ClientSecret, Endpoint: p.Endpoint(),
		RedirectURL: redirectURL, Scopes: o.cfg.Scopes}
}

// Start begins a sign-in: the flow to keep in the browser (sealed) and the
// provider's authorization URL to send it to.
func (o *OIDC) Start(ctx context.Context, redirectURL, returnTo string) (Flow, string, error) {
	p, err := o.discover(ctx)
	if err != nil {
		return Flow{}, "", err
	}
	f := Flow{State: randomText(), Nonce: randomText(), Verifier: oauth2.GenerateVerifier(), Return: returnTo}
	u := o.oauth(p, redirectURL).AuthCodeURL(f.State, oidc.Nonce(f.Nonce), oauth2.S256ChallengeOption(f.Verifier))
	return f, u, nil
}

// Finish exchanges the code of a callback for the ID token and reads the
// identity from it. The caller has checked the state against f.
func (o *OIDC) Finish(ctx context.Context, redirectURL, code string, f Flow) (Identity, error) {
	p, err := o.discover(ctx)
	if err != nil {
		return Identity{}, err
	}
	tok, err := o.oauth(p, redirectURL).Exchange(o.ctx(ctx), code, oauth2.VerifierOption(f.Verifier))
	if err != nil {
		return Identity{}, fmt.Errorf("%w: the provider refused the code: %v", ErrRefused, err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return Identity{}, fmt.Errorf("%w: the provider sent no ID token", ErrRefused)
	}
	idt, err := o.verifier.Verify(o.ctx(ctx), raw)
	if err != nil {
		return Identity{}, fmt.Errorf("%w: ID token: %v", ErrRefused, err)
	}
	if idt.Nonce == "" || !equalSecret(idt.Nonce, f.Nonce) {
		return Identity{}, fmt.Errorf("%w: the ID token's nonce is not this sign-in's", ErrRefused)
	}
	var claims map[string]any
	if err := idt.Claims(&claims); err != nil {
		return Identity{}, fmt.Errorf("%w: ID token claims: %v", ErrRefused, err)
	}
	if _, ok := claims[o.cfg.UsernameClaim]; !ok {
		// A thin ID token (Okta's and others' code flow): the profile is at
		// the userinfo endpoint, read with the access token just issued.
		if err := o.mergeUserInfo(ctx, p, tok, idt.Subject, claims); err != nil {
			return Identity{}, err
		}
	}
	name, _ := claims[o.cfg.UsernameClaim].(string)
	if verified, ok := claims["email_verified"].(bool); o.cfg.UsernameClaim == "email" && ok && !verified {
		// Whoever types an address into a self-service profile does not own it.
		return Identity{}, fmt.Errorf("%w: the e-mail address is not verified", ErrRefused)
	}
	id := Identity{Source: "oidc", Username: name, Groups: stringsOf(claims[o.cfg.GroupClaim])}
	for _, v := range stringsOf(claims[o.cfg.AdminClaim]) {
		if slices.Contains(o.cfg.AdminValues, v) {
			id.Admin = true
		}
	}
	return id, nil
}

// mergeUserInfo adds the userinfo endpoint's claims the ID token lacks.
// The answer must be about the ID token's subject (OIDC Core §5.3.2).
func (o *OIDC) mergeUserInfo(ctx context.Context, p *oidc.Provider, tok *oauth2.Token, subject string, claims map[string]any) error {
	if p.UserInfoEndpoint() == "" {
		return nil
	}
	info, err := p.UserInfo(o.ctx(ctx), oauth2.StaticTokenSource(tok))
	if err != nil {
		return fmt.Errorf("%w: userinfo: %v", ErrRefused, err)
	}
	if info.Subject != subject {
		return fmt.Errorf("%w: the userinfo answer is about another subject", ErrRefused)
	}
	var extra map[string]any
	if err := info.Claims(&extra); err != nil {
		return fmt.Errorf("%w: userinfo claims: %v", ErrRefused, err)
	}
	for k, v := range extra {
		if _, ok := claims[k]; !ok {
			claims[k] = v
		}
	}
	return nil
}

// EndSessionURL is the provider's RP-initiated logout URL, returning to
// postLogout; "" when the provider offers none.
func (o *OIDC) EndSessionURL(ctx context.Context, postLogout string) string {
	if _, err := o.discover(ctx); err != nil || o.endpoint.EndSession == "" {
		return ""
	}
	u, err := url.Parse(o.endpoint.EndSession)
	if err != nil {
		return ""
	}
	q := u.Query()
	q.Set("client_id", o.cfg.ClientID)
	q.Set("post_logout_redirect_uri", postLogout)
	u.RawQuery = q.Encode()
	return u.String()
}

// stringsOf reads a claim that is a string or a list of strings.
func stringsOf(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
