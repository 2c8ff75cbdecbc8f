package console

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
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
			w.Header().Set("Location", absoluteURL(r, c.cfg.ContextPath+"/auth/login"))
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

// failure34 renders a 3.x handler's error as the 3.4.2 admin would,
// without its internal texts: a controller's refusal is Response.ofFail;
// a parameter Spring cannot bind (missing, empty where required, not a
// number) is its 400 error page; an exception is WebHandlerExceptionResolver's
// answer — Gson {"code":500,"msg":<toString>} on JSON routes, the error
// page with that text on pages.
func (c *Console) failure34(x *exchange, rt endpoint, err error) {
	var (
		refusal *jobs.Refusal
		java    *javaException
		clean   *cleanFailure
		missing *missingParam
	)
	msg := ""
	switch {
	case errors.As(err, &refusal):
		if !rt.page {
			fail34(x.w, refusal.Msg)
			return
		}
		msg = refusal.Msg
	case errors.Is(err, errBadNumber), errors.As(err, &missing):
		c.errorPage34(x, http.StatusBadRequest)
		return
	case errors.Is(err, jobs.ErrNoRow):
		// Response.ofFail(): the message "Fail".
		fail34(x.w, "Fail")
		return
	case errors.As(err, &java):
		msg = java.text
	case errors.As(err, &clean):
		msg = clean.msg
	case errors.Is(err, jobs.ErrNotFound):
		msg = c.text("jobinfo_glue_jobid_invalid")
	case errors.Is(err, jobs.ErrPermission):
		msg = runtimeException(c.permissionText(x.user)).Error()
	case errors.Is(err, schema.ErrStatementTimeout):
		c.log.Warn().Err(err).Str("path", x.r.URL.Path).Msg("console list stopped at its time bound")
		msg = statementTimeoutText
	default:
		c.log.Error().Err(err).Str("path", x.r.URL.Path).Msg("console request failed")
		msg = c.text("system_opt_fail")
	}
	if rt.page {
		c.renderError(x, msg)
		return
	}
	failException34(x.w, msg)
}

// absoluteURL is path as an absolute URL of the request's own origin, as
// Tomcat's sendRedirect writes a Location. Ours also honours the
// X-Forwarded-Proto and X-Forwarded-Host a proxy adds, so a redirect
// behind a proxy that terminates TLS stays on https (Tomcat needs its
// RemoteIpValve for that).
func absoluteURL(r *http.Request, path string) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := firstHeaderValue(r, "X-Forwarded-Proto"); p == "http" || p == "https" {
		scheme = p
	}
	host := r.Host
	if h := firstHeaderValue(r, "X-Forwarded-Host"); h != "" {
		host = h
	}
	return scheme + "://" + host + path
}

// firstHeaderValue is the first comma-separated value of a header.
func firstHeaderValue(r *http.Request, name string) string {
	v, _, _ := strings.Cut(r.Header.Get(name), ",")
	return strings.ToLower(strings.TrimSpace(v))
}
