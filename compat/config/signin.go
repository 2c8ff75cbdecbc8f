package config

import (
	"fmt"
	"strings"
	"time"
)

// Signin holds the console's company sign-in keys (new keys; the Java
// admin ignores them): xxl.job.console.oidc.*, xxl.job.console.ldap.*,
// and whether the password form stays. Both are off while their URL is
// empty.
type Signin struct {
	// PasswordLogin (xxl.job.console.password-login, default true) keeps
	// the password form; false leaves only the sign-in button, except for
	// BreakGlassUser.
	PasswordLogin bool
	// BreakGlassUser (xxl.job.console.break-glass-user) may log in with
	// its local password even when PasswordLogin is false.
	BreakGlassUser string
	// SessionTimeout (xxl.job.console.signin.session-timeout, default 12h)
	// bounds a signed-in user's session: groups are read again at the next
	// sign-in, so a person removed at the provider loses access then.
	SessionTimeout time.Duration
	OIDC           OIDC
	LDAP           LDAP
}

// OIDC is xxl.job.console.oidc.*.
type OIDC struct {
	Issuer           string // discovery: Issuer + /.well-known/openid-configuration
	ClientID         string
	ClientSecret     string // or .client-secret.file
	Scopes           []string
	RedirectURL      string // the callback URL registered at the provider; empty: from the request
	DisplayName      string // the button's "Sign in with …"
	UsernameClaim    string // default preferred_username
	GroupClaim       string // default groups
	AdminClaim       string // claim whose values AdminValues are checked against (default: GroupClaim)
	AdminValues      []string
	GroupPermissions string // "group:id,id;group:id"
}

// LDAP is xxl.job.console.ldap.*.
type LDAP struct {
	URL              string
	StartTLS         bool
	CAFile           string
	BindDN           string
	BindPassword     string // or .bind-password.file
	BaseDN           string
	UserFilter       string
	UserAttribute    string
	GroupBaseDN      string
	GroupFilter      string
	GroupAttribute   string
	AdminGroups      []string
	GroupPermissions string
	Timeout          time.Duration
}

func buildSignin(r resolver, errs *[]error) Signin {
	trim := func(k string) string { return strings.TrimSpace(r.str(k)) }
	s := Signin{PasswordLogin: r.boolean("xxl.job.console.password-login"), BreakGlassUser: trim("xxl.job.console.break-glass-user"),
		SessionTimeout: springDuration("xxl.job.console.signin.session-timeout", r.str("xxl.job.console.signin.session-timeout"), errs)}
	const o, l = "xxl.job.console.oidc.", "xxl.job.console.ldap."
	s.OIDC = OIDC{Issuer: trim(o + "issuer"), ClientID: trim(o + "client-id"), ClientSecret: r.secret(o+"client-secret", errs),
		Scopes: list(strings.ReplaceAll(r.str(o+"scopes"), " ", ",")), RedirectURL: trim(o + "redirect-url"),
		DisplayName: trim(o + "display-name"), UsernameClaim: trim(o + "username-claim"), GroupClaim: trim(o + "group-claim"),
		AdminClaim: trim(o + "admin-claim"), AdminValues: list(r.str(o + "admin-values")), GroupPermissions: r.str(o + "group-permissions")}
	if s.OIDC.AdminClaim == "" {
		s.OIDC.AdminClaim = s.OIDC.GroupClaim
	}
	s.LDAP = LDAP{URL: trim(l + "url"), StartTLS: r.boolean(l + "start-tls"), CAFile: trim(l + "ca-file"), BindDN: trim(l + "bind-dn"),
		BindPassword: r.secret(l+"bind-password", errs), BaseDN: trim(l + "base-dn"), UserFilter: trim(l + "user-filter"),
		UserAttribute: trim(l + "user-attribute"), GroupBaseDN: trim(l + "group-base-dn"), GroupFilter: trim(l + "group-filter"),
		GroupAttribute: trim(l + "group-attribute"), AdminGroups: list(r.str(l + "admin-groups")),
		GroupPermissions: r.str(l + "group-permissions"), Timeout: r.millis(l+"timeout", errs)}
	if s.OIDC.Issuer != "" && s.OIDC.ClientID == "" {
		*errs = append(*errs, fmt.Errorf(o+"client-id: required with %sissuer", o))
	}
	if s.LDAP.URL != "" && s.LDAP.BaseDN == "" {
		*errs = append(*errs, fmt.Errorf(l+"base-dn: required with %surl", l))
	}
	if !s.PasswordLogin && s.OIDC.Issuer == "" {
		*errs = append(*errs, fmt.Errorf("xxl.job.console.password-login=false needs xxl.job.console.oidc.issuer: nobody could sign in"))
	}
	return s
}

func list(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
