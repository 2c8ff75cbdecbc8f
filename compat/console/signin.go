package console

import (
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/signin"
)

// SigninConfig switches the company sign-in on (core/signin): an LDAP
// directory behind the password form, an OpenID Connect provider behind a
// "Sign in with …" button, or both. Nil in Config: the console is exactly
// the Java one.
type SigninConfig struct {
	LDAP        *signin.Directory // nil: the password form checks local users only
	LDAPMapping signin.Mapping
	OIDC        *signin.OIDC // nil: no sign-in button
	OIDCMapping signin.Mapping
	OIDCName    string // the button's "Sign in with …"
	// RedirectURL is the callback URL registered at the provider; empty:
	// built from the request (the provider checks it against its list).
	RedirectURL string
	// PasswordLogin keeps the password form; without it only the
	// BreakGlassUser logs in by password (login page with ?local=1).
	PasswordLogin  bool
	BreakGlassUser string
	// SessionTimeout ends the session of a signed-in user (a row sign-in
	// made) this long after the sign-in; 0: the console's usual limits.
	SessionTimeout time.Duration
}

// LoginData is the login page's model when sign-in is on (nil otherwise,
// so the page is the Java admin's).
type LoginData struct {
	OIDCName  string `json:"oidcName,omitempty"`
	OIDCURL   string `json:"oidcUrl,omitempty"`
	Password  bool   `json:"password"`            // show the password form
	LocalURL  string `json:"localUrl,omitempty"`  // the break-glass form's address when the form is hidden
	MaxLength int    `json:"maxLength,omitempty"` // directory passwords may be longer than the Java form's 20
}

// The sign-in routes, under our own first path segment on both consoles
// (see exportPath34): no Java controller has them.
const (
	oidcStartPath    = "/xxl-admin-go/signin/oidc"
	oidcCallbackPath = "/xxl-admin-go/signin/oidc/callback"
	flowCookie       = "XXL_SIGNIN_FLOW"
	endCookie        = "XXL_SIGNIN_END"
)

// signinRoutes adds the sign-in routes to a route table and points the
// login routes of the generation at the sign-in aware handlers.
func (c *Console) signinRoutes(table map[string]endpoint) {
	if c.signin == nil {
		return
	}
	if c.signin.OIDC != nil {
		// Plain GETs, not marked writes: the callback arrives from the
		// provider's site by design; the sealed flow and its state are
		// what tie it to the browser that started the sign-in.
		table[oidcStartPath] = endpoint{access: anyone, page: true, serve: (*Console).oidcStart}
		table[oidcCallbackPath] = endpoint{access: anyone, page: true, serve: (*Console).oidcCallback}
	}
}

// loginData is the login page's model.
func (c *Console) loginData(x *exchange) *LoginData {
	if c.signin == nil {
		return nil
	}
	d := &LoginData{Password: c.signin.PasswordLogin || x.r.URL.Query().Get("local") == "1"}
	if c.signin.LDAP != nil {
		d.MaxLength = 128
	}
	if c.signin.OIDC != nil {
		d.OIDCName, d.OIDCURL = c.signin.OIDCName, c.cfg.ContextPath+oidcStartPath
	}
	if !d.Password {
		d.LocalURL = x.r.URL.Path + "?local=1"
	}
	return d
}

// startSession logs u in with the console's own session of the
// generation: the signed cookie (2.x) or a fresh token (3.x).
func (c *Console) startSession(x *exchange, u schema.User, remember bool) error {
	if !c.gen3 {
		c.sessions.setLoginCookie(x.w, c.sessions.issue(u), remember)
		return nil
	}
	value, err := c.tokens.login(x.ctx, u)
	if err != nil {
		return err
	}
	c.tokens.setCookie(x.w, value, remember)
	return nil
}

// signedInLimit tells whether the session of u, made at issued, is past
// the sign-in session timeout (rows made by sign-in only).
func signedInLimit(u schema.User, issued time.Time, now time.Time, timeout time.Duration) bool {
	return timeout > 0 && signin.MarkerSource(u.Password) != "" && now.Sub(issued) > timeout
}
