package console

import "maps"

// ssoException is the class name xxl-sso's interceptor failures carry in
// their toString (the 3.4.2 console's JSON and error-page texts).
const ssoException = "com.xxl.sso.core.exception.XxlSsoException: "

// routeTable34 lists the console routes of the 3.4.2 admin, relative to
// the context path. The
// access levels are its @XxlSso annotations: login=false is anyone, the
// default is member, role=ADMIN is admin.
func (c *Console) routeTable34() map[string]endpoint {
	table := map[string]endpoint{
		// IndexController
		"/":          {access: member, page: true, serve: (*Console).frame},
		"/dashboard": {access: member, page: true, serve: (*Console).dashboard},
		"/chartInfo": {access: member, serve: (*Console).chartInfo34},
		"/help":      {access: member, page: true, serve: (*Console).help34},
		"/errorpage": {access: anyone, page: true, serve: (*Console).errorPage},

		// LoginController
		"/auth/login":     {access: anyone, page: true, serve: (*Console).authLogin},
		"/auth/doLogin":   {access: anyone, post: true, writes: true, serve: (*Console).loginPassword},
		"/auth/logout":    {access: anyone, post: true, writes: true, serve: (*Console).authLogout},
		"/auth/updatePwd": {access: member, writes: true, serve: (*Console).authUpdatePwd},

		// The pages of JobInfoController, JobLogController, JobCodeController,
		// JobGroupController and JobUserController (pages34_*.go).
		"/jobinfo":              {access: member, page: true, serve: (*Console).jobinfoPage34},
		"/joblog":               {access: member, page: true, serve: (*Console).joblogPage34},
		"/joblog/logDetailPage": {access: member, page: true, serve: (*Console).joblogDetailPage34},
		"/jobcode":              {access: member, page: true, serve: (*Console).jobcodePage34},
		"/jobgroup":             {access: admin, page: true, serve: (*Console).jobgroupPage34},
		"/user":                 {access: admin, page: true, serve: (*Console).userPage34},

		// Ours: the job list's export and import (transfer.go), under a
		// prefix of our own name, which no Java controller can have.
		exportPath34: {access: member, serve: (*Console).jobinfoExport},
		importPath34: {access: admin, post: true, writes: true, serve: (*Console).jobinfoImport},
	}
	maps.Copy(table, c.jsonRoutes34())
	return table
}

// jsonRoutes34 are the JSON endpoints of the 3.4.2 business controllers
// and JobUserController. Every one takes any method (@RequestMapping);
// JobGroupController's and JobUserController's need role ADMIN, except
// /jobgroup/loadById (open to every user since 3.3.2).
func (c *Console) jsonRoutes34() map[string]endpoint {
	return map[string]endpoint{
		// JobInfoController
		"/jobinfo/pageList":        {access: member, serve: (*Console).jobinfoPageList34},
		"/jobinfo/insert":          {access: member, writes: true, serve: (*Console).jobinfoInsert34},
		"/jobinfo/update":          {access: member, writes: true, serve: (*Console).jobinfoUpdate34},
		"/jobinfo/delete":          {access: member, writes: true, serve: (*Console).jobinfoDelete34},
		"/jobinfo/start":           {access: member, writes: true, serve: (*Console).jobinfoStart34},
		"/jobinfo/stop":            {access: member, writes: true, serve: (*Console).jobinfoStop34},
		"/jobinfo/trigger":         {access: member, writes: true, serve: (*Console).jobinfoTrigger34},
		"/jobinfo/nextTriggerTime": {access: member, serve: (*Console).jobinfoNextTriggerTime34},

		// JobCodeController
		"/jobcode/save": {access: member, writes: true, serve: (*Console).jobcodeSave34},

		// JobLogController
		"/joblog/pageList":     {access: member, serve: (*Console).joblogPageList34},
		"/joblog/logDetailCat": {access: member, serve: (*Console).joblogDetailCat34},
		"/joblog/logKill":      {access: member, writes: true, serve: (*Console).joblogKill34},
		"/joblog/clearLog":     {access: member, writes: true, serve: (*Console).joblogClear34},

		// JobGroupController
		"/jobgroup/pageList": {access: admin, serve: (*Console).jobgroupPageList34},
		"/jobgroup/insert":   {access: admin, writes: true, serve: (*Console).jobgroupInsert34},
		"/jobgroup/update":   {access: admin, writes: true, serve: (*Console).jobgroupUpdate34},
		"/jobgroup/delete":   {access: admin, writes: true, serve: (*Console).jobgroupDelete34},
		"/jobgroup/loadById": {access: member, serve: (*Console).jobgroupLoadByID34},

		// JobUserController
		"/user/pageList": {access: admin, serve: (*Console).userPageList34},
		"/user/insert":   {access: admin, writes: true, serve: (*Console).userInsert34},
		"/user/update":   {access: admin, writes: true, serve: (*Console).userUpdate34},
		"/user/delete":   {access: admin, writes: true, serve: (*Console).userDelete34},
	}
}

// The 3.x paths of the job list's export and import. The 2.x console keeps
// /jobinfo/export and /jobinfo/import: 2.4.2 is final, no Java release will
// add routes there. The 3.x line is alive and its /jobinfo/ namespace is
// JobInfoController's, where a later release may add an export of its own
// (3.5.0 plans task management in its OpenAPI); our additions are under
// /xxl-admin-go/, a first path segment no xxl-job controller uses, so a
// Java page, script or client never reaches ours by its own path, and ours
// never shadow one of Java's.
const (
	exportPath34 = "/xxl-admin-go/jobinfo/export"
	importPath34 = "/xxl-admin-go/jobinfo/import"
)
