package console

import (
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
)

// The JSON endpoints of the 3.4.2 JobUserController, admins only. Where
// 3.4.2 differs from 2.4.2: the Response envelope and PageModel,
// add/remove renamed insert/delete, delete takes "ids[]" (exactly one),
// passwords are stored as SHA-256 (PasswordHash34), and the list carries
// each user's login token — null here (userJSON34).
//
// Ours on top, as on the 2.x console: a permission wider than its column
// (255) is refused up front, and an admin may not update its own account
// by naming it by id under another username (3.4.2 compares the username
// only).

func (c *Console) userPageList34(x *exchange) error {
	offset, err := x.form.intOr("offset", 0)
	if err != nil {
		return err
	}
	pagesize, err := x.form.intOr("pagesize", 10)
	if err != nil {
		return err
	}
	username, err := x.form.reqString("username")
	if err != nil {
		return err
	}
	role, err := x.form.intReq("role")
	if err != nil {
		return err
	}
	f := schema.UserFilter{Username: username}
	if role > -1 {
		f.Role = &role
	}
	list, total, err := c.store.UserPageList(x.ctx, offset, pagesize, f)
	if err != nil {
		return err
	}
	rows := make([]userJSON34, 0, len(list))
	for _, u := range list {
		rows = append(rows, userJSON34{ID: u.ID, Username: u.Username, Role: u.Role, Permission: u.Permission})
	}
	okPage34(x.w, rows, total)
	return nil
}

// lengthLimit34 is "长度限制[4-20]", the username and password refusal.
func (c *Console) lengthLimit34() string { return c.text("system_length_limit") + "[4-20]" }

// permissionTooLong34 refuses a permission wider than xxl_job_user.permission.
func (c *Console) permissionTooLong34(x *exchange, perm *string) bool {
	if perm == nil || javaLen(*perm) <= 255 {
		return false
	}
	fail34(x.w, c.text("user_permission")+c.text("system_length_limit")+"[0-255]")
	return true
}

func (c *Console) userInsert34(x *exchange) error {
	if _, err := x.form.beanInt("id"); err != nil {
		return err
	}
	role, err := x.form.beanInt("role")
	if err != nil {
		return err
	}
	name, pass, perm := x.form.joined("username"), x.form.joined("password"), x.form.joined("permission")
	if blankStr(name) {
		fail34(x.w, c.text("system_please_input")+c.text("user_username"))
		return nil
	}
	username := javaTrim(*name)
	if n := javaLen(username); n < 4 || n > 20 {
		fail34(x.w, c.lengthLimit34())
		return nil
	}
	if blankStr(pass) {
		fail34(x.w, c.text("system_please_input")+c.text("user_password"))
		return nil
	}
	password, okLen := c.checkPassword(*pass)
	if !okLen {
		fail34(x.w, c.lengthLimit34())
		return nil
	}
	if _, err := c.store.UserLoadByName(x.ctx, username); err == nil {
		fail34(x.w, c.text("user_username_repeat"))
		return nil
	} else if !isNotFound(err) {
		return err
	}
	if c.permissionTooLong34(x, perm) {
		return nil
	}
	if _, err := c.store.UserSave(x.ctx, schema.User{Username: username, Password: PasswordHash34(password), Role: role,
		Permission: perm}); err != nil {
		return err
	}
	c.log.Info().Str("username", username).Int("role", role).Str("by", x.user.Username).Msg("user added")
	ok34(x.w, nil)
	return nil
}

func (c *Console) userUpdate34(x *exchange) error {
	id, err := x.form.beanInt("id")
	if err != nil {
		return err
	}
	role, err := x.form.beanInt("role")
	if err != nil {
		return err
	}
	// The own account is recognised by the user name sent, as 3.4.2 does:
	// an admin who sends another name with the own id changes only its
	// own role and groups (the name is never written).
	if name := x.form.joined("username"); name != nil && *name == x.user.Username {
		fail34(x.w, c.text("user_update_loginuser_limit"))
		return nil
	}
	u := schema.User{ID: id, Role: role, Permission: x.form.joined("permission")}
	if p := x.form.joined("password"); !blankStr(p) {
		password, okLen := c.checkPassword(*p)
		if !okLen {
			fail34(x.w, c.lengthLimit34())
			return nil
		}
		u.Password = PasswordHash34(password)
	}
	if c.permissionTooLong34(x, u.Permission) {
		return nil
	}
	if _, err := c.store.UserUpdate(x.ctx, u); err != nil {
		return err
	}
	c.log.Info().Int("user_id", id).Int("role", role).Str("by", x.user.Username).Msg("user updated")
	ok34(x.w, nil)
	return nil
}

func (c *Console) userDelete34(x *exchange) error {
	id, one, err := x.form.oneID("ids[]")
	if err != nil {
		return err
	}
	if !one {
		fail34(x.w, c.pleaseChooseOne())
		return nil
	}
	if id == x.user.ID {
		fail34(x.w, c.text("user_update_loginuser_limit"))
		return nil
	}
	if _, err := c.store.UserDelete(x.ctx, id); err != nil {
		return err
	}
	c.log.Info().Int("user_id", id).Str("by", x.user.Username).Msg("user removed")
	ok34(x.w, nil)
	return nil
}
