package main

// job is the job dialog's content (job.list.ftl); its forms are what
// $("#addModal .form").serialize() and $("#updateModal .form").serialize()
// send, in the dialog's field order: cronGen puts its cronGen_display
// input before schedule_conf_CRON, the update dialog has no GLUE fields
// (its glueType select is disabled) and ends with the hidden id.
type job struct {
	group, desc, author, email      string
	schedType, conf                 string
	glueType, handler, param, route string
	child, misfire, block           string
	timeout, retry                  string
}

// recJob is the dialog as the recorder fills it by default.
func recJob() job {
	return job{group: "2", desc: "rec job", author: "rec", schedType: "CRON", conf: "0 0 1 * * ?", glueType: "BEAN",
		handler: "demoJobHandler", route: "FIRST", misfire: "DO_NOTHING", block: "SERIAL_EXECUTION", timeout: "0", retry: "0"}
}

// schedule is the scheduleConf hidden field and the per-type inputs the
// dialog's readFormData fills.
func (j job) schedule() form {
	cron, rate := "", ""
	switch j.schedType {
	case "CRON":
		cron = j.conf
	case "FIX_RATE":
		rate = j.conf
	}
	return kv("scheduleType", j.schedType, "scheduleConf", j.conf, "cronGen_display", cron, "schedule_conf_CRON", "",
		"schedule_conf_FIX_RATE", rate, "schedule_conf_FIX_DELAY", "")
}

func (j job) addForm() form {
	f := kv("jobGroup", j.group, "jobDesc", j.desc, "author", j.author, "alarmEmail", j.email)
	f = append(f, j.schedule()...)
	return append(f, kv("glueType", j.glueType, "executorHandler", j.handler, "executorParam", j.param,
		"executorRouteStrategy", j.route, "childJobId", j.child, "misfireStrategy", j.misfire,
		"executorBlockStrategy", j.block, "executorTimeout", j.timeout, "executorFailRetryCount", j.retry,
		"glueRemark", "GLUE代码初始化", "glueSource", "")...)
}

func (j job) updateForm(id string) form {
	f := kv("jobGroup", j.group, "jobDesc", j.desc, "author", j.author, "alarmEmail", j.email)
	f = append(f, j.schedule()...)
	return append(f, kv("executorHandler", j.handler, "executorParam", j.param,
		"executorRouteStrategy", j.route, "childJobId", j.child, "misfireStrategy", j.misfire,
		"executorBlockStrategy", j.block, "executorTimeout", j.timeout, "executorFailRetryCount", j.retry,
		"id", id)...)
}

// jobListQuery is the job page's list request (offset/pagesize from
// bootstrap-table's "limit" query type).
func jobListQuery(group, status, desc, handler, author, offset, size string) form {
	return kv("jobGroup", group, "triggerStatus", status, "jobDesc", desc, "executorHandler", handler, "author", author,
		"offset", offset, "pagesize", size)
}

// logListQuery is the log page's list request.
func logListQuery(group, jobID, status, filterTime, offset, size string) form {
	return kv("jobGroup", group, "jobId", jobID, "logStatus", status, "filterTime", filterTime, "offset", offset, "pagesize", size)
}

// groupForm is the executor dialog (serializeArray: appname, title, the
// checked addressType radio, addressList; update adds the hidden id).
func groupForm(app, title, addressType, addresses string) form {
	return kv("appname", app, "title", title, "addressType", addressType, "addressList", addresses)
}

// userForm is the user dialog: one permission field per checked group.
func userForm(name, password, role string, groups ...string) form {
	f := kv("username", name, "password", password, "role", role)
	for _, g := range groups {
		f = append(f, [2]string{"permission", g})
	}
	return f
}

// ids is the delete/start/stop request: jQuery sends the selected rows'
// ids as ids[].
func ids(values ...string) form {
	f := form{}
	for _, v := range values {
		f = append(f, [2]string{"ids[]", v})
	}
	return f
}
