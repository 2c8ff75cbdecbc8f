package signin

import (
	"context"
	"errors"
	"testing"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

func TestProvision(t *testing.T) {
	perms, err := ParsePermissions("team-a:2,1; team-b : 3 ;ns:team:4")
	if err != nil {
		t.Fatal(err)
	}
	m := Mapping{AdminGroups: []string{"xxl-admins"}, Permissions: perms}
	run := func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		p := &Provisioner{Store: s, Log: zerolog.Nop()}
		u, err := p.Provision(ctx, Identity{Source: "ldap", Username: "alice", Groups: []string{"team-a", "ns:team"}}, m)
		if err != nil {
			t.Fatal(err)
		}
		row, err := s.UserLoadByName(ctx, "alice")
		if err != nil || row.ID != u.ID || row.Role != 0 || *row.Permission != "1,2,4" || MarkerSource(row.Password) != "ldap" {
			t.Fatalf("first sign-in row: %+v %v", row, err)
		}
		// Group changes at the provider apply at the next sign-in; the
		// password column is kept (2.x cookies stay valid).
		if _, err := p.Provision(ctx, Identity{Source: "ldap", Username: "alice", Groups: []string{"xxl-admins", "team-b"}}, m); err != nil {
			t.Fatal(err)
		}
		again, _ := s.UserLoadByName(ctx, "alice")
		if again.Role != 1 || *again.Permission != "3" || again.Password != row.Password {
			t.Fatalf("second sign-in row: %+v", again)
		}
		// The seed's local admin (a real password hash) is never taken
		// over, and an LDAP row not by OIDC.
		for _, tc := range []struct {
			id   Identity
			want error
		}{
			{Identity{Source: "oidc", Username: "admin", Admin: true}, ErrLocalAccount},
			{Identity{Source: "ldap", Username: "ADMIN"}, ErrLocalAccount},
			{Identity{Source: "oidc", Username: "alice"}, ErrOtherSource},
			{Identity{Source: "oidc", Username: ""}, ErrBadUsername},
			{Identity{Source: "oidc", Username: " alice"}, ErrBadUsername},
			{Identity{Source: "oidc", Username: "a\nb"}, ErrBadUsername},
			{Identity{Source: "oidc", Username: string(make([]byte, 51))}, ErrBadUsername},
		} {
			if _, err := p.Provision(ctx, tc.id, m); !errors.Is(err, tc.want) {
				t.Errorf("%+v: got %v, want %v", tc.id, err, tc.want)
			}
		}
		admin, _ := s.UserLoadByName(ctx, "admin")
		if admin.Role != 1 || MarkerSource(admin.Password) != "" {
			t.Fatalf("local admin changed: %+v", admin)
		}
	}
	t.Run("2.4", func(t *testing.T) { storetest.ForEach(t, run) })
	t.Run("3.4", func(t *testing.T) { storetest.ForEach3(t, run) })
}

func TestMarkerMatchesNoHash(t *testing.T) {
	m := Marker("oidc")
	if MarkerSource(m) != "oidc" || len(m) > 50 {
		t.Fatalf("marker %q", m)
	}
	for _, s := range []string{"", "e10adc3949ba59abbe56e057f20f883e", "{signin:oidc", "x{signin:oidc}"} {
		if MarkerSource(s) != "" {
			t.Errorf("%q read as a marker", s)
		}
	}
}

func TestParsePermissions(t *testing.T) {
	for _, bad := range []string{"team", ":1", "team:x", "team:0", "team:-2"} {
		if _, err := ParsePermissions(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	m := Mapping{Permissions: map[string][]int{"a": {3, 1}, "b": {1, 2}}}
	if got := m.Permission([]string{"b", "a", "c"}); got != "1,2,3" {
		t.Fatalf("permission %q", got)
	}
}
