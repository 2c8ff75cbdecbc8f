package signin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// Refusals of a sign-in the provider accepted. Their texts are shown to
// the person signing in.
var (
	// ErrLocalAccount: a local user (one with a password) has the name.
	// Taking it over would let whoever controls that name at the provider
	// become the local user — often the break-glass admin.
	ErrLocalAccount = errors.New("a local user of that name exists; an administrator must rename or remove it before it can sign in through the company sign-in")
	// ErrOtherSource: the row was made by the other sign-in (LDAP vs OIDC).
	ErrOtherSource = errors.New("that user was created by another sign-in method")
	// ErrBadUsername: the provider's name does not fit xxl_job_user.username.
	ErrBadUsername = errors.New("the user name given by the identity provider is empty, longer than 50 characters or holds control characters")
)

// UserStore is what provisioning needs of the store.
type UserStore interface {
	UserLoadByName(ctx context.Context, username string) (schema.User, error)
	UserSave(ctx context.Context, u schema.User) (int, error)
	UserUpdate(ctx context.Context, u schema.User) (int64, error)
}

// Provisioner makes and updates the xxl_job_user rows of signed-in people.
type Provisioner struct {
	Store UserStore
	Log   zerolog.Logger
}

// Provision returns the row of id, made at the first sign-in and brought
// in line with the role and permissions m gives id's groups at each one.
func (p *Provisioner) Provision(ctx context.Context, id Identity, m Mapping) (schema.User, error) {
	if !validUsername(id.Username) {
		return schema.User{}, ErrBadUsername
	}
	role, permission := 0, m.Permission(id.Groups)
	if id.Admin || m.IsAdmin(id.Groups) {
		role = 1
	}
	u, err := p.Store.UserLoadByName(ctx, id.Username)
	if errors.Is(err, schema.ErrNotFound) {
		u = schema.User{Username: id.Username, Password: Marker(id.Source), Role: role, Permission: &permission}
		if u.ID, err = p.Store.UserSave(ctx, u); err == nil {
			p.Log.Info().Str("username", u.Username).Str("source", id.Source).Int("role", role).
				Str("permission", permission).Msg("sign-in: user created")
			return u, nil
		}
		// Two first sign-ins at once: the other one made the row.
		u, err = p.Store.UserLoadByName(ctx, id.Username)
	}
	if err != nil {
		return schema.User{}, fmt.Errorf("sign-in of %q: %w", id.Username, err)
	}
	switch src := MarkerSource(u.Password); {
	case src == "":
		p.Log.Warn().Str("username", u.Username).Str("source", id.Source).
			Msg("sign-in refused: a local user of that name exists")
		return schema.User{}, ErrLocalAccount
	case src != id.Source:
		return schema.User{}, ErrOtherSource
	}
	if u.Role == role && u.Permission != nil && *u.Permission == permission {
		return u, nil
	}
	p.Log.Info().Str("username", u.Username).Int("role", role).Str("permission", permission).
		Msg("sign-in: role and permissions updated from the provider's groups")
	u.Role, u.Permission = role, &permission
	keep := u
	keep.Password = "" // UserUpdate keeps the password (and a 3.x login token)
	if _, err := p.Store.UserUpdate(ctx, keep); err != nil {
		return schema.User{}, fmt.Errorf("sign-in of %q: %w", id.Username, err)
	}
	return u, nil
}

func validUsername(name string) bool {
	if strings.TrimSpace(name) != name || name == "" || utf8.RuneCountInString(name) > 50 {
		return false
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}
