package console

import (
	"errors"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/signin"
)

// loginPassword is the password form's handler on both consoles (/login,
// /auth/doLogin): the Java admin's check when sign-in is off; else local
// users first (the break-glass path, which needs no directory), then the
// LDAP directory.
func (c *Console) loginPassword(x *exchange) error {
	if c.signin == nil {
		if c.gen3 {
			return c.authDoLogin(x)
		}
		return c.login(x)
	}
	failf, invalid := fail, "login_param_unvalid"
	if c.gen3 {
		failf, invalid = fail34, "login_param_invalid"
	}
	name, password := x.form.str("userName"), x.form.str("password")
	if blankStr(name) || blankStr(password) {
		failf(x.w, c.text("login_param_empty"))
		return nil
	}
	keys := []string{"u:" + strings.ToLower(*name), "a:" + clientAddress(x.r)}
	if err := c.throttleWait(x, keys); err != nil {
		return err
	}
	u, refusal, err := c.verifyPassword(x, *name, *password)
	if err != nil {
		return err
	}
	if refusal == "" && u.ID == 0 {
		refusal = c.text(invalid)
	}
	if refusal != "" {
		if refusal != directoryDown {
			// A directory outage is no guess at a password: it must not
			// slow the break-glass login that follows from this address.
			c.throttle.failed(keys...)
		}
		c.log.Info().Str("username", clip(*name, 64)).Str("address", clientAddress(x.r)).Str("reason", refusal).Msg("login refused")
		failf(x.w, refusal)
		return nil
	}
	c.throttle.succeeded(keys[0])
	if err := c.startSession(x, u, x.form.text("ifRemember") == "on"); err != nil {
		return err
	}
	if c.gen3 {
		ok34(x.w, nil)
	} else {
		ok(x.w, nil)
	}
	return nil
}

// directoryDown is the password form's answer while the directory cannot
// be asked.
const directoryDown = "The LDAP directory cannot be reached; try again later. Local users can still log in."

// verifyPassword finds the user a name and password log in: a zero user
// and no refusal is "wrong name or password"; a refusal is a text to show.
func (c *Console) verifyPassword(x *exchange, name, password string) (schema.User, string, error) {
	hash := PasswordHash(password)
	if c.gen3 {
		hash = PasswordHash34(password)
	}
	u, err := c.store.UserLoadByName(x.ctx, name)
	if err != nil && !isNotFound(err) {
		return schema.User{}, "", err
	}
	if err == nil && signin.MarkerSource(u.Password) == "" {
		// A local user: its own password decides, never the directory's
		// (a directory entry of the same name must not become it).
		if u.Password != hash {
			if c.gen3 && isMD5Of(u.Password, password) {
				return schema.User{}, md5LoginMsg(u.Username, password), nil
			}
			return schema.User{}, "", nil
		}
		if !c.signin.PasswordLogin && !strings.EqualFold(u.Username, c.signin.BreakGlassUser) {
			return schema.User{}, "Password login is switched off: use the sign-in button.", nil
		}
		c.log.Info().Str("username", u.Username).Msg("local password login")
		return u, "", nil
	}
	if c.signin.LDAP == nil || !c.signin.PasswordLogin {
		return schema.User{}, "", nil
	}
	id, err := c.signin.LDAP.Authenticate(name, password)
	switch {
	case errors.Is(err, signin.ErrBadCredentials):
		return schema.User{}, "", nil
	case err != nil:
		c.log.Error().Err(err).Str("username", clip(name, 64)).Msg("LDAP sign-in failed")
		return schema.User{}, directoryDown, nil
	}
	u, err = c.provisioner.Provision(x.ctx, id, c.signin.LDAPMapping)
	if refusal := provisionRefusal(err); refusal != "" {
		return schema.User{}, refusal, nil
	}
	return u, "", err
}

// provisionRefusal is the text shown for a provisioning refusal, "" for
// success or an internal error.
func provisionRefusal(err error) string {
	for _, e := range []error{signin.ErrLocalAccount, signin.ErrOtherSource, signin.ErrBadUsername} {
		if errors.Is(err, e) {
			return "Sign-in refused: " + e.Error() + "."
		}
	}
	return ""
}
