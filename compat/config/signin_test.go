package config

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSigninKeys(t *testing.T) {
	c, err := Load(fakeEnv(nil, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	s := c.Console.Signin
	if s.OIDC.Issuer != "" || s.LDAP.URL != "" || !s.PasswordLogin || s.SessionTimeout != 12*time.Hour {
		t.Fatalf("defaults: %+v", s)
	}
	c, err = Load(fakeEnv([]string{"--xxl.job.console.oidc.issuer=https://sso.example.com/realms/c",
		"--xxl.job.console.oidc.client-id=xxl", "--xxl.job.console.oidc.scopes=openid profile,groups",
		"--xxl.job.console.oidc.admin-values= a , b", "--xxl.job.console.password-login=false",
		"--xxl.job.console.break-glass-user=admin", "--xxl.job.console.signin.session-timeout=30m"},
		// Relaxed environment names, as every key.
		[]string{"XXL_JOB_CONSOLE_LDAP_URL=ldaps://ldap:636", "XXL_JOB_CONSOLE_LDAP_BASE_DN=dc=example,dc=org",
			"XXL_JOB_CONSOLE_LDAP_ADMIN_GROUPS=ops,admins"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	s = c.Console.Signin
	if !slices.Equal(s.OIDC.Scopes, []string{"openid", "profile", "groups"}) || !slices.Equal(s.OIDC.AdminValues, []string{"a", "b"}) ||
		s.OIDC.AdminClaim != "groups" || s.OIDC.UsernameClaim != "preferred_username" || s.PasswordLogin || s.BreakGlassUser != "admin" ||
		s.SessionTimeout != 30*time.Minute {
		t.Fatalf("oidc: %+v", s)
	}
	if s.LDAP.URL != "ldaps://ldap:636" || s.LDAP.BaseDN != "dc=example,dc=org" || !slices.Equal(s.LDAP.AdminGroups, []string{"ops", "admins"}) ||
		s.LDAP.UserFilter != "(uid={0})" || s.LDAP.Timeout != 5*time.Second {
		t.Fatalf("ldap: %+v", s.LDAP)
	}
	for _, tc := range []struct{ args []string }{
		{[]string{"--xxl.job.console.oidc.issuer=https://x"}},
		{[]string{"--xxl.job.console.ldap.url=ldap://x"}},
		{[]string{"--xxl.job.console.password-login=false"}},
		{[]string{"--xxl.job.console.ldap.timeout=soon"}},
	} {
		if _, err := Load(fakeEnv(tc.args, nil, nil)); err == nil || !strings.Contains(err.Error(), "xxl.job.console.") {
			t.Errorf("%v: %v", tc.args, err)
		}
	}
}
