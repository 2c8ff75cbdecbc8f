package main

import "strings"

func jobgroupScenarios() []scenario {
	const exec = "http://127.0.0.1:19991/"
	list := func(app, title, offset, size string) form {
		return kv("appname", app, "title", title, "offset", offset, "pagesize", size)
	}
	return []scenario{
		{
			name:        "jobgroup_pageList",
			description: "POST /jobgroup/pageList with the executor page's parameters: no filter, appname, title, paging.",
			logins:      asAdmin,
			calls: []call{
				tablePOST("/jobgroup/pageList", "admin", list("", "", "0", "10")),
				tablePOST("/jobgroup/pageList", "admin", list("fake", "", "0", "10")).n("appname filter"),
				tablePOST("/jobgroup/pageList", "admin", list("", "执行器", "0", "10")).n("title filter"),
				tablePOST("/jobgroup/pageList", "admin", list("", "", "1", "2")).n("paging"),
			},
		},
		{
			name:        "jobgroup_insert",
			description: "POST /jobgroup/insert success cases (automatic and manual registration).",
			logins:      asAdmin,
			calls: []call{
				formPOST("/jobgroup/insert", "admin", groupForm("rec-auto", "自动组", "0", "")).db("groups"),
				formPOST("/jobgroup/insert", "admin", groupForm("rec-manual", "手动组", "1", exec+",http://127.0.0.1:19992/")).db("groups"),
			},
		},
		{
			name:        "jobgroup_insert_validation",
			description: "POST /jobgroup/insert: every validation error in check order, and what 3.4.2 no longer rejects.",
			logins:      asAdmin,
			calls: []call{
				formPOST("/jobgroup/insert", "admin", groupForm("", "abcd", "0", "")).n("empty appname"),
				formPOST("/jobgroup/insert", "admin", groupForm("abc", "abcd", "0", "")).n("appname too short"),
				formPOST("/jobgroup/insert", "admin", groupForm(strings.Repeat("a", 65), "abcd", "0", "")).n("appname too long (65)"),
				formPOST("/jobgroup/insert", "admin", groupForm("ab<script>x</script>", "abcd", "0", "")).n("appname with a script tag"),
				formPOST("/jobgroup/insert", "admin", groupForm("abcd-x", "", "0", "")).n("empty title"),
				formPOST("/jobgroup/insert", "admin", groupForm("abcd-x", "<img src=x onerror=alert(1)>", "0", "")).n("title with an event handler"),
				formPOST("/jobgroup/insert", "admin", groupForm("abcd-x", "abcd", "1", "")).n("manual, empty addressList"),
				formPOST("/jobgroup/insert", "admin", groupForm("abcd-x", "abcd", "1", "javascript:alert(1)")).n("manual, addressList with javascript:"),
				formPOST("/jobgroup/insert", "admin", groupForm("abcd-x", "abcd", "1", "http://127.0.0.1:1/,,http://127.0.0.1:2/")).n("manual, blank item"),
				formPOST("/jobgroup/insert", "admin", groupForm("abcd-x", "abcd", "1", "127.0.0.1:9999")).n("manual, address without http(s)://"),
				formPOST("/jobgroup/insert", "admin", groupForm("abcd-x", "abcd", "x", "")).n("addressType not a number"),
				formPOST("/jobgroup/insert", "admin", groupForm("ab<cd>", "<b>bold</b>", "0", "")).
					n("markup without a script pattern is accepted (2.4.2 rejected < and >)").db("groups"),
				formPOST("/jobgroup/insert", "admin", groupForm("abcd-long-title", strings.Repeat("t", 65), "0", "")).
					n("title longer than the column (varchar 64)").db("groups"),
			},
		},
		{
			name:        "jobgroup_update",
			description: "POST /jobgroup/update: unchanged save, automatic registration (address list from the registry), validation, unknown id.",
			logins:      asAdmin,
			calls: []call{
				formPOST("/jobgroup/update", "admin", append(groupForm("empty-group", "空执行器", "1", exec), kv("id", "4")...)).
					n("group 4 saved unchanged: only update_time moves").db("groups"),
				formPOST("/jobgroup/update", "admin", append(groupForm("xxl-job-executor-sample", "通用执行器Sample", "0", ""), kv("id", "1")...)).
					n("automatic registration: the address list is rebuilt from the registry (none)").db("groups"),
				formPOST("/jobgroup/update", "admin", append(groupForm("empty-group", "", "1", exec), kv("id", "4")...)).n("empty title"),
				formPOST("/jobgroup/update", "admin", append(groupForm("empty-group", "空执行器", "1", "ftp://127.0.0.1/"), kv("id", "4")...)).
					n("manual, address without http(s)://"),
				formPOST("/jobgroup/update", "admin", append(groupForm("nobody-here", "nobody", "1", exec), kv("id", "999")...)).n("unknown id"),
				formPOST("/jobgroup/update", "admin", groupForm("empty-group", "空执行器", "1", exec)).n("id missing"),
			},
		},
		{
			name:        "jobgroup_loadById",
			description: "POST /jobgroup/loadById (the job page's 'Registry Info'): existing and unknown id.",
			logins:      asAdmin,
			calls: []call{
				ajaxPOST("/jobgroup/loadById", "admin", kv("id", "2")),
				ajaxPOST("/jobgroup/loadById", "admin", kv("id", "999")),
			},
		},
		{
			name:        "jobgroup_delete",
			description: "POST /jobgroup/delete (ids[]): group that still has jobs, an empty group, an unknown id, several ids.",
			logins:      asAdmin,
			calls: []call{
				ajaxPOST("/jobgroup/delete", "admin", ids("2")).n("group 2 has jobs"),
				ajaxPOST("/jobgroup/delete", "admin", ids("50")).n("empty group (inserted just before)").db("groups"),
				ajaxPOST("/jobgroup/delete", "admin", ids("999")).n("unknown id"),
				ajaxPOST("/jobgroup/delete", "admin", ids("4", "1")).n("two ids").db("groups"),
			},
		},
	}
}
