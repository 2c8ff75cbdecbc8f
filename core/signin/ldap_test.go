package signin

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"os"
	"slices"
	"testing"
	"time"
)

// testDirectory is the slapd .ci/setup.d/60-ldap.sh starts with
// testdata/directory.ldif.
func testDirectory(t *testing.T, edit func(*LDAPConfig)) *Directory {
	t.Helper()
	url := os.Getenv("XXL_TEST_LDAP")
	if url == "" {
		t.Skip("[suite-off] XXL_TEST_LDAP not set (an ldap:// URL of the slapd .ci/setup.d/60-ldap.sh starts)")
	}
	cfg := LDAPConfig{URL: url, BindDN: "cn=reader,dc=example,dc=org", BindPassword: "reader-secret",
		BaseDN: "ou=people,dc=example,dc=org", UserFilter: "(&(objectClass=inetOrgPerson)(uid={0}))",
		GroupBaseDN: "ou=groups,dc=example,dc=org", GroupFilter: "(&(objectClass=groupOfNames)(member={0}))",
		Timeout: 3 * time.Second}
	if edit != nil {
		edit(&cfg)
	}
	d, err := NewDirectory(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func testCA(t *testing.T) *tls.Config {
	t.Helper()
	pem, err := os.ReadFile(os.Getenv("XXL_TEST_LDAP_CA"))
	if err != nil {
		t.Fatalf("XXL_TEST_LDAP_CA: %v", err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}

func TestDirectoryAuthenticate(t *testing.T) {
	d := testDirectory(t, nil)
	id, err := d.Authenticate("alice", "alice-secret")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(id.Groups)
	if id.Username != "alice" || id.Source != "ldap" || !slices.Equal(id.Groups, []string{"team-a", "xxl-admins"}) {
		t.Fatalf("alice: %+v", id)
	}
	// The name stored is the directory's spelling, not the one typed.
	if id, err := d.Authenticate("BOB", "bob-secret"); err != nil || id.Username != "bob" {
		t.Fatalf("BOB: %+v %v", id, err)
	}
	for _, tc := range []struct{ name, user, password string }{
		{"wrong password", "bob", "alice-secret"},
		{"unknown user", "mallory", "x"},
		{"locked by the password policy", "carol", "carol-secret"},
		{"empty password (unauthenticated bind)", "alice", ""},
		{"filter injection", "*)(uid=*", "alice-secret"},
		{"wildcard", "*", "alice-secret"},
		{"filter injection closing the and", "alice)(|(uid=*", "alice-secret"},
		{"NUL byte", "alice\x00", "alice-secret"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := d.Authenticate(tc.user, tc.password); !errors.Is(err, ErrBadCredentials) {
				t.Fatalf("got %v, want ErrBadCredentials", err)
			}
		})
	}
}

func TestDirectoryUnavailable(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*LDAPConfig)
	}{
		{"down", func(c *LDAPConfig) { c.URL = "ldap://127.0.0.1:1" }},
		{"service password wrong", func(c *LDAPConfig) { c.BindPassword = "nope" }},
		{"StartTLS with an unknown CA", func(c *LDAPConfig) { c.StartTLS = true }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := testDirectory(t, tc.edit)
			if _, err := d.Authenticate("alice", "alice-secret"); !errors.Is(err, ErrUnavailable) {
				t.Fatalf("got %v, want ErrUnavailable", err)
			}
		})
	}
}

func TestDirectoryTLS(t *testing.T) {
	d := testDirectory(t, func(c *LDAPConfig) { c.StartTLS = true; c.TLS = testCA(t) })
	if _, err := d.Authenticate("alice", "alice-secret"); err != nil {
		t.Fatalf("StartTLS: %v", err)
	}
	ldaps := os.Getenv("XXL_TEST_LDAPS")
	if ldaps == "" {
		t.Fatal("XXL_TEST_LDAPS not set beside XXL_TEST_LDAP")
	}
	d = testDirectory(t, func(c *LDAPConfig) { c.URL = ldaps; c.TLS = testCA(t) })
	if _, err := d.Authenticate("bob", "bob-secret"); err != nil {
		t.Fatalf("LDAPS: %v", err)
	}
}
