package console

import (
	"slices"
)

// joblogPage34 is the 3.4.2 log list (JobLogController.index). ?jobId=
// names a job whose group becomes the selected one (an unknown job is its
// RuntimeException); a group the user may not use falls back to the first
// permitted one, and a job not in the selected group to 0 (all jobs), so
// the page never shows another group's job. The 3.4.2 list has no "all
// groups" choice, also not for admins.
func (c *Console) joblogPage34(x *exchange) error {
	jobGroup, err := x.form.intOr("jobGroup", 0)
	if err != nil {
		return err
	}
	jobID, err := x.form.intOr("jobId", 0)
	if err != nil {
		return err
	}
	groups, err := c.permittedGroups(x.ctx, x.user)
	if err != nil {
		return err
	}
	if len(groups) == 0 {
		return xxlJobException34(c.text("jobgroup_empty"))
	}
	if jobID > 0 {
		j, err := c.store.JobLoad(x.ctx, jobID)
		if isNotFound(err) {
			return runtimeException(c.text("jobinfo_field_id") + c.text("system_invalid"))
		}
		if err != nil {
			return err
		}
		jobGroup = j.JobGroup
	}
	opts := groupOptions(groups)
	if !slices.ContainsFunc(opts, func(g GroupOption) bool { return g.ID == jobGroup }) {
		jobGroup = opts[0].ID
	}
	list, err := c.store.JobsByGroup(x.ctx, jobGroup)
	if err != nil {
		return err
	}
	jobsOf := make([]JobOption, 0, len(list))
	found := false
	for _, j := range list {
		jobsOf = append(jobsOf, JobOption{ID: j.ID, JobDesc: j.JobDesc})
		found = found || j.ID == jobID
	}
	if !found {
		jobID = 0
	}
	c.render(x, c.page(x, "joblog", JobLogData34{Groups: opts, JobGroup: jobGroup, JobID: jobID, Jobs: jobsOf}))
	return nil
}

// joblogDetailPage34 is the 3.4.2 rolling log page: the log must exist
// (joblog_logid_invalid) and belong to a group the user may use.
func (c *Console) joblogDetailPage34(x *exchange) error {
	id, err := x.form.int64Req("id")
	if err != nil {
		return err
	}
	l, err := c.store.LogLoad(x.ctx, id)
	if isNotFound(err) {
		return runtimeException(c.text("joblog_logid_invalid"))
	}
	if err != nil {
		return err
	}
	if !accessOf(x.user).May(l.JobGroup) {
		return runtimeException(c.permissionText(x.user))
	}
	data := LogDetailData34{LogID: l.ID, TriggerCode: l.TriggerCode, HandleCode: l.HandleCode}
	j, err := c.store.JobLoad(x.ctx, l.JobID)
	switch {
	case err == nil:
		data.JobDesc = j.JobDesc
	case !isNotFound(err):
		return err
	}
	c.render(x, c.page(x, "joblog_detail", data))
	return nil
}
