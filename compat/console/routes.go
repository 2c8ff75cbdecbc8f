package console

import (
	"net/http"
	"strings"
)

// access is the login a route needs (Java's @PermissionLimit, console.md §1.1).
type access int

const (
	anyone access = iota // limit=false: /toLogin, /login, /logout
	member               // logged in, any role
	admin                // logged in with role 1
)

// endpoint is one console route.
type endpoint struct {
	access access
	post   bool // POST only: other methods get 405 (Java's @PostMapping)
	page   bool // renders HTML: failures show the error page
	writes bool // changes state: refused when a browser sends it cross-site
	serve  func(c *Console, x *exchange) error
}

// routeTable lists every console route of the 2.4.2 admin (console.md §2–§7),
// relative to the context path.
func (c *Console) routeTable() map[string]endpoint {
	return map[string]endpoint{
		// index (IndexController)
		"/":          {access: member, page: true, serve: (*Console).index},
		"/toLogin":   {access: anyone, page: true, serve: (*Console).loginPage},
		"/login":     {access: anyone, post: true, writes: true, serve: (*Console).loginPassword},
		"/logout":    {access: anyone, post: true, writes: true, serve: (*Console).logoutSignin},
		"/chartInfo": {access: member, serve: (*Console).chartInfo},
		"/help":      {access: member, page: true, serve: (*Console).help},

		// jobgroup (JobGroupController): admins only
		"/jobgroup":          {access: admin, page: true, serve: (*Console).jobgroupPage},
		"/jobgroup/pageList": {access: admin, serve: (*Console).jobgroupPageList},
		"/jobgroup/save":     {access: admin, writes: true, serve: (*Console).jobgroupSave},
		"/jobgroup/update":   {access: admin, writes: true, serve: (*Console).jobgroupUpdate},
		"/jobgroup/remove":   {access: admin, writes: true, serve: (*Console).jobgroupRemove},
		"/jobgroup/loadById": {access: admin, serve: (*Console).jobgroupLoadByID},

		// jobinfo (JobInfoController)
		"/jobinfo":                 {access: member, page: true, serve: (*Console).jobinfoPage},
		"/jobinfo/pageList":        {access: member, serve: (*Console).jobinfoPageList},
		"/jobinfo/add":             {access: member, writes: true, serve: (*Console).jobinfoAdd},
		"/jobinfo/update":          {access: member, writes: true, serve: (*Console).jobinfoUpdate},
		"/jobinfo/remove":          {access: member, writes: true, serve: (*Console).jobinfoRemove},
		"/jobinfo/stop":            {access: member, writes: true, serve: (*Console).jobinfoStop},
		"/jobinfo/start":           {access: member, writes: true, serve: (*Console).jobinfoStart},
		"/jobinfo/trigger":         {access: member, writes: true, serve: (*Console).jobinfoTrigger},
		"/jobinfo/nextTriggerTime": {access: member, serve: (*Console).jobinfoNextTriggerTime},
		"/jobinfo/export":          {access: member, serve: (*Console).jobinfoExport},                          // new (transfer.go)
		"/jobinfo/import":          {access: admin, post: true, writes: true, serve: (*Console).jobinfoImport}, // new (transfer.go)

		// joblog (JobLogController)
		"/joblog":                {access: member, page: true, serve: (*Console).joblogPage},
		"/joblog/getJobsByGroup": {access: member, serve: (*Console).joblogJobsByGroup},
		"/joblog/pageList":       {access: member, serve: (*Console).joblogPageList},
		"/joblog/logDetailPage":  {access: member, page: true, serve: (*Console).joblogDetailPage},
		"/joblog/logDetailCat":   {access: member, serve: (*Console).joblogDetailCat},
		"/joblog/logKill":        {access: member, writes: true, serve: (*Console).joblogKill},
		"/joblog/clearLog":       {access: member, writes: true, serve: (*Console).joblogClear},

		// jobcode (JobCodeController)
		"/jobcode":      {access: member, page: true, serve: (*Console).jobcodePage},
		"/jobcode/save": {access: member, writes: true, serve: (*Console).jobcodeSave},

		// user (JobUserController)
		"/user":           {access: admin, page: true, serve: (*Console).userPage},
		"/user/pageList":  {access: admin, serve: (*Console).userPageList},
		"/user/add":       {access: admin, writes: true, serve: (*Console).userAdd},
		"/user/update":    {access: admin, writes: true, serve: (*Console).userUpdate},
		"/user/remove":    {access: admin, writes: true, serve: (*Console).userRemove},
		"/user/updatePwd": {access: member, writes: true, serve: (*Console).userUpdatePwd},
	}
}

// routes is the console's handler: static files, then the route table of
// the database's generation.
func (c *Console) routes() http.Handler {
	table := c.routeTable()
	if c.gen3 {
		table = c.routeTable34()
	}
	c.signinRoutes(table)
	c.workflowRoutes(table)
	base := c.cfg.ContextPath
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := strings.TrimPrefix(r.URL.Path, base)
		if path == "" {
			http.Redirect(w, r, base+"/", http.StatusFound)
			return
		}
		if strings.HasPrefix(path, "/static/") {
			c.static.serve(w, r, strings.TrimPrefix(path, "/static/"))
			return
		}
		if len(path) > 1 {
			path = strings.TrimSuffix(path, "/") // Spring matches a trailing slash too
		}
		rt, ok := table[path]
		if !ok {
			if c.gen3 {
				// 3.4.2: the 404 error page, logged in or not.
				c.errorPage34(&exchange{w: w, r: r, ctx: r.Context()}, http.StatusNotFound)
				return
			}
			c.notFound(w, r)
			return
		}
		c.dispatch(w, r, rt)
	})
}
