package console

// ssoException is the class name xxl-sso's interceptor failures carry in
// their toString (the 3.4.2 console's JSON and error-page texts).
const ssoException = "com.xxl.sso.core.exception.XxlSsoException: "

// routeTable34 lists the console routes of the 3.4.2 admin, relative to
// the context path: the login (LoginController) and the error page. The
// access levels are its @XxlSso annotations: login=false is anyone, the
// default is member, role=ADMIN is admin.
func (c *Console) routeTable34() map[string]endpoint {
	return map[string]endpoint{
		// LoginController
		"/auth/login":     {access: anyone, page: true, serve: (*Console).authLogin},
		"/auth/doLogin":   {access: anyone, post: true, writes: true, serve: (*Console).authDoLogin},
		"/auth/logout":    {access: anyone, post: true, writes: true, serve: (*Console).authLogout},
		"/auth/updatePwd": {access: member, writes: true, serve: (*Console).authUpdatePwd},
	}
}
