package main

func jobinfoScenarios() []scenario {
	withJob := func(f func(*job)) job {
		j := recJob()
		f(&j)
		return j
	}
	add := func(note string, f func(*job)) call {
		return formPOST("/jobinfo/insert", "admin", withJob(f).addForm()).n(note)
	}
	keep := func(*job) {}
	list := func(note, group, status, desc, handler, author, offset, size string) call {
		return tablePOST("/jobinfo/pageList", "admin", jobListQuery(group, status, desc, handler, author, offset, size)).n(note)
	}
	// job7 is fixture job 7 as the update dialog shows it.
	job7 := withJob(func(j *job) { j.desc, j.schedType, j.conf = "fix rate job", "FIX_RATE", "3600" })
	return []scenario{
		{
			name:        "jobinfo_pageList",
			description: "POST /jobinfo/pageList with each filter the job page sends.",
			logins:      asAdmin,
			calls: []call{
				list("group 2, all", "2", "-1", "", "", "", "0", "10"),
				list("triggerStatus=0", "2", "0", "", "", "", "0", "10"),
				list("triggerStatus=1", "2", "1", "", "", "", "0", "10"),
				list("jobDesc filter", "2", "-1", "glue", "", "", "0", "10"),
				list("executorHandler filter", "2", "-1", "", "demo", "", "0", "10"),
				list("author filter", "2", "-1", "", "", "re", "0", "10"),
				list("paging", "2", "-1", "", "", "", "1", "2"),
				list("jobGroup=0", "0", "-1", "", "", "", "0", "10"),
				list("jobGroup=-1 (the page's 'all')", "-1", "-1", "", "", "", "0", "10"),
				tablePOST("/jobinfo/pageList", "admin", kv("offset", "0", "pagesize", "10")).n("jobGroup/triggerStatus missing"),
			},
		},
		{
			name:        "jobinfo_insert",
			description: "POST /jobinfo/insert success cases: BEAN+CRON, FIX_RATE, NONE, GLUE_SHELL with \\r, child ids, markup in text fields.",
			logins:      asAdmin,
			calls: []call{
				add("BEAN + CRON", keep).db("job"),
				add("FIX_RATE", func(j *job) { j.desc, j.schedType, j.conf = "rate job", "FIX_RATE", "30" }),
				add("NONE", func(j *job) { j.desc, j.schedType, j.conf = "none job", "NONE", "" }),
				call{kind: post, path: "/jobinfo/insert", as: "admin", form: withJob(func(j *job) {
					j.desc, j.glueType, j.handler = "shell glue", "GLUE_SHELL", ""
				}).addForm().with("glueSource", "#!/bin/bash\r\necho hi\r\n")}.n("GLUE_SHELL: \\r removed from glueSource").db("job"),
				add("childJobId with trailing comma", func(j *job) { j.desc, j.child = "with children", "2,4," }).db("job"),
				add("markup in jobDesc/author is stored as is", func(j *job) { j.desc, j.author = "<script>alert(1)</script>", "<b>x</b>" }).db("job"),
				add("handler with surrounding spaces (trimmed)", func(j *job) { j.desc, j.handler = "spaces", "  demoJobHandler  " }).db("job"),
			},
		},
		{
			name:        "jobinfo_insert_validation",
			description: "POST /jobinfo/insert: each validation error in check order.",
			logins:      asAdmin,
			calls: []call{
				add("unknown group", func(j *job) { j.group = "999" }),
				add("empty jobDesc", func(j *job) { j.desc = "" }),
				add("empty author", func(j *job) { j.author = "" }),
				add("unknown scheduleType", func(j *job) { j.schedType = "WEEKLY" }),
				add("invalid cron", func(j *job) { j.conf = "not a cron" }),
				formPOST("/jobinfo/insert", "admin", recJob().addForm().with("scheduleConf", remove)).n("CRON without scheduleConf"),
				formPOST("/jobinfo/insert", "admin", withJob(func(j *job) { j.schedType = "FIX_RATE" }).addForm().with("scheduleConf", remove)).
					n("FIX_RATE without scheduleConf"),
				add("FIX_RATE abc", func(j *job) { j.schedType, j.conf = "FIX_RATE", "abc" }),
				add("FIX_RATE 0", func(j *job) { j.schedType, j.conf = "FIX_RATE", "0" }),
				add("FIX_DELAY (not supported)", func(j *job) { j.schedType, j.conf = "FIX_DELAY", "10" }),
				add("unknown glueType", func(j *job) { j.glueType = "GLUE_COBOL" }),
				add("BEAN without handler", func(j *job) { j.handler = "" }),
				add("unknown route", func(j *job) { j.route = "NEAREST" }),
				add("unknown misfire", func(j *job) { j.misfire = "LATER" }),
				add("unknown block strategy", func(j *job) { j.block = "QUEUE" }),
				add("child job id does not exist", func(j *job) { j.child = "9999" }),
				add("child job id not numeric", func(j *job) { j.child = "abc" }),
				add("child job id list with blank item", func(j *job) { j.child = "2,,4" }),
				add("child job id with markup (echoed in msg)", func(j *job) { j.child = "<img src=x onerror=alert(1)>" }),
				add("executorTimeout not numeric (binding error)", func(j *job) { j.timeout = "abc" }),
				add("jobGroup not numeric (binding error)", func(j *job) { j.group = "abc" }),
			},
		},
		{
			name:        "jobinfo_update",
			description: "POST /jobinfo/update: success (BEAN job with an empty handler is accepted), each validation error, unknown id.",
			logins:      asAdmin,
			calls: []call{
				formPOST("/jobinfo/update", "admin", withJob(func(j *job) { *j = job7; j.handler = "" }).updateForm("7")).
					n("job 7 saved with an empty handler (update does not check it)").db("job"),
				formPOST("/jobinfo/update", "admin", job7.updateForm("9999")).n("unknown id"),
				formPOST("/jobinfo/update", "admin", withJob(func(j *job) { *j = job7; j.child = "7" }).updateForm("7")).n("child id is the job itself"),
				formPOST("/jobinfo/update", "admin", withJob(func(j *job) { *j = job7; j.group = "999" }).updateForm("7")).n("unknown group"),
				formPOST("/jobinfo/update", "admin", withJob(func(j *job) { *j = job7; j.desc = "" }).updateForm("7")).n("empty jobDesc"),
				formPOST("/jobinfo/update", "admin", withJob(func(j *job) { *j = job7; j.conf = "0" }).updateForm("7")).n("FIX_RATE 0"),
				formPOST("/jobinfo/update", "admin", withJob(func(j *job) { *j = job7; j.misfire = "LATER" }).updateForm("7")).n("unknown misfire"),
			},
		},
		{
			name:        "jobinfo_start_stop",
			description: "POST /jobinfo/start and /stop (ids[]): CRON job, NONE job, unknown id, several ids, no ids.",
			logins:      asAdmin,
			calls: []call{
				ajaxPOST("/jobinfo/start", "admin", ids("2")).db("job"),
				ajaxPOST("/jobinfo/stop", "admin", ids("2")).db("job"),
				ajaxPOST("/jobinfo/start", "admin", ids("8")).n("NONE schedule type"),
				ajaxPOST("/jobinfo/start", "admin", ids("9999")).n("unknown id"),
				ajaxPOST("/jobinfo/stop", "admin", ids("9999")).n("unknown id"),
				ajaxPOST("/jobinfo/start", "admin", ids("2", "7")).n("two ids (batch start)").db("job"),
				ajaxPOST("/jobinfo/stop", "admin", ids("2", "7")).n("two ids (batch stop)").db("job"),
				ajaxPOST("/jobinfo/start", "admin", nil).n("no ids"),
			},
		},
		{
			name:          "jobinfo_trigger",
			description:   "POST /jobinfo/trigger ('run once') against the fake executor; unknown job id; seed job without executor.",
			logins:        asAdmin,
			executorCalls: true,
			calls: []call{
				ajaxPOST("/jobinfo/trigger", "admin", kv("id", "2", "executorParam", "p=1", "addressList", "")).db("newest_log"),
				ajaxPOST("/jobinfo/trigger", "admin", kv("id", "2", "executorParam", "", "addressList", "http://127.0.0.1:19991/")).
					n("explicit address list").db("newest_log"),
				ajaxPOST("/jobinfo/trigger", "admin", kv("id", "9999", "executorParam", "", "addressList", "")).n("unknown job"),
				ajaxPOST("/jobinfo/trigger", "admin", kv("id", "1", "executorParam", "", "addressList", "")).
					n("seed job 1 in the auto-registered group without any registered executor: trigger fails in the log").db("newest_log"),
			},
		},
		{
			name:        "jobinfo_nextTriggerTime",
			description: "POST /jobinfo/nextTriggerTime: CRON, FIX_RATE, NONE, invalid confs.",
			logins:      asAdmin,
			calls: []call{
				ajaxPOST("/jobinfo/nextTriggerTime", "admin", kv("scheduleType", "CRON", "scheduleConf", "0 0 1 * * ?")),
				ajaxPOST("/jobinfo/nextTriggerTime", "admin", kv("scheduleType", "CRON", "scheduleConf", "0 0 1 1 1 ? 2020")).n("cron whose schedule has ended"),
				ajaxPOST("/jobinfo/nextTriggerTime", "admin", kv("scheduleType", "CRON", "scheduleConf", "bad cron")),
				ajaxPOST("/jobinfo/nextTriggerTime", "admin", kv("scheduleType", "CRON", "scheduleConf", "")),
				ajaxPOST("/jobinfo/nextTriggerTime", "admin", kv("scheduleType", "FIX_RATE", "scheduleConf", "60")),
				ajaxPOST("/jobinfo/nextTriggerTime", "admin", kv("scheduleType", "FIX_RATE", "scheduleConf", "abc")),
				ajaxPOST("/jobinfo/nextTriggerTime", "admin", kv("scheduleType", "NONE", "scheduleConf", "")),
				ajaxPOST("/jobinfo/nextTriggerTime", "admin", kv("scheduleType", "WEEKLY", "scheduleConf", "1")),
			},
		},
		{
			name:        "jobinfo_delete",
			description: "POST /jobinfo/delete (ids[]): existing job (its logs and glue versions are deleted), unknown id, several ids.",
			logins:      asAdmin,
			calls: []call{
				ajaxPOST("/jobinfo/delete", "admin", ids("8")).db("job8"),
				ajaxPOST("/jobinfo/delete", "admin", ids("9999")).n("unknown id"),
				ajaxPOST("/jobinfo/delete", "admin", ids("7", "4")).n("two ids (batch delete)").db("job"),
			},
		},
	}
}
