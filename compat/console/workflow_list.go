package console

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

// WfListData is the workflow list's model: the filters as the job list
// has them (the groups the user may use, a part of the name) and a page
// of workflows.
type WfListData struct {
	Links    WfLinks       `json:"links"`
	Groups   []GroupOption `json:"groups"`
	JobGroup int           `json:"jobGroup"` // 0: every permitted group
	Name     string        `json:"name"`
	Rows     []WfRow       `json:"rows"`
	Pager    WfPager       `json:"pager"`
}

// WfRow is a workflow in the list.
type WfRow struct {
	ID          int    `json:"id"`
	JobGroup    int    `json:"jobGroup"`
	GroupTitle  string `json:"groupTitle"`
	Name        string `json:"name"`
	Nodes       int    `json:"nodes"`
	Schedule    string `json:"schedule"`
	Concurrency string `json:"concurrency"`
	Enabled     bool   `json:"enabled"`
	NextFire    string `json:"nextFire"`
	UpdateTime  string `json:"updateTime"`
}

// workflowList renders <wf>?jobGroup=&name=&page=: the workflows of the
// groups the user may use.
func (c *Console) workflowList(x *exchange) error {
	groups, err := c.permittedGroups(x.ctx, x.user)
	if err != nil {
		return err
	}
	group, err := x.form.intOr("jobGroup", 0)
	if err != nil {
		return err
	}
	page, err := x.form.intOr("page", 1)
	if err != nil {
		return err
	}
	page = max(page, 1)
	name := strings.TrimSpace(x.form.text("name"))
	q := workflow.ListQuery{Group: group, Name: name, Offset: (page - 1) * wfPageSize, Size: wfPageSize}
	if group > 0 {
		if err := c.checkGroupTrimmed(x.user, group); err != nil {
			return err
		}
	}
	titles := map[int]string{}
	ids := make([]int, 0, len(groups))
	for _, g := range groups {
		titles[g.ID] = g.Title
		ids = append(ids, g.ID)
	}
	if x.user.Role != 1 {
		q.Groups = ids
	}
	list, total, err := workflow.List(x.ctx, c.store, q)
	if err != nil {
		return err
	}
	d := WfListData{Links: c.wfLinks(), Groups: groupOptions(groups), JobGroup: group, Name: name, Rows: []WfRow{}}
	var parents []int
	for _, w := range list {
		if p, ok := w.Schedule.ParentJob(); ok {
			parents = append(parents, p)
		}
	}
	names, err := c.store.JobNames(x.ctx, parents)
	if err != nil {
		return err
	}
	for _, w := range list {
		sched := wfSchedule(w.Schedule)
		if p, ok := w.Schedule.ParentJob(); ok {
			// "After a job: 12 nightly extract"
			sched = c.ours["wf_schedule_type_job"] + ": " + strconv.Itoa(p) + " " + names[p].JobDesc
		}
		d.Rows = append(d.Rows, WfRow{ID: w.ID, JobGroup: w.JobGroup, GroupTitle: titles[w.JobGroup], Name: w.Name, Nodes: w.Nodes,
			Schedule: strings.TrimSpace(sched), Concurrency: wfConcurrency(w.Concurrency), Enabled: w.Enabled,
			NextFire: c.wfTime(w.NextFire), UpdateTime: c.wfTime(w.UpdateTime)})
	}
	filter := url.Values{}
	if group > 0 {
		filter.Set("jobGroup", strconv.Itoa(group))
	}
	if name != "" {
		filter.Set("name", name)
	}
	d.Pager = wfPager(filter, page, total)
	c.render(x, c.wfPage(x, "workflow", d))
	return nil
}

// wfSchedule shows a schedule: its type and conf.
func wfSchedule(s workflow.Schedule) string {
	if s.Type == "" || s.Type == "NONE" {
		return "NONE"
	}
	out := s.Type + " " + s.Conf
	if s.TimeZone != "" {
		out += " (" + s.TimeZone + ")"
	}
	return out
}

func wfConcurrency(c workflow.Concurrency) string {
	if c.Policy == workflow.PolicyParallel {
		return string(c.Policy) + " " + strconv.Itoa(c.Max)
	}
	if c.Policy == "" {
		return string(workflow.PolicySkip)
	}
	return string(c.Policy)
}
