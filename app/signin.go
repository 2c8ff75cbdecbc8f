package app

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"strings"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
	"github.com/xxl-admin-go/xxl-admin-go/compat/console"
	"github.com/xxl-admin-go/xxl-admin-go/core/signin"
)

// signinConfig builds the console's company sign-in from
// xxl.job.console.oidc.* and .ldap.*; nil when both are off. It says at
// start which sign-ins are on and how a local (break-glass) user still
// gets in.
func signinConfig(c config.Signin, log zerolog.Logger) (*console.SigninConfig, error) {
	if c.OIDC.Issuer == "" && c.LDAP.URL == "" {
		return nil, nil
	}
	s := &console.SigninConfig{PasswordLogin: c.PasswordLogin, BreakGlassUser: c.BreakGlassUser,
		SessionTimeout: c.SessionTimeout, OIDCName: c.OIDC.DisplayName, RedirectURL: c.OIDC.RedirectURL}
	if c.OIDC.Issuer != "" {
		perms, err := signin.ParsePermissions(c.OIDC.GroupPermissions)
		if err != nil {
			return nil, fmt.Errorf("xxl.job.console.oidc.group-permissions: %w", err)
		}
		s.OIDCMapping = signin.Mapping{Permissions: perms}
		s.OIDC, err = signin.NewOIDC(signin.OIDCConfig{Issuer: c.OIDC.Issuer, ClientID: c.OIDC.ClientID,
			ClientSecret: c.OIDC.ClientSecret, Scopes: c.OIDC.Scopes, UsernameClaim: c.OIDC.UsernameClaim,
			GroupClaim: c.OIDC.GroupClaim, AdminClaim: c.OIDC.AdminClaim, AdminValues: c.OIDC.AdminValues})
		if err != nil {
			return nil, err
		}
		log.Info().Str("issuer", c.OIDC.Issuer).Str("client_id", c.OIDC.ClientID).Msg("console sign-in: OpenID Connect on")
	}
	if c.LDAP.URL != "" {
		perms, err := signin.ParsePermissions(c.LDAP.GroupPermissions)
		if err != nil {
			return nil, fmt.Errorf("xxl.job.console.ldap.group-permissions: %w", err)
		}
		s.LDAPMapping = signin.Mapping{AdminGroups: c.LDAP.AdminGroups, Permissions: perms}
		tlsCfg := &tls.Config{MinVersion: tls.VersionTLS12}
		if c.LDAP.CAFile != "" {
			pem, err := os.ReadFile(c.LDAP.CAFile)
			if err != nil {
				return nil, fmt.Errorf("xxl.job.console.ldap.ca-file: %w", err)
			}
			tlsCfg.RootCAs = x509.NewCertPool()
			if !tlsCfg.RootCAs.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("xxl.job.console.ldap.ca-file %s: no PEM certificate", c.LDAP.CAFile)
			}
		}
		s.LDAP, err = signin.NewDirectory(signin.LDAPConfig{URL: c.LDAP.URL, StartTLS: c.LDAP.StartTLS, TLS: tlsCfg,
			BindDN: c.LDAP.BindDN, BindPassword: c.LDAP.BindPassword, BaseDN: c.LDAP.BaseDN, UserFilter: c.LDAP.UserFilter,
			UserAttr: c.LDAP.UserAttribute, GroupBaseDN: c.LDAP.GroupBaseDN, GroupFilter: c.LDAP.GroupFilter,
			GroupAttr: c.LDAP.GroupAttribute, Timeout: c.LDAP.Timeout})
		if err != nil {
			return nil, fmt.Errorf("xxl.job.console.ldap: %w", err)
		}
		if !c.LDAP.StartTLS && strings.HasPrefix(c.LDAP.URL, "ldap:") {
			log.Warn().Str("url", c.LDAP.URL).Msg("console sign-in: LDAP passwords travel unencrypted; use ldaps:// or start-tls=true")
		}
		log.Info().Str("url", c.LDAP.URL).Str("base_dn", c.LDAP.BaseDN).Msg("console sign-in: LDAP on behind the password form")
	}
	switch {
	case c.PasswordLogin:
		log.Warn().Msg("console sign-in: local users with a password (break-glass) can still log in by password")
	case c.BreakGlassUser != "":
		log.Warn().Str("username", c.BreakGlassUser).Msg("console sign-in: password login is off except for this break-glass user (login page with ?local=1)")
	default:
		log.Warn().Msg("console sign-in: password login is off and no xxl.job.console.break-glass-user is set: nobody gets in while the identity provider is down")
	}
	return s, nil
}
