package app

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/config"
)

func TestSigninConfig(t *testing.T) {
	if s, err := signinConfig(config.Signin{PasswordLogin: true}, zerolog.Nop()); s != nil || err != nil {
		t.Fatalf("off: %v %v", s, err)
	}
	var out bytes.Buffer
	s, err := signinConfig(config.Signin{PasswordLogin: false, BreakGlassUser: "admin",
		OIDC: config.OIDC{Issuer: "https://sso.example.com", ClientID: "x", GroupPermissions: "ops:1,2"},
		LDAP: config.LDAP{URL: "ldap://ldap.example.com", BaseDN: "dc=example,dc=org", UserFilter: "(uid={0})", AdminGroups: []string{"ops"}}},
		zerolog.New(&out))
	if err != nil || s.OIDC == nil || s.LDAP == nil || s.OIDCMapping.Permission([]string{"ops"}) != "1,2" || !s.LDAPMapping.IsAdmin([]string{"ops"}) {
		t.Fatalf("on: %+v %v", s, err)
	}
	// The start-up log names the break-glass path and an unencrypted directory.
	for _, want := range []string{"break-glass user", `"username":"admin"`, "unencrypted"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("log lacks %q: %s", want, out.String())
		}
	}
	for _, bad := range []config.Signin{
		{OIDC: config.OIDC{Issuer: "https://x", ClientID: "x", GroupPermissions: "ops"}},
		{LDAP: config.LDAP{URL: "ldap://x", BaseDN: "dc=x", UserFilter: "(uid={0})", GroupPermissions: "ops:x"}},
		{LDAP: config.LDAP{URL: "ldap://x", BaseDN: "dc=x", UserFilter: "(uid={0})", CAFile: "/nonexistent/ca.pem"}},
		{LDAP: config.LDAP{URL: "ldap://x", BaseDN: "dc=x", UserFilter: "(uid=alice)"}},
		{LDAP: config.LDAP{URL: "http://x", BaseDN: "dc=x", UserFilter: "(uid={0})"}},
	} {
		if _, err := signinConfig(bad, zerolog.Nop()); err == nil {
			t.Errorf("accepted %+v", bad)
		}
	}
}
