package console

// ssoException is the class name xxl-sso's interceptor failures carry in
// their toString (the 3.4.2 console's JSON and error-page texts).
const ssoException = "com.xxl.sso.core.exception.XxlSsoException: "

// routeTable34 lists the console routes of the 3.4.2 admin, relative to
// the context path. The
// access levels are its @XxlSso annotations: login=false is anyone, the
// default is member, role=ADMIN is admin.
func (c *Console) routeTable34() map[string]endpoint {
	return map[string]endpoint{
		// IndexController
		"/":          {access: member, page: true, serve: (*Console).frame},
		"/dashboard": {access: member, page: true, serve: (*Console).dashboard},
		"/chartInfo": {access: member, serve: (*Console).chartInfo34},
		"/help":      {access: member, page: true, serve: (*Console).help34},
		"/errorpage": {access: anyone, page: true, serve: (*Console).errorPage},

		// LoginController
		"/auth/login":     {access: anyone, page: true, serve: (*Console).authLogin},
		"/auth/doLogin":   {access: anyone, post: true, writes: true, serve: (*Console).authDoLogin},
		"/auth/logout":    {access: anyone, post: true, writes: true, serve: (*Console).authLogout},
		"/auth/updatePwd": {access: member, writes: true, serve: (*Console).authUpdatePwd},
	}
}
