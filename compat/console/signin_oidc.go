package console

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/core/signin"
)

// oidcStart sends the browser to the provider with a fresh state, nonce
// and PKCE verifier, kept sealed in a cookie for the callback.
func (c *Console) oidcStart(x *exchange) error {
	ret := x.r.URL.Query().Get("return")
	if ret != "" && !localPath(ret) {
		c.log.Warn().Str("return", clip(ret, 200)).Str("address", clientAddress(x.r)).Msg("sign-in refused: return address leaves the console")
		c.signinError(x, http.StatusBadRequest, "Sign-in refused: the return address must be a page of this console.")
		return nil
	}
	f, authURL, err := c.signin.OIDC.Start(x.ctx, c.redirectURL(x.r), ret)
	if err != nil {
		c.log.Error().Err(err).Msg("OIDC sign-in cannot start")
		c.signinError(x, http.StatusBadGateway, "The identity provider cannot be reached; try again later. Local users can still log in.")
		return nil
	}
	http.SetCookie(x.w, c.flowCookie(x.r, c.sealer.Seal(f), int(flowCookieAge.Seconds())))
	x.w.Header().Set("Location", authURL)
	x.w.Header().Set("Cache-Control", "no-store")
	x.w.WriteHeader(http.StatusFound)
	return nil
}

// oidcCallback finishes a sign-in: the sealed flow must be there and its
// state match; the code is exchanged once (the flow cookie is cleared
// first), the ID token verified, its nonce checked; then the row is
// provisioned and our session starts. Any failure shows a page and
// writes nothing.
func (c *Console) oidcCallback(x *exchange) error {
	http.SetCookie(x.w, c.flowCookie(x.r, "", -1))
	q := x.r.URL.Query()
	refuse := func(msg string, err error) error {
		c.log.Warn().Err(err).Str("address", clientAddress(x.r)).Msg("OIDC sign-in refused: " + msg)
		c.signinError(x, http.StatusForbidden, "Sign-in refused: "+msg)
		return nil
	}
	ck, err := x.r.Cookie(flowCookie)
	if err != nil {
		return refuse(signin.ErrNoFlow.Error(), err)
	}
	f, err := c.sealer.Open(ck.Value)
	if err != nil {
		return refuse(err.Error(), err)
	}
	if !f.CheckState(q.Get("state")) {
		return refuse("the answer's state is not this sign-in's.", nil)
	}
	if e := q.Get("error"); e != "" {
		return refuse("the identity provider answered "+clip(e, 100)+": "+clip(q.Get("error_description"), 300), nil)
	}
	id, err := c.signin.OIDC.Finish(x.ctx, c.redirectURL(x.r), q.Get("code"), f)
	if errors.Is(err, signin.ErrRefused) {
		return refuse(strings.TrimPrefix(err.Error(), signin.ErrRefused.Error()+": ")+".", err)
	}
	if err != nil {
		c.log.Error().Err(err).Msg("OIDC sign-in failed")
		c.signinError(x, http.StatusBadGateway, "The identity provider cannot be reached; try again later. Local users can still log in.")
		return nil
	}
	u, err := c.provisioner.Provision(x.ctx, id, c.signin.OIDCMapping)
	if msg := provisionRefusal(err); msg != "" {
		return refuse(strings.TrimPrefix(msg, "Sign-in refused: "), err)
	}
	if err != nil {
		return err
	}
	if err := c.startSession(x, u, false); err != nil {
		return err
	}
	c.log.Info().Str("username", u.Username).Str("address", clientAddress(x.r)).Msg("OIDC sign-in")
	x.w.Header().Set("Location", c.cfg.ContextPath+orHome(f.Return))
	x.w.WriteHeader(http.StatusFound)
	return nil
}

const flowCookieAge = 10 * time.Minute // the flow's own lifetime (signin.Sealer)

// flowCookie is the sealed flow's cookie: sent back only to the sign-in
// routes, and on the provider's top-level redirect (SameSite=Lax).
func (c *Console) flowCookie(r *http.Request, value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: flowCookie, Value: value, Path: c.cfg.ContextPath + "/xxl-admin-go/signin/", MaxAge: maxAge,
		HttpOnly: true, Secure: strings.HasPrefix(absoluteURL(r, "/"), "https:"), SameSite: http.SameSiteLaxMode}
}

// redirectURL is the callback URL given to the provider.
func (c *Console) redirectURL(r *http.Request) string {
	if c.signin.RedirectURL != "" {
		return c.signin.RedirectURL
	}
	return absoluteURL(r, c.cfg.ContextPath+oidcCallbackPath)
}

// localPath tells a return address that stays in the console: a path,
// not "//host" or "/\host" (browsers read both as another host), with
// no scheme, host or control characters.
func localPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.ContainsAny(p, "\\\r\n\t\x00") {
		return false
	}
	u, err := url.Parse(p)
	return err == nil && u.Scheme == "" && u.Host == "" && u.Opaque == ""
}

func orHome(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// signinError shows a refused sign-in on the error page.
func (c *Console) signinError(x *exchange, status int, msg string) {
	p := c.page(x, "error", ErrorData{Message: msg})
	p.Title = "Error"
	c.renderStatus(x, p, status)
}
