package console

import (
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
)

// JobCodeController, the GLUE IDE (console.md §6).

func (c *Console) jobcodePage(x *exchange) error {
	id, err := x.form.intReq("jobId")
	if err != nil {
		return err
	}
	j, err := c.store.JobLoad(x.ctx, id)
	if isNotFound(err) {
		return runtimeException(c.text("jobinfo_glue_jobid_unvalid"))
	}
	if err != nil {
		return err
	}
	if !jobs.IsGlue(j.GlueType) {
		return runtimeException(c.text("jobinfo_glue_gluetype_unvalid"))
	}
	if err := c.checkGroup(x.user, j.JobGroup); err != nil {
		return err
	}
	glues, err := c.store.GlueFindByJob(x.ctx, id)
	if err != nil {
		return err
	}
	data := JobCodeData{Job: JobCodeJob{ID: j.ID, JobDesc: j.JobDesc, GlueType: j.GlueType,
		GlueSource: deref(j.GlueSource), GlueRemark: deref(j.GlueRemark)}, GlueTypes: glueTitles,
		Versions: make([]GlueVersion, 0, len(glues))}
	for _, g := range glues {
		v := GlueVersion{ID: g.ID, GlueType: deref(g.GlueType), GlueSource: deref(g.GlueSource), GlueRemark: g.GlueRemark}
		if g.UpdateTime != nil {
			v.UpdateTime = g.UpdateTime.In(c.cfg.Loc).Format(time.DateTime)
		}
		data.Versions = append(data.Versions, v)
	}
	c.render(x, c.page(x, "jobcode", data))
	return nil
}

func (c *Console) jobcodeSave(x *exchange) error {
	id, err := x.form.intReq("id")
	if err != nil {
		return err
	}
	err = c.jobs.SaveGlue(x.ctx, id, x.form.str("glueSource"), x.form.str("glueRemark"),
		func(g int) bool { return mayUse(x.user, g) })
	if err != nil {
		return err
	}
	ok(x.w, nil)
	return nil
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
