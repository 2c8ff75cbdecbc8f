package console

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// dispatch34 runs a 3.4.2 route's checks in that admin's order: the HTTP
// method (Spring's handler mapping), then xxl-sso's interceptor — the
// login, then the role — then ours (cross-site), the form and the handler.
func (c *Console) dispatch34(w http.ResponseWriter, r *http.Request, rt endpoint) {
	x := &exchange{w: w, r: r, ctx: r.Context()}
	if rt.post && r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		c.errorPage34(x, http.StatusMethodNotAllowed)
		return
	}
	// The interceptor checks the login of protected routes only, and
	// /auth/login checks it itself; both clear a cookie that fails.
	if rt.access != anyone || rt.page {
		x.user = c.identify34(w, r)
	}
	if rt.access != anyone && x.user == nil {
		if rt.page {
			// Relative, where Tomcat's sendRedirect makes it absolute from
			// the request: a browser resolves both alike, and a relative
			// one stays right behind a proxy that terminates TLS.
			w.Header().Set("Location", c.cfg.ContextPath+"/auth/login")
			w.Header().Set("Content-Length", "0")
			w.WriteHeader(http.StatusFound)
			return
		}
		failException34(w, ssoException+"not login for path:"+servletPath(r, c.cfg.ContextPath))
		return
	}
	if rt.access == admin && x.user.Role != 1 {
		msg := ssoException + "permission limit, current login-user does not have role:ADMIN"
		if rt.page {
			c.renderError(x, msg)
			return
		}
		failException34(w, msg)
		return
	}
	c.serve(x, rt)
}

// identify34 resolves the token cookie; a cookie that names no login is
// cleared, as xxl-sso's loginCheckWithCookie clears it.
func (c *Console) identify34(w http.ResponseWriter, r *http.Request) *schema.User {
	ck, err := r.Cookie(c.tokens.key)
	if err != nil {
		return nil
	}
	u, err := c.tokens.resolve(r.Context(), ck.Value)
	if err != nil {
		if !errors.Is(err, errNoSession) {
			c.log.Error().Err(err).Msg("login check failed")
		}
		c.tokens.clearCookie(w)
		return nil
	}
	return &u
}

// servletPath is the request path below the context path, as the servlet
// API's getServletPath gives it.
func servletPath(r *http.Request, contextPath string) string {
	p := strings.TrimPrefix(r.URL.Path, contextPath)
	if p == "" {
		return "/"
	}
	return p
}

// errorPage34 answers with the 3.4.2 error page (IndexController's
// /errorpage, which Spring's error handling forwards to): "HTTP Status
// Code: <status>", with that status.
func (c *Console) errorPage34(x *exchange, status int) {
	p := c.page(x, "error", ErrorData{Message: "HTTP Status Code: " + strconv.Itoa(status)})
	p.Title = "Error"
	c.renderStatus(x, p, status)
}
