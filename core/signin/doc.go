// Package signin signs console users in through the company's identity
// provider — an OpenID Connect provider (oidc.go) or an LDAP directory
// (ldap.go) — and provisions the xxl_job_user row the consoles of both
// generations (and Java admins on the same database) see: the row is made
// at the first sign-in, and its role and executor permissions are derived
// from the provider's groups again at each sign-in (provision.go).
//
// The session that follows is the console's own (a signed cookie on 2.x,
// the token login on 3.x): this package only says who someone is.
package signin
