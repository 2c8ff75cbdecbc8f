package console

import (
	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
)

// The JSON endpoints of the 3.4.2 JobInfoController over the shared job
// service. Where 3.4.2 differs from 2.4.2: the Response envelope and
// PageModel, pageList checks the group (a normal user lists only its
// groups, and no "all groups"), insert answers the new id as a string,
// delete/start/stop take "ids[]" and act on exactly one job, checking its
// group themselves (a plain "权限拦截" refusal), trigger needs all three
// parameters, and nextTriggerTime needs both.

// mayUse34Of is the child-job check of add and update for u.
func mayUse34Of(u *schema.User) jobs.MayUseGroup {
	return func(g int) bool { return mayUse34(u, g) }
}

func (c *Console) jobinfoPageList34(x *exchange) error {
	offset, err := x.form.intOr("offset", 0)
	if err != nil {
		return err
	}
	pagesize, err := x.form.intOr("pagesize", 10)
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
	f := schema.JobFilter{JobGroup: jobGroup}
	for _, p := range []struct {
		name string
		dst  *string
	}{{"jobDesc", &f.JobDesc}, {"executorHandler", &f.ExecutorHandler}, {"author", &f.Author}} {
		if *p.dst, err = x.form.reqString(p.name); err != nil {
			return err
		}
	}
	if err := c.checkGroup34(x.user, jobGroup); err != nil {
		return err
	}
	if status >= 0 {
		f.TriggerStatus = &status
	}
	list, total, err := c.store.JobPage(x.ctx, offset, pagesize, f, c.cfg.ListBounds)
	if err != nil {
		return err
	}
	rows := make([]jobJSON, 0, len(list))
	for _, j := range list {
		rows = append(rows, toJobJSON34(j))
	}
	okPage34Total(x.w, rows, total)
	return nil
}

// jobinfoInsert34 adds a job to a group the user may use; the answer's
// data is the new id as a string.
func (c *Console) jobinfoInsert34(x *exchange) error {
	j, err := jobFormWith(x.form, x.form.joined)
	if err != nil {
		return err
	}
	if err := c.checkGroup34(x.user, j.JobGroup); err != nil {
		return err
	}
	id, err := c.jobs.Add(x.ctx, j, mayUse34Of(x.user))
	if err != nil {
		return err
	}
	ok34(x.w, itoa(id))
	return nil
}

// jobinfoUpdate34 checks the new group as 3.4.2 does, and the job's
// current group too: 3.4.2 lets a user move another group's job into its
// own (tolerated difference, as on the 2.x console).
func (c *Console) jobinfoUpdate34(x *exchange) error {
	j, err := jobFormWith(x.form, x.form.joined)
	if err != nil {
		return err
	}
	if err := c.checkGroup34(x.user, j.JobGroup); err != nil {
		return err
	}
	if cur, err := c.store.JobLoad(x.ctx, j.ID); err == nil {
		if err := c.checkGroup34(x.user, cur.JobGroup); err != nil {
			return err
		}
	} else if !isNotFound(err) {
		return err
	}
	if err := c.jobs.Update(x.ctx, j, mayUse34Of(x.user)); err != nil {
		return err
	}
	ok34(x.w, nil)
	return nil
}

// pleaseChooseOne is the refusal of a selection of more or fewer than one
// row: "请选择" + "一条" + "数据".
func (c *Console) pleaseChooseOne() string {
	return c.text("system_please_choose") + c.text("system_one") + c.text("system_data")
}

// jobAction34 runs remove, start or stop on the one job of "ids[]": an
// unknown job is unknownOK's answer (remove: success; start and stop:
// "任务ID非法"), a job of a group the user may not use "权限拦截".
func (c *Console) jobAction34(x *exchange, unknownOK bool, action func(id int) error) error {
	id, one, err := x.form.oneID("ids[]")
	if err != nil {
		return err
	}
	if !one {
		fail34(x.w, c.pleaseChooseOne())
		return nil
	}
	j, err := c.store.JobLoad(x.ctx, id)
	switch {
	case isNotFound(err) && unknownOK:
		ok34(x.w, nil)
		return nil
	case isNotFound(err):
		fail34(x.w, c.text("jobinfo_glue_jobid_invalid"))
		return nil
	case err != nil:
		return err
	}
	if !mayUse34(x.user, j.JobGroup) {
		fail34(x.w, c.text("system_permission_limit"))
		return nil
	}
	if err := action(id); err != nil {
		return err
	}
	ok34(x.w, nil)
	return nil
}

func (c *Console) jobinfoDelete34(x *exchange) error {
	return c.jobAction34(x, true, func(id int) error { return c.jobs.Remove(x.ctx, id) })
}

func (c *Console) jobinfoStart34(x *exchange) error {
	return c.jobAction34(x, false, func(id int) error { return c.jobs.Start(x.ctx, id) })
}

func (c *Console) jobinfoStop34(x *exchange) error {
	return c.jobAction34(x, false, func(id int) error { return c.jobs.Stop(x.ctx, id) })
}

// jobinfoTrigger34 is "run once" through the trigger door; all three
// parameters are required (an empty addressList uses the group's).
func (c *Console) jobinfoTrigger34(x *exchange) error {
	id, err := x.form.intReq("id")
	if err != nil {
		return err
	}
	param, err := x.form.reqString("executorParam")
	if err != nil {
		return err
	}
	addresses, err := x.form.reqString("addressList")
	if err != nil {
		return err
	}
	j, err := c.store.JobLoad(x.ctx, id)
	if isNotFound(err) {
		fail34(x.w, c.text("jobinfo_glue_jobid_invalid"))
		return nil
	}
	if err != nil {
		return err
	}
	if !mayUse34(x.user, j.JobGroup) {
		fail34(x.w, c.text("system_permission_limit"))
		return nil
	}
	req := trigger.Request{JobID: id, Type: trigger.TypeManual, FailRetryCount: -1, ExecutorParam: &param,
		AddressList: addresses}
	if err := c.cfg.Trigger.Submit(req); err != nil {
		return err
	}
	c.jobs.AuditTrigger(x.ctx, id)
	ok34(x.w, nil)
	return nil
}

// jobinfoNextTriggerTime34 previews the next 5 fire times in the admin's
// zone; a blank type or conf previews none.
func (c *Console) jobinfoNextTriggerTime34(x *exchange) error {
	typ, err := x.form.reqString("scheduleType")
	if err != nil {
		return err
	}
	conf, err := x.form.reqString("scheduleConf")
	if err != nil {
		return err
	}
	out := []string{}
	if javaTrim(typ) == "" || javaTrim(conf) == "" {
		ok34(x.w, out)
		return nil
	}
	if out, err = c.nextTimes(typ, conf, x.form.text("scheduleTimezone")); err != nil {
		return err
	}
	ok34(x.w, out)
	return nil
}
