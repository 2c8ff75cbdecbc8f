package main

import (
	"encoding/base64"
)

// token forges a login-cookie value: base64url of the given JSON (the
// form of a real token, with content of our choosing).
func token(json string) string { return base64.RawURLEncoding.EncodeToString([]byte(json)) }

func authScenarios() []scenario {
	const doLogin = "/auth/doLogin"
	return []scenario{
		{
			name:        "login_failures",
			description: "POST /auth/doLogin: wrong password, unknown user, empty fields, missing fields, GET.",
			calls: []call{
				formPOST(doLogin, "", kv("userName", "admin", "password", "wrong")).n("wrong password"),
				formPOST(doLogin, "", kv("userName", "nobody", "password", "123456")).n("unknown user"),
				formPOST(doLogin, "", kv("userName", "", "password", "")).n("both empty"),
				formPOST(doLogin, "", kv("userName", "admin", "password", "")).n("empty password"),
				formPOST(doLogin, "", kv("userName", "  ", "password", "123456")).n("blank user name"),
				formPOST(doLogin, "", nil).n("no parameters at all"),
				formPOST(doLogin, "", kv("userName", "admin", "password", "wrong", "ifRemember", "on")).n("wrong password, remember me"),
				pageGET(doLogin+"?userName=admin&password=123456", "").n("GET is not mapped (POST only)"),
			},
		},
		{
			name:        "login_success",
			description: "POST /auth/doLogin with the seed admin: plain, remember me, upper-case user name; a new login ends the previous session.",
			calls: []call{
				formPOST(doLogin, "", kv("userName", "admin", "password", "123456")).keepAs("first"),
				formPOST(doLogin, "", kv("userName", "admin", "password", "123456", "ifRemember", "on")).keepAs("second"),
				formPOST(doLogin, "", kv("userName", "ADMIN", "password", "123456")).n("user name in upper case").keepAs("third"),
				tablePOST("/jobinfo/pageList", "first", jobListQuery("2", "-1", "", "", "", "0", "10")).
					n("the first session after two more logins of the same user: its token is no longer the user's"),
				tablePOST("/jobinfo/pageList", "third", jobListQuery("2", "-1", "", "", "", "0", "10")).
					n("the newest session works"),
				pageGET("/auth/login", "third").n("the login page with a valid session redirects to the index"),
			},
		},
		{
			name:        "logout",
			description: "POST /auth/logout with and without a session; the token is invalidated on the server (3.x), GET is refused.",
			calls: []call{
				formPOST(doLogin, "", kv("userName", "admin", "password", "123456")).keepAs("s").db("user1"),
				formPOST("/auth/logout", "s", nil).n("logout with the session cookie").db("user1"),
				formPOST("/auth/logout", "", nil).n("logout without a cookie"),
				tablePOST("/jobinfo/pageList", "s", jobListQuery("2", "-1", "", "", "", "0", "10")).
					n("the cookie of the ended session is refused (the token was cleared)"),
				pageGET("/", "s").n("a page with the ended session"),
				formPOST("/auth/logout", "s", nil).n("logout again with the ended session"),
				pageGET("/auth/logout", "").n("GET is not mapped (POST only)"),
			},
		},
		{
			name:        "not_logged_in",
			description: "Calls without (or with an invalid) login token: JSON endpoints, pages, the login page, static files, the error page.",
			logins:      asAdmin,
			calls: []call{
				tablePOST("/jobinfo/pageList", "", jobListQuery("2", "-1", "", "", "", "0", "10")).n("JSON endpoint, no cookie"),
				pageGET("/", "").n("index, no cookie"),
				pageGET("/jobinfo", "").n("page, no cookie"),
				pageGET("/help", "").n("help page, no cookie"),
				pageGET("/auth/login", "").n("login page, no cookie"),
				pageGET("/auth/login", "admin").n("login page with a valid session"),
				formPOST("/chartInfo", "", nil).withCookie("not-a-token!").n("cookie value that is not base64"),
				formPOST("/chartInfo", "", nil).withCookie(token(`{"userId":"1","expireTime":0,"signature":"00000000000000000000000000000000"}`)).
					n("well-formed token of admin with a wrong signature"),
				formPOST("/chartInfo", "", nil).withCookie(token("hello")).n("base64 that is not JSON"),
				formPOST("/chartInfo", "", nil).withCookie(token(`{"userId":"1"}`)).n("token without a signature"),
				formPOST("/chartInfo", "", nil).withCookie(token(`{"userId":"999","signature":"00000000000000000000000000000000"}`)).
					n("token of an unknown user id"),
				formPOST("/chartInfo", "", nil).withCookie(token(`{"userId":"abc","signature":"00000000000000000000000000000000"}`)).
					n("token whose user id is not a number"),
				pageGET("/static/biz/common/admin.util.js", "").n("static file without login"),
				pageGET("/errorpage", "").n("the error page without login"),
				pageGET("/nope", "").n("unknown path without login"),
			},
		},
		{
			name:        "auth_updatePwd",
			description: "POST /auth/updatePwd (the header's 'change password' dialog) as user pwduser: each validation error, success; the session and the passwords afterwards.",
			logins:      []login{{"pwduser", "123456"}},
			calls: []call{
				formPOST("/auth/updatePwd", "pwduser", kv("oldPassword", "", "password", "abcd")).n("old password empty"),
				formPOST("/auth/updatePwd", "pwduser", kv("oldPassword", "123456", "password", "")).n("new password empty"),
				formPOST("/auth/updatePwd", "pwduser", kv("oldPassword", "123456", "password", "abc")).n("new password too short"),
				formPOST("/auth/updatePwd", "pwduser", kv("oldPassword", "123456", "password", "ppppppppppppppppppppp")).n("new password too long (21)"),
				formPOST("/auth/updatePwd", "pwduser", kv("oldPassword", "wrong1", "password", "newpass1")).n("wrong old password"),
				formPOST("/auth/updatePwd", "pwduser", kv("oldPassword", "123456", "password", " newpass1 ")).
					n("success; the new password is trimmed").db("user61"),
				tablePOST("/jobinfo/pageList", "pwduser", jobListQuery("2", "-1", "", "", "", "0", "10")).
					n("the session survives the password change"),
				formPOST(doLogin, "", kv("userName", "pwduser", "password", "123456")).n("the old password no longer logs in"),
				formPOST(doLogin, "", kv("userName", "pwduser", "password", "newpass1")).n("the new one does").keepAs("renewed"),
				formPOST("/auth/updatePwd", "", kv("oldPassword", "newpass1", "password", "abcd")).n("without login"),
				pageGET("/auth/updatePwd?oldPassword=newpass1&password=newpass2", "renewed").
					n("GET is mapped too (no method restriction)").db("user61"),
			},
		},
	}
}
