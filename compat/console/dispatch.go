package console

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
)

// exchange is one request to a console route, past its checks.
type exchange struct {
	w    http.ResponseWriter
	r    *http.Request
	ctx  context.Context
	user *schema.User // nil on anonymous routes without a login
	form form
}

// javaException is a failure the Java admin reports through its exception
// resolver, with the exception's text (console.md §1.3): JSON routes answer
// HTTP 200 {"code":500,"msg":text} with the charset content type, pages show
// the error page. Only texts that are part of the console's contract use
// it (permission and "no executor" errors); internal failures never reach a
// client with their text.
type javaException struct{ text string }

func (e *javaException) Error() string { return e.text }

func runtimeException(msg string) error {
	return &javaException{text: "java.lang.RuntimeException: " + msg}
}

func xxlJobException(msg string) error {
	return &javaException{text: "com.xxl.job.admin.core.exception.XxlJobException: " + msg}
}

// cleanFailure stands where Java leaks an internal exception text (a
// NullPointerException for an unknown id, an IllegalStateException for a
// missing parameter, a driver error): same code and content type, a plain
// message.
type cleanFailure struct{ msg string }

func (e *cleanFailure) Error() string { return e.msg }

// dispatch runs a route's checks in the Java admin's order — HTTP method,
// login, role — then the cross-site check, the form and the handler.
func (c *Console) dispatch(w http.ResponseWriter, r *http.Request, rt endpoint) {
	if c.gen3 {
		c.dispatch34(w, r, rt)
		return
	}
	user, anonymousRedirect := c.identify(w, r)
	if rt.post && r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		if user == nil {
			// Spring's error page for the 405 is itself behind the login.
			anonymousRedirect()
			return
		}
		springError(w, r, http.StatusMethodNotAllowed, c.now())
		return
	}
	if rt.access != anyone && user == nil {
		anonymousRedirect()
		return
	}
	x := &exchange{w: w, r: r, ctx: r.Context(), user: user}
	if rt.access == admin && user.Role != 1 {
		c.failure(x, rt, runtimeException(c.text("system_permission_limit")))
		return
	}
	c.serve(x, rt)
}

// serve runs a route past its login and role checks: the cross-site
// check, the form, the handler.
func (c *Console) serve(x *exchange, rt endpoint) {
	w, r := x.w, x.r
	if rt.writes && crossSite(r) {
		c.log.Warn().Str("path", r.URL.Path).Str("origin", r.Header.Get("Origin")).
			Str("referer", r.Header.Get("Referer")).Msg("cross-site request refused")
		if c.gen3 {
			writeBody(w, http.StatusForbidden, typeJSON, sortedJSON(response34{Code: 500, Msg: "Cross-site request refused"}))
			return
		}
		writeBody(w, http.StatusForbidden, typeJSONError, jackson(returnT{Code: 500, Msg: ptr("Cross-site request refused")}))
		return
	}
	f, err := readForm(w, r)
	if err != nil {
		if c.gen3 {
			c.errorPage34(x, http.StatusBadRequest)
			return
		}
		springError(w, r, http.StatusBadRequest, c.now())
		return
	}
	x.form = f
	if x.user != nil {
		// The job service's audit lines name the signed-in user.
		x.ctx = jobs.WithOperator(x.ctx, x.user.Username)
	}
	if err := rt.serve(c, x); err != nil {
		if c.gen3 {
			c.failure34(x, rt, err)
			return
		}
		c.failure(x, rt, err)
	}
}

// identify resolves the login cookie. It returns the user (nil when
// anonymous) and how to send an anonymous caller to the login page: a 302
// to <ctx>/toLogin, which also clears a cookie too malformed to keep.
func (c *Console) identify(w http.ResponseWriter, r *http.Request) (*schema.User, func()) {
	redirect := func() {
		w.Header().Set("Location", c.cfg.ContextPath+"/toLogin")
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(http.StatusFound)
	}
	ck, err := r.Cookie(CookieName)
	if err != nil || ck.Value == "" {
		return nil, redirect
	}
	u, clear, err := c.sessions.resolve(r.Context(), ck.Value)
	if clear {
		clearLoginCookie(w)
	}
	if err != nil {
		if !errors.Is(err, errNoSession) {
			c.log.Error().Err(err).Msg("login check failed")
		}
		return nil, redirect
	}
	return &u, redirect
}

// failure renders a handler's error as the Java admin would, without its
// internal texts.
func (c *Console) failure(x *exchange, rt endpoint, err error) {
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
			fail(x.w, refusal.Msg)
			return
		}
		msg = refusal.Msg
	case errors.Is(err, jobs.ErrNoRow):
		failNull(x.w)
		return
	case errors.Is(err, errBadNumber):
		springError(x.w, x.r, http.StatusBadRequest, c.now())
		return
	case errors.As(err, &java):
		msg = java.text
	case errors.As(err, &clean):
		msg = clean.msg
	case errors.As(err, &missing):
		msg = missing.Error()
	case errors.Is(err, jobs.ErrNotFound):
		msg = c.text("jobinfo_glue_jobid_unvalid")
	case errors.Is(err, schema.ErrStatementTimeout):
		c.log.Warn().Err(err).Str("path", x.r.URL.Path).Msg("console list stopped at its time bound")
		msg = statementTimeoutText
	case errors.Is(err, jobs.ErrPermission):
		msg = runtimeException(c.permissionText(x.user)).Error()
	default:
		c.log.Error().Err(err).Str("path", x.r.URL.Path).Msg("console request failed")
		msg = c.text("system_opt_fail")
	}
	if rt.page {
		c.renderError(x, msg)
		return
	}
	// Java's resolver turns line breaks into <br/> (console.md §1.3).
	failResolved(x.w, strings.ReplaceAll(msg, "\n", "<br/>"))
}

// statementTimeoutText answers a list whose statement hit its time bound
// (DefaultListBounds): the Java admin has no such answer, it waits.
const statementTimeoutText = "The database did not answer within the time bound of this list: narrow the filter (one job, a shorter time range) or page less deep."

// permissionText is the group permission exception's message.
func (c *Console) permissionText(u *schema.User) string {
	name := ""
	if u != nil {
		name = u.Username
	}
	return c.text("system_permission_limit") + "[username=" + name + "]"
}

// notFound answers a path the console does not have: anonymous callers go
// to the login page (Spring's error page is behind the login), others get 404.
func (c *Console) notFound(w http.ResponseWriter, r *http.Request) {
	user, redirect := c.identify(w, r)
	if user == nil {
		redirect()
		return
	}
	springError(w, r, http.StatusNotFound, c.now())
}

// crossSite tells a browser request made by another site: the browser's
// Sec-Fetch-Site says so, or its Origin (else Referer) names another host.
// Scripts send none of these and are not affected.
func crossSite(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "cross-site", "same-site":
		return true
	}
	source := r.Header.Get("Origin")
	if source == "" {
		source = r.Header.Get("Referer")
	}
	if source == "" {
		return false
	}
	u, err := url.Parse(source)
	if err != nil || u.Host == "" {
		return true // "null" (sandboxed or opaque origins) and garbage
	}
	host := r.Host
	if fwd := r.Header.Get("X-Forwarded-Host"); fwd != "" {
		host = strings.TrimSpace(strings.Split(fwd, ",")[0])
	}
	return !strings.EqualFold(u.Host, host)
}

func ptr[T any](v T) *T { return &v }
