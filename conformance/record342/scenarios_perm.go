package main

import "time"

func permScenarios(now time.Time) []scenario {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	asNormal1 := []login{{"normal1", "123456"}}
	n1 := "normal1"
	// job3 is fixture job 3 (group 3) as the update dialog shows it.
	job3 := recJob()
	job3.group, job3.desc, job3.conf = "3", "other group job", "0 0 4 * * ?"
	return []scenario{
		{
			name:        "perm_normal_user_admin_only",
			description: "Normal user normal1 (role 0, permission '2') calls the admin-only endpoints and pages, and the executor lookup open to every user.",
			logins:      asNormal1,
			calls: []call{
				tablePOST("/jobgroup/pageList", n1, kv("appname", "", "title", "", "offset", "0", "pagesize", "10")),
				formPOST("/jobgroup/insert", n1, groupForm("evil-group", "evil", "0", "")),
				formPOST("/jobgroup/update", n1, append(groupForm("fake-executor", "evil", "1", "http://127.0.0.1:19991/"), kv("id", "2")...)),
				ajaxPOST("/jobgroup/delete", n1, ids("4")),
				ajaxPOST("/jobgroup/loadById", n1, kv("id", "2")).n("the job page's 'Registry Info': open to normal users in 3.4.2"),
				ajaxPOST("/jobgroup/loadById", n1, kv("id", "3")).n("a group the user has no permission for"),
				tablePOST("/user/pageList", n1, kv("username", "", "role", "-1", "offset", "0", "pagesize", "10")),
				formPOST("/user/insert", n1, userForm("evil1", "123456", "1")),
				formPOST("/user/update", n1, append(userForm("x", "", "1"), kv("id", "2")...)),
				ajaxPOST("/user/delete", n1, ids("1")).db("users", "groups"),
				pageGET("/jobgroup", n1).n("admin-only page"),
				pageGET("/user", n1).n("admin-only page"),
			},
		},
		{
			name: "perm_other_group",
			description: "Normal user normal1 (permission '2') on group 3's logs, jobs and GLUE code: what 3.x checks (log detail, kill, " +
				"GLUE IDE, run once, start/stop/delete, lists) and what it does not.",
			logins: asNormal1,
			calls: []call{
				pageGET("/joblog/logDetailPage?id=7", n1).n("log detail page of group 3"),
				ajaxPOST("/joblog/logDetailCat", n1, kv("logId", "7", "fromLineNum", "1")).n("log text of group 3"),
				ajaxPOST("/joblog/logKill", n1, kv("id", "6")).n("kill a group 3 log").db("log"),
				pageGET("/jobcode?jobId=5", n1).n("GLUE IDE of a group 3 job"),
				ajaxPOST("/jobcode/save", n1, kv("id", "5", "glueSource", "class B {}", "glueRemark", "evil edit")).
					n("save the GLUE code of a group 3 job").db("job"),
				ajaxPOST("/jobinfo/trigger", n1, kv("id", "3", "executorParam", "", "addressList", "")).n("run a group 3 job once"),
				ajaxPOST("/jobinfo/start", n1, ids("3")).n("start a group 3 job").db("job"),
				ajaxPOST("/jobinfo/stop", n1, ids("6")).n("stop a group 3 job"),
				ajaxPOST("/jobinfo/delete", n1, ids("6")).n("delete a group 3 job").db("job"),
				formPOST("/jobinfo/insert", n1, func() form { j := recJob(); j.group = "3"; return j.addForm() }()).n("add a job to group 3"),
				formPOST("/jobinfo/insert", n1, func() form { j := recJob(); j.desc, j.child = "child of other", "3"; return j.addForm() }()).
					n("add a job to group 2 with a group 3 job as child"),
				tablePOST("/jobinfo/pageList", n1, jobListQuery("3", "-1", "", "", "", "0", "10")).n("job list of group 3"),
				tablePOST("/joblog/pageList", n1, logListQuery("3", "0", "-1", "", "0", "10")).n("log list of group 3"),
				tablePOST("/joblog/pageList", n1, logListQuery("0", "0", "-1", "", "0", "10")).n("log list of all groups (jobGroup=0)"),
				formPOST("/joblog/clearLog", n1, kv("jobGroup", "3", "jobId", "0", "type", "9")).n("clear group 3's logs"),
				ajaxPOST("/chartInfo", n1, kv("startDate", today.AddDate(0, 0, -7).Format(dateTime),
					"endDate", today.Add(24*time.Hour-time.Second).Format(dateTime))).n("dashboard chart: counts of every group"),
				pageGET("/jobinfo?jobGroup=3", n1).n("job page asking for group 3"),
				pageGET("/joblog?jobId=3", n1).n("log page asking for a group 3 job"),
				formPOST("/jobinfo/update", n1, job3.updateForm("2")).n("move own job 2 into group 3"),
				formPOST("/jobinfo/update", n1, func() form { j := job3; j.group = "2"; return j.updateForm("3") }()).
					n("update group 3's job 3 naming group 2 in the form: the check uses the form's group").db("job"),
			},
		},
		{
			name:        "perm_permission_whitespace",
			description: "Normal user 'spaceuser' whose permission field is ' 2' (leading space): page group list, run once, add, log list.",
			logins:      []login{{"spaceuser", "123456"}},
			calls: []call{
				pageGET("/jobinfo", "spaceuser").n("page group list"),
				ajaxPOST("/jobinfo/trigger", "spaceuser", kv("id", "7", "executorParam", "", "addressList", "")).n("run once"),
				formPOST("/jobinfo/insert", "spaceuser", func() form { j := recJob(); j.desc = "space job"; return j.addForm() }()).n("add"),
				tablePOST("/joblog/pageList", "spaceuser", logListQuery("2", "0", "-1", "", "0", "10")).n("log list"),
			},
		},
		{
			name:        "pages_user_without_groups",
			description: "Normal user 'nogroups' with an empty permission field: job and log pages, index, help, dashboard, job list, chart.",
			logins:      []login{{"nogroups", "123456"}},
			calls: []call{
				pageGET("/jobinfo", "nogroups"),
				pageGET("/joblog", "nogroups"),
				pageGET("/", "nogroups"),
				pageGET("/help", "nogroups"),
				tablePOST("/jobinfo/pageList", "nogroups", jobListQuery("2", "-1", "", "", "", "0", "10")).n("JSON list of a group without permission"),
				pageGET("/dashboard", "nogroups"),
				ajaxPOST("/chartInfo", "nogroups", kv("startDate", today.AddDate(0, 0, -7).Format(dateTime),
					"endDate", today.Add(24*time.Hour-time.Second).Format(dateTime))).n("dashboard chart"),
			},
		},
	}
}
