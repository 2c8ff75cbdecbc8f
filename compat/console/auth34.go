package console

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// The 3.4.2 LoginController: /auth/login, /auth/doLogin, /auth/logout and
// /auth/updatePwd over the token sessions (session34.go).

// PasswordHash34 is the 3.x xxl_job_user password hash: lowercase hex
// SHA-256 of the password's UTF-8 bytes (xxl-tool Sha256Tool, no salt).
func PasswordHash34(password string) string {
	sum := sha256.Sum256([]byte(password))
	return hex.EncodeToString(sum[:])
}

// authLogin shows the login page, or sends a logged-in user home with a
// 303 (Spring's RedirectView "/", context-relative).
func (c *Console) authLogin(x *exchange) error {
	if x.user != nil {
		x.w.Header().Set("Location", c.cfg.ContextPath+"/")
		x.w.Header().Set("Content-Language", "en")
		x.w.Header().Set("Content-Length", "0")
		x.w.WriteHeader(http.StatusSeeOther)
		return nil
	}
	if c.signin != nil && c.endProviderSession(x, "/auth/login") {
		return nil
	}
	c.render(x, c.page(x, "login", c.loginModel(x)))
	return nil
}

// authDoLogin checks the credentials, stores a fresh login token and sets
// the cookie. Wrong passwords slow further attempts on the same name or
// address, as on the 2.x login.
func (c *Console) authDoLogin(x *exchange) error {
	name, password := x.form.str("userName"), x.form.str("password")
	if blankStr(name) || blankStr(password) {
		fail34(x.w, c.text("login_param_empty"))
		return nil
	}
	keys := []string{"u:" + strings.ToLower(*name), "a:" + clientAddress(x.r)}
	if err := c.throttleWait(x, keys); err != nil {
		return err
	}
	u, err := c.store.UserLoadByName(x.ctx, *name)
	if err != nil && !isNotFound(err) {
		return err
	}
	if err == nil && u.Password != PasswordHash34(*password) && isMD5Of(u.Password, *password) {
		// The right password, stored as 2.x hashed it: the 3.2.0 upgrade
		// step that re-hashes passwords was not run for this user. Say
		// so instead of locking them out without a word.
		c.log.Warn().Str("username", u.Username).Msg("login refused: the password is stored as a 2.x MD5 hash")
		fail34(x.w, md5LoginMsg(u.Username, *password))
		return nil
	}
	if err != nil || u.Password != PasswordHash34(*password) {
		c.throttle.failed(keys...)
		c.log.Info().Str("username", clip(*name, 64)).Str("address", clientAddress(x.r)).Msg("login refused")
		fail34(x.w, c.text("login_param_invalid"))
		return nil
	}
	c.throttle.succeeded(keys[0])
	value, err := c.tokens.login(x.ctx, u)
	if err != nil {
		return fmt.Errorf("login of %q: %w", u.Username, err)
	}
	c.tokens.setCookie(x.w, value, x.form.text("ifRemember") == "on")
	ok34(x.w, nil)
	return nil
}

// throttleWait holds a login attempt as long as earlier failures demand.
func (c *Console) throttleWait(x *exchange, keys []string) error {
	d := c.throttle.delay(keys...)
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-x.ctx.Done():
		return x.ctx.Err()
	}
}

// isMD5Of tells a stored 2.x hash of password.
func isMD5Of(stored, password string) bool {
	sum := md5.Sum([]byte(password))
	return len(stored) == 32 && stored == hex.EncodeToString(sum[:])
}

// md5LoginMsg names the statement that stores the password as 3.x hashes
// it (the 3.2.0 release notes' step 2, for this user).
func md5LoginMsg(username, password string) string {
	return fmt.Sprintf("The password of %s is still stored as an xxl-job 2.x MD5 hash, which 3.x logins do not accept. "+
		"An administrator must store its SHA-256 hash: UPDATE xxl_job_user SET password = '%s' WHERE username = '%s'",
		username, PasswordHash34(password), strings.ReplaceAll(username, "'", "''"))
}

// authLogout ends the login of the cookie and clears it; without a cookie
// it only answers success (xxl-sso's logoutWithCookie).
func (c *Console) authLogout(x *exchange) error {
	ck, err := x.r.Cookie(c.tokens.key)
	if err != nil || strings.TrimSpace(ck.Value) == "" {
		ok34(x.w, nil)
		return nil
	}
	if c.signin != nil {
		if u, err := c.tokens.resolve(x.ctx, ck.Value); err == nil {
			c.markProviderLogout(x, u.Password)
		}
	}
	err = c.tokens.logout(x.ctx, ck.Value)
	c.tokens.clearCookie(x.w)
	switch {
	case err == nil:
		ok34(x.w, nil)
	case errors.Is(err, errTokenRemove) || err.Error() == "token is invalid":
		fail34(x.w, err.Error())
	default:
		return err
	}
	return nil
}

// authUpdatePwd changes the logged-in user's password. The new password
// ends every other session of the user (the token changes); this one
// continues with a fresh token.
func (c *Console) authUpdatePwd(x *exchange) error {
	pass, old := x.form.str("password"), x.form.str("oldPassword")
	// Java asks for the old password in both cases.
	if blankStr(old) || blankStr(pass) {
		fail34(x.w, c.text("system_please_input")+c.text("change_pwd_field_oldpwd"))
		return nil
	}
	password, okLen := c.checkPassword(*pass)
	if !okLen {
		fail34(x.w, c.text("system_length_limit")+"[4-20]")
		return nil
	}
	u, err := c.store.UserLoadByName(x.ctx, x.user.Username)
	if err != nil {
		if errors.Is(err, schema.ErrNotFound) {
			fail34(x.w, c.text("change_pwd_field_oldpwd")+c.text("system_invalid"))
			return nil
		}
		return err
	}
	if PasswordHash34(*old) != u.Password {
		fail34(x.w, c.text("change_pwd_field_oldpwd")+c.text("system_invalid"))
		return nil
	}
	u.Password = PasswordHash34(password)
	if _, err := c.store.UserUpdate(x.ctx, u); err != nil {
		return err
	}
	c.log.Info().Str("username", u.Username).Msg("password changed")
	if value, err := c.tokens.login(x.ctx, u); err == nil {
		c.tokens.setCookie(x.w, value, false)
	}
	ok34(x.w, nil)
	return nil
}
