package console

import (
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
)

// jobcodePage34 is the 3.4.2 GLUE IDE (JobCodeController.index): the job
// must exist and be a GLUE job of a group the user may use. Its versions
// are listed newest first with the time each was added (3.1.0: "版本回溯
// 支持查看修改时间").
func (c *Console) jobcodePage34(x *exchange) error {
	id, err := x.form.intReq("jobId")
	if err != nil {
		return err
	}
	j, err := c.store.JobLoad(x.ctx, id)
	if isNotFound(err) {
		return runtimeException(c.text("jobinfo_glue_jobid_invalid"))
	}
	if err != nil {
		return err
	}
	if !jobs.IsGlue(j.GlueType) {
		return runtimeException(c.text("jobinfo_glue_gluetype_invalid"))
	}
	if !accessOf(x.user).May(j.JobGroup) {
		return runtimeException(c.permissionText(x.user))
	}
	glues, err := c.store.GlueFindByJob(x.ctx, id)
	if err != nil {
		return err
	}
	data := JobCodeData{Job: JobCodeJob{ID: j.ID, JobDesc: j.JobDesc, GlueType: j.GlueType,
		GlueSource: deref(j.GlueSource), GlueRemark: deref(j.GlueRemark)}, GlueTypes: glueTypes34,
		Versions: make([]GlueVersion, 0, len(glues))}
	for _, g := range glues {
		v := GlueVersion{ID: g.ID, GlueType: deref(g.GlueType), GlueSource: deref(g.GlueSource), GlueRemark: g.GlueRemark}
		if g.AddTime != nil {
			v.UpdateTime = g.AddTime.In(c.cfg.Loc).Format(time.DateTime)
		}
		data.Versions = append(data.Versions, v)
	}
	c.render(x, c.page(x, "jobcode", data))
	return nil
}
