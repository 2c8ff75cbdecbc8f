package main

import "strings"

func userScenarios() []scenario {
	list := func(note, name, role, offset, size string) call {
		return tablePOST("/user/pageList", "admin", kv("username", name, "role", role, "offset", offset, "pagesize", size)).n(note)
	}
	insert := func(note string, f form) call { return formPOST("/user/insert", "admin", f).n(note) }
	update := func(note, id string, f form) call {
		return formPOST("/user/update", "admin", append(f, kv("id", id)...)).n(note)
	}
	return []scenario{
		{
			name:        "user_pageList",
			description: "POST /user/pageList: no filter, username filter, role filters.",
			logins:      asAdmin,
			calls: []call{
				list("all", "", "-1", "0", "10"),
				list("username filter", "norm", "-1", "0", "10"),
				list("role=1", "", "1", "0", "10"),
				list("role=0", "", "0", "0", "10"),
			},
		},
		{
			name:        "user_insert",
			description: "POST /user/insert: success and each validation error.",
			logins:      asAdmin,
			calls: []call{
				insert("two groups checked: two permission fields", userForm("newuser1", "pass1234", "0", "2", "3")).db("users"),
				insert("empty username", userForm("", "pass1234", "0")),
				insert("username too short", userForm("abc", "pass1234", "0")),
				insert("username too long (21)", userForm(strings.Repeat("u", 21), "pass1234", "0")),
				insert("empty password", userForm("newuser2", "", "0")),
				insert("password too short", userForm("newuser2", "abc", "0")),
				insert("password too long (21)", userForm("newuser2", strings.Repeat("p", 21), "0")),
				insert("username exists", userForm("newuser1", "pass1234", "0")),
				insert("username exists, other case", userForm("NEWUSER1", "pass1234", "0")),
				insert("username with capitals/symbols (UI-only rule)", userForm("Bad<User>", "pass1234", "1")).db("users"),
				insert("username and password with surrounding spaces (trimmed)", userForm("  spaced1  ", "  pass1234  ", "0")).db("users"),
				insert("role not a number", userForm("newuser3", "pass1234", "x")),
			},
		},
		{
			name:        "user_update",
			description: "POST /user/update: success (password, role, permission), blank password keeps it, short password, own account, the username is never written.",
			logins:      asAdmin,
			calls: []call{
				update("", "3", userForm("victim1", "newpass1", "0", "3", "4")).db("user3"),
				update("blank password: unchanged", "3", userForm("victim1", "", "1")).db("user3"),
				update("password too short", "3", userForm("victim1", "abc", "0", "3")),
				update("own account", "1", userForm("admin", "", "1")),
				update("username is never written", "3", userForm("renamed", "123456", "0", "3")).db("user3"),
				update("own id under another username (the check compares usernames)", "1", userForm("someone", "", "1")).db("users"),
				update("unknown id", "9999", userForm("ghost", "", "0")),
			},
		},
		{
			name:        "user_delete",
			description: "POST /user/delete (ids[]): own account, another user, unknown id, several ids.",
			logins:      asAdmin,
			calls: []call{
				ajaxPOST("/user/delete", "admin", ids("1")).n("own account"),
				ajaxPOST("/user/delete", "admin", ids("60")).n("user 60 (inserted just before)").db("users"),
				ajaxPOST("/user/delete", "admin", ids("9999")).n("unknown id"),
				ajaxPOST("/user/delete", "admin", ids("2", "3")).n("two ids").db("users"),
			},
		},
	}
}
