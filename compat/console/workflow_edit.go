package console

import (
	"errors"
	"strconv"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

// WfEditData is the editor's model: the workflow as a form (as stored, or
// as submitted when it was refused), the choices of its fields, the jobs
// of its group, and what the last save said.
type WfEditData struct {
	Links         WfLinks       `json:"links"`
	Groups        []GroupOption `json:"groups"`
	Jobs          []JobOption   `json:"jobs"` // the group's jobs, for the node rows
	Rules         []string      `json:"rules"`
	ScheduleTypes []Option      `json:"scheduleTypes"`
	Misfires      []Option      `json:"misfires"`
	Policies      []string      `json:"policies"`
	Form          WfForm        `json:"form"`
	Errors        []string      `json:"errors"`   // why the save was refused
	Warnings      []string      `json:"warnings"` // workflow.Warnings of the stored workflow
	Saved         bool          `json:"saved"`
}

// WfForm is a workflow as the editor's form has it: numbers as text, so
// that a refused form comes back as it was typed.
type WfForm struct {
	ID           int    `json:"id"`
	JobGroup     int    `json:"jobGroup"`
	Name         string `json:"name"`
	Params       string `json:"params"`
	ScheduleType string `json:"scheduleType"`
	ScheduleConf string `json:"scheduleConf"`
	// ParentJob is the job a JOB workflow starts after (its picker's
	// value; the id is also ScheduleConf once read).
	ParentJob   string       `json:"parentJob"`
	TimeZone    string       `json:"timeZone"`
	Misfire     string       `json:"misfire"`
	Policy      string       `json:"policy"`
	MaxParallel int          `json:"maxParallel"`
	Enabled     bool         `json:"enabled"`
	Nodes       []WfNodeForm `json:"nodes"`
	Edges       string       `json:"edges"` // one "from -> to" a line
}

// WfNodeForm is a node row of the editor.
type WfNodeForm struct {
	ID    string `json:"id"`
	JobID string `json:"jobId"`
	Label string `json:"label"`
	Rule  string `json:"rule"`
	Param string `json:"param"`
}

// wfBlankRows are the empty node rows the editor offers for new nodes
// (the page script adds more).
const wfBlankRows = 3

// workflowEdit renders <wf>/edit?id= (a stored workflow) or
// <wf>/edit?jobGroup= (a new one in that group, the first permitted one
// by default).
func (c *Console) workflowEdit(x *exchange) error {
	id, err := x.form.intOr("id", 0)
	if err != nil {
		return err
	}
	var f WfForm
	var warnings []string
	if id > 0 {
		d, err := workflow.Load(x.ctx, c.store, id)
		if errors.Is(err, schema.ErrNotFound) {
			return &cleanFailure{msg: "workflow " + strconv.Itoa(id) + " " + c.text("system_not_found")}
		}
		if err != nil {
			return err
		}
		if err := c.checkGroupTrimmed(x.user, d.Workflow.JobGroup); err != nil {
			return err
		}
		f, warnings = wfFormOf(d.Workflow), d.Warnings
	} else {
		group, err := x.form.intOr("jobGroup", 0)
		if err != nil {
			return err
		}
		if group <= 0 {
			groups, err := c.permittedGroups(x.ctx, x.user)
			if err != nil {
				return err
			}
			if len(groups) > 0 {
				group = groups[0].ID
			}
		}
		if err := c.checkGroupTrimmed(x.user, group); err != nil {
			return err
		}
		f = WfForm{JobGroup: group, ScheduleType: cron.TypeNone, Misfire: "DO_NOTHING", Policy: string(workflow.PolicySkip), MaxParallel: 1}
	}
	return c.renderEditor(x, f, nil, warnings, x.form.text("saved") == "1")
}

// renderEditor renders the editor for a form.
func (c *Console) renderEditor(x *exchange, f WfForm, problems, warnings []string, saved bool) error {
	groups, err := c.permittedGroups(x.ctx, x.user)
	if err != nil {
		return err
	}
	jobs, err := c.store.JobsByGroup(x.ctx, f.JobGroup)
	if err != nil {
		return err
	}
	d := WfEditData{Links: c.wfLinks(), Groups: groupOptions(groups), Jobs: make([]JobOption, 0, len(jobs)),
		ScheduleTypes: c.options(cron.TypeNone, "schedule_type_none", cron.TypeCron, "schedule_type_cron",
			cron.TypeFixRate, "schedule_type_fix_rate"),
		Misfires: c.options("DO_NOTHING", "misfire_strategy_do_nothing", "FIRE_ONCE_NOW", "misfire_strategy_fire_once_now"),
		Policies: []string{string(workflow.PolicySkip), string(workflow.PolicyQueue), string(workflow.PolicyParallel)},
		Form:     f, Errors: problems, Warnings: warnings, Saved: saved}
	d.ScheduleTypes = append(d.ScheduleTypes, Option{Name: workflow.ScheduleJob, Title: c.ours["wf_schedule_type_job"]})
	for _, j := range jobs {
		d.Jobs = append(d.Jobs, JobOption{ID: j.ID, JobDesc: j.JobDesc})
	}
	for _, r := range workflow.Rules {
		d.Rules = append(d.Rules, string(r))
	}
	for range wfBlankRows {
		d.Form.Nodes = append(d.Form.Nodes, WfNodeForm{Rule: string(workflow.AllSuccess)})
	}
	c.render(x, c.wfPage(x, "workflow_edit", d))
	return nil
}

// wfFormOf is a stored workflow as the editor's form.
func wfFormOf(w workflow.Workflow) WfForm {
	f := WfForm{ID: w.ID, JobGroup: w.JobGroup, Name: w.Name, Params: w.Params, ScheduleType: w.Schedule.Type,
		ScheduleConf: w.Schedule.Conf, TimeZone: w.Schedule.TimeZone, Misfire: w.Schedule.Misfire,
		Policy: string(w.Concurrency.Policy), MaxParallel: w.Concurrency.Max, Enabled: w.Enabled}
	if w.Schedule.Type == workflow.ScheduleJob {
		f.ParentJob, f.ScheduleConf = w.Schedule.Conf, ""
	}
	for _, n := range w.Graph.Nodes {
		row := WfNodeForm{ID: strconv.Itoa(n.ID), JobID: strconv.Itoa(n.JobID), Label: n.Label, Rule: string(n.Rule)}
		if row.Rule == "" {
			row.Rule = string(workflow.AllSuccess)
		}
		if n.Param != nil {
			row.Param = *n.Param
		}
		f.Nodes = append(f.Nodes, row)
	}
	var b strings.Builder
	for _, e := range w.Graph.Edges {
		b.WriteString(strconv.Itoa(e.From) + " -> " + strconv.Itoa(e.To) + "\n")
	}
	f.Edges = b.String()
	return f
}
