package console

import (
	"net/http"

	"github.com/xxl-admin-go/xxl-admin-go/core/signin"
)

// loginPage is the 2.x /toLogin with the sign-in button and, after a
// signed-in user's logout, the provider's logout.
func (c *Console) loginPage(x *exchange) error {
	if c.signin == nil || x.user != nil {
		return c.toLogin(x)
	}
	if c.endProviderSession(x, "/toLogin") {
		return nil
	}
	c.render(x, c.page(x, "login", c.loginModel(x)))
	return nil
}

// loginModel is loginData as a page model: an untyped nil when sign-in
// is off, so the page is byte for byte the Java admin's.
func (c *Console) loginModel(x *exchange) any {
	if d := c.loginData(x); d != nil {
		return d
	}
	return nil
}

// logoutSignin is the 2.x /logout: a user an OIDC provider signed in is
// also sent through the provider's logout by the login page that follows.
func (c *Console) logoutSignin(x *exchange) error {
	if x.user != nil {
		c.markProviderLogout(x, x.user.Password)
	}
	return c.logout(x)
}

// markProviderLogout leaves a short-lived cookie that makes the next
// login page send the browser to the provider's end_session_endpoint
// (RP-initiated logout), when the user is one the provider signed in.
func (c *Console) markProviderLogout(x *exchange, password string) {
	if c.signin == nil || c.signin.OIDC == nil || signin.MarkerSource(password) != "oidc" {
		return
	}
	http.SetCookie(x.w, &http.Cookie{Name: endCookie, Value: "1", Path: c.cfg.ContextPath + "/", MaxAge: 300,
		HttpOnly: true, SameSite: http.SameSiteLaxMode})
}

// endProviderSession answers a login page that follows such a logout
// with the redirect to the provider's logout, which returns to the login
// page; false when there is nothing to end.
func (c *Console) endProviderSession(x *exchange, loginPath string) bool {
	if _, err := x.r.Cookie(endCookie); err != nil || c.signin.OIDC == nil {
		return false
	}
	http.SetCookie(x.w, &http.Cookie{Name: endCookie, Value: "", Path: c.cfg.ContextPath + "/", MaxAge: -1, HttpOnly: true})
	u := c.signin.OIDC.EndSessionURL(x.ctx, absoluteURL(x.r, c.cfg.ContextPath+loginPath))
	if u == "" {
		return false
	}
	x.w.Header().Set("Location", u)
	x.w.Header().Set("Cache-Control", "no-store")
	x.w.WriteHeader(http.StatusFound)
	return true
}
