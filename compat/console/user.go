package console

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// JobUserController (console.md §7).

func (c *Console) userPage(x *exchange) error {
	groups, err := c.store.GroupFindAll(x.ctx)
	if err != nil {
		return err
	}
	c.render(x, c.page(x, "user", UserData{Groups: groupOptions(groups)}))
	return nil
}

func (c *Console) userPageList(x *exchange) error {
	start, err := x.form.intOr("start", 0)
	if err != nil {
		return err
	}
	length, err := x.form.intOr("length", 10)
	if err != nil {
		return err
	}
	role, err := x.form.intReq("role")
	if err != nil {
		return err
	}
	f := schema.UserFilter{Username: x.form.text("username")}
	if role > -1 {
		f.Role = &role
	}
	list, total, err := c.store.UserPageList(x.ctx, start, length, f)
	if err != nil {
		return err
	}
	rows := make([]userJSON, 0, len(list))
	for _, u := range list {
		rows = append(rows, userJSON{ID: u.ID, Username: u.Username, Role: u.Role, Permission: u.Permission})
	}
	dataTable(x.w, rows, total)
	return nil
}

// hasText is Spring's StringUtils.hasText.
func hasText(s *string) bool {
	return s != nil && strings.IndexFunc(*s, func(r rune) bool { return !unicode.IsSpace(r) }) >= 0
}

func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

func javaLen(s string) int { return len(utf16.Encode([]rune(s))) }

// checkPassword trims a new password and checks its length (4–20).
func (c *Console) checkPassword(p string) (string, bool) {
	p = javaTrim(p)
	n := javaLen(p)
	return p, n >= 4 && n <= 20
}

func (c *Console) lengthLimit() string { return c.text("system_lengh_limit") + "[4-20]" }

func (c *Console) userAdd(x *exchange) error {
	role, err := x.form.beanInt("role")
	if err != nil {
		return err
	}
	name, pass, perm := x.form.str("username"), x.form.str("password"), x.form.str("permission")
	if !hasText(name) {
		fail(x.w, c.text("system_please_input")+c.text("user_username"))
		return nil
	}
	username := javaTrim(*name)
	if n := javaLen(username); n < 4 || n > 20 {
		fail(x.w, c.lengthLimit())
		return nil
	}
	if !hasText(pass) {
		fail(x.w, c.text("system_please_input")+c.text("user_password"))
		return nil
	}
	password, okLen := c.checkPassword(*pass)
	if !okLen {
		fail(x.w, c.lengthLimit())
		return nil
	}
	if perm != nil && javaLen(*perm) > 255 {
		fail(x.w, c.text("user_permission")+c.text("system_lengh_limit")+"[0-255]")
		return nil
	}
	if _, err := c.store.UserLoadByName(x.ctx, username); err == nil {
		fail(x.w, c.text("user_username_repeat"))
		return nil
	} else if !isNotFound(err) {
		return err
	}
	if _, err := c.store.UserSave(x.ctx, schema.User{Username: username, Password: PasswordHash(password), Role: role,
		Permission: perm}); err != nil {
		return err
	}
	c.log.Info().Str("username", username).Int("role", role).Str("by", x.user.Username).Msg("user added")
	ok(x.w, nil)
	return nil
}

func (c *Console) userUpdate(x *exchange) error {
	id, err := x.form.beanInt("id")
	if err != nil {
		return err
	}
	role, err := x.form.beanInt("role")
	if err != nil {
		return err
	}
	if x.form.text("username") == x.user.Username {
		fail(x.w, c.text("user_update_loginuser_limit"))
		return nil
	}
	u := schema.User{ID: id, Role: role, Permission: x.form.str("permission")}
	if p := x.form.str("password"); hasText(p) {
		password, okLen := c.checkPassword(*p)
		if !okLen {
			fail(x.w, c.lengthLimit())
			return nil
		}
		u.Password = PasswordHash(password)
	}
	if u.Permission != nil && javaLen(*u.Permission) > 255 {
		fail(x.w, c.text("user_permission")+c.text("system_lengh_limit")+"[0-255]")
		return nil
	}
	if _, err := c.store.UserUpdate(x.ctx, u); err != nil {
		return err
	}
	c.log.Info().Int("user_id", id).Int("role", role).Str("by", x.user.Username).Msg("user updated")
	ok(x.w, nil)
	return nil
}

func (c *Console) userRemove(x *exchange) error {
	id, err := x.form.intReq("id")
	if err != nil {
		return err
	}
	if id == x.user.ID {
		fail(x.w, c.text("user_update_loginuser_limit"))
		return nil
	}
	if _, err := c.store.UserDelete(x.ctx, id); err != nil {
		return err
	}
	c.log.Info().Int("user_id", id).Str("by", x.user.Username).Msg("user removed")
	ok(x.w, nil)
	return nil
}

// userUpdatePwd changes the logged-in user's own password; the old one
// must match. The session cookie of the old password stops working.
func (c *Console) userUpdatePwd(x *exchange) error {
	pass, old := x.form.str("password"), x.form.str("oldPassword")
	if blankStr(old) || blankStr(pass) {
		fail(x.w, c.text("system_please_input")+c.text("change_pwd_field_oldpwd"))
		return nil
	}
	password, okLen := c.checkPassword(*pass)
	if !okLen {
		fail(x.w, c.lengthLimit())
		return nil
	}
	u, err := c.store.UserLoadByName(x.ctx, x.user.Username)
	if err != nil {
		if errors.Is(err, schema.ErrNotFound) {
			return &cleanFailure{msg: c.text("change_pwd_field_oldpwd") + c.text("system_unvalid")}
		}
		return err
	}
	if PasswordHash(*old) != u.Password {
		fail(x.w, c.text("change_pwd_field_oldpwd")+c.text("system_unvalid"))
		return nil
	}
	u.Password = PasswordHash(password)
	if _, err := c.store.UserUpdate(x.ctx, u); err != nil {
		return err
	}
	c.log.Info().Str("username", u.Username).Msg("password changed")
	ok(x.w, nil)
	return nil
}
