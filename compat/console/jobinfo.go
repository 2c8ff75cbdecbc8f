package console

import (
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/core/route"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// JobInfoController (console.md §5).

// glueTitles are the GlueTypeEnum descriptions (routing.md §3; not i18n).
var glueTitles = []Option{{"BEAN", "BEAN"}, {"GLUE_GROOVY", "GLUE(Java)"}, {"GLUE_SHELL", "GLUE(Shell)"},
	{"GLUE_PYTHON", "GLUE(Python)"}, {"GLUE_PHP", "GLUE(PHP)"}, {"GLUE_NODEJS", "GLUE(Nodejs)"},
	{"GLUE_POWERSHELL", "GLUE(PowerShell)"}}

func (c *Console) options(pairs ...string) []Option {
	out := make([]Option, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, Option{Name: pairs[i], Title: c.text(pairs[i+1])})
	}
	return out
}

func (c *Console) jobinfoPage(x *exchange) error {
	jobGroup, err := x.form.intOr("jobGroup", -1)
	if err != nil {
		return err
	}
	groups, err := c.permittedGroups(x.ctx, x.user)
	if err != nil {
		return err
	}
	if len(groups) == 0 {
		return xxlJobException(c.text("jobgroup_empty"))
	}
	var routes []Option
	for _, r := range route.Strategies() {
		routes = append(routes, Option{Name: r.Name, Title: c.text(r.TitleKey)})
	}
	c.render(x, c.page(x, "jobinfo", JobInfoData{
		Groups: groupOptions(groups), JobGroup: jobGroup, RouteStrategies: routes, GlueTypes: glueTitles,
		BlockStrategies: c.options("SERIAL_EXECUTION", "jobconf_block_SERIAL_EXECUTION", "DISCARD_LATER",
			"jobconf_block_DISCARD_LATER", "COVER_EARLY", "jobconf_block_COVER_EARLY"),
		ScheduleTypes: c.options(cron.TypeNone, "schedule_type_none", cron.TypeCron, "schedule_type_cron",
			cron.TypeFixRate, "schedule_type_fix_rate"),
		MisfireStrategies: c.options("DO_NOTHING", "misfire_strategy_do_nothing", "FIRE_ONCE_NOW", "misfire_strategy_fire_once_now"),
		Zones:             c.zoneChoice(),
	}))
	return nil
}

// jobinfoPageList lists jobs. Java checks no permission here; a normal
// user only sees the groups it may use.
func (c *Console) jobinfoPageList(x *exchange) error {
	start, err := x.form.intOr("start", 0)
	if err != nil {
		return err
	}
	length, err := x.form.intOr("length", 10)
	if err != nil {
		return err
	}
	jobGroup, err := x.form.intReq("jobGroup")
	if err != nil {
		return err
	}
	status, err := x.form.intReq("triggerStatus")
	if err != nil {
		return err
	}
	f := schema.JobFilter{JobGroup: jobGroup, JobDesc: x.form.text("jobDesc"),
		ExecutorHandler: x.form.text("executorHandler"), Author: x.form.text("author")}
	if status >= 0 {
		f.TriggerStatus = &status
	}
	if jobGroup > 0 {
		if err := c.checkGroupTrimmed(x.user, jobGroup); err != nil {
			return err
		}
	} else {
		f.JobGroups = accessOf(x.user).GroupIDs()
	}
	list, total, err := c.store.JobPage(x.ctx, start, length, f, c.cfg.ListBounds)
	if err != nil {
		return err
	}
	dataTableTotal(x.w, toJobsJSON(list), total)
	return nil
}

// jobForm binds the job bean of add and update: every property by its JSON
// name; int properties must convert (400 otherwise).
func jobForm(f form) (schema.JobInfo, error) { return jobFormWith(f, f.str) }

// jobFormWith is jobForm with the reading of String properties: the first
// value (2.4.2) or all values joined (3.4.2, form.joined).
func jobFormWith(f form, str func(name string) *string) (schema.JobInfo, error) {
	text := func(name string) string {
		if p := str(name); p != nil {
			return *p
		}
		return ""
	}
	j := schema.JobInfo{JobDesc: text("jobDesc"), Author: str("author"), AlarmEmail: str("alarmEmail"),
		ScheduleType: text("scheduleType"), ScheduleConf: str("scheduleConf"), MisfireStrategy: text("misfireStrategy"),
		ExecutorRouteStrategy: str("executorRouteStrategy"), ExecutorHandler: str("executorHandler"),
		ExecutorParam: str("executorParam"), ExecutorBlockStrategy: str("executorBlockStrategy"),
		GlueType: text("glueType"), GlueSource: str("glueSource"), GlueRemark: str("glueRemark"),
		ChildJobID: str("childJobId"), ScheduleTimezone: str("scheduleTimezone")}
	var err error
	for _, p := range []struct {
		name string
		dst  *int
	}{{"id", &j.ID}, {"jobGroup", &j.JobGroup}, {"executorTimeout", &j.ExecutorTimeout},
		{"executorFailRetryCount", &j.ExecutorFailRetryCount}, {"triggerStatus", &j.TriggerStatus}} {
		if *p.dst, err = f.beanInt(p.name); err != nil {
			return j, err
		}
	}
	if j.TriggerLastTime, err = f.beanInt64("triggerLastTime"); err != nil {
		return j, err
	}
	if j.TriggerNextTime, err = f.beanInt64("triggerNextTime"); err != nil {
		return j, err
	}
	return j, nil
}

func (c *Console) jobinfoAdd(x *exchange) error {
	j, err := jobForm(x.form)
	if err != nil {
		return err
	}
	if err := c.checkGroup(x.user, j.JobGroup); err != nil {
		return err
	}
	id, err := c.jobs.Add(x.ctx, j, func(g int) bool { return mayUse(x.user, g) })
	if err != nil {
		return err
	}
	ok(x.w, itoa(id))
	return nil
}

// jobinfoUpdate checks the new group like Java, and the job's current
// group too (Java lets a user move another group's job into its own).
func (c *Console) jobinfoUpdate(x *exchange) error {
	j, err := jobForm(x.form)
	if err != nil {
		return err
	}
	if err := c.checkGroup(x.user, j.JobGroup); err != nil {
		return err
	}
	if err := c.checkJobGroup(x, j.ID); err != nil && !isNotFound(err) {
		return err
	}
	if err := c.jobs.Update(x.ctx, j, func(g int) bool { return mayUse(x.user, g) }); err != nil {
		return err
	}
	ok(x.w, nil)
	return nil
}

// checkJobGroup refuses a normal user a job of a group it may not use.
func (c *Console) checkJobGroup(x *exchange, id int) error {
	j, err := c.store.JobLoad(x.ctx, id)
	if err != nil {
		return err
	}
	return c.checkGroupTrimmed(x.user, j.JobGroup)
}

// jobAction runs remove, start or stop on a job the user may touch; an
// unknown id goes to the action (remove succeeds, start and stop fail).
func (c *Console) jobAction(x *exchange, action func(id int) error) error {
	id, err := x.form.intReq("id")
	if err != nil {
		return err
	}
	if err := c.checkJobGroup(x, id); err != nil && !isNotFound(err) {
		return err
	}
	if err := action(id); err != nil {
		return err
	}
	ok(x.w, nil)
	return nil
}

func (c *Console) jobinfoRemove(x *exchange) error {
	return c.jobAction(x, func(id int) error { return c.jobs.Remove(x.ctx, id) })
}

func (c *Console) jobinfoStart(x *exchange) error {
	return c.jobAction(x, func(id int) error { return c.jobs.Start(x.ctx, id) })
}

func (c *Console) jobinfoStop(x *exchange) error {
	return c.jobAction(x, func(id int) error { return c.jobs.Stop(x.ctx, id) })
}

// jobinfoTrigger is "run once": a MANUAL trigger through the trigger door,
// answered at once (the outcome shows in the log).
func (c *Console) jobinfoTrigger(x *exchange) error {
	id, err := x.form.intReq("id")
	if err != nil {
		return err
	}
	j, err := c.store.JobLoad(x.ctx, id)
	if isNotFound(err) {
		fail(x.w, c.text("jobinfo_glue_jobid_unvalid"))
		return nil
	}
	if err != nil {
		return err
	}
	if !accessOf(x.user).May(j.JobGroup) {
		fail(x.w, c.text("system_permission_limit"))
		return nil
	}
	param := x.form.text("executorParam")
	req := trigger.Request{JobID: id, Type: trigger.TypeManual, FailRetryCount: -1, ExecutorParam: &param,
		AddressList: x.form.text("addressList")}
	if err := c.cfg.Trigger.Submit(req); err != nil {
		return err
	}
	c.jobs.AuditTrigger(x.ctx, id)
	ok(x.w, nil)
	return nil
}

// jobinfoNextTriggerTime previews the next 5 fire times (in the job's
// zone when the page sends one: zone.go).
func (c *Console) jobinfoNextTriggerTime(x *exchange) error {
	out, err := c.nextTimes(x.form.text("scheduleType"), x.form.text("scheduleConf"), x.form.text("scheduleTimezone"))
	if err != nil {
		return err
	}
	ok(x.w, out)
	return nil
}
