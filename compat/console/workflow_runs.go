package console

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

// WfRef names a workflow on its run pages.
type WfRef struct {
	ID       int    `json:"id"`
	JobGroup int    `json:"jobGroup"`
	Name     string `json:"name"` // "" when the workflow was deleted
}

// WfRunRow is a run in the run list and at the top of its page.
type WfRunRow struct {
	ID           int64  `json:"id"`
	State        string `json:"state"`
	TriggerType  string `json:"triggerType"`
	Params       string `json:"params"`
	ScheduleTime string `json:"scheduleTime"`
	StartTime    string `json:"startTime"`
	EndTime      string `json:"endTime"`
	Msg          string `json:"msg"`
	// ParentLogID is the parent job's log that started the run (0: none).
	ParentLogID int64 `json:"parentLogId"`
}

// WfRunsData is the run list's model: a workflow's runs, newest first,
// filtered by state.
type WfRunsData struct {
	Links    WfLinks    `json:"links"`
	Workflow WfRef      `json:"workflow"`
	States   []string   `json:"states"`
	State    string     `json:"state"` // "": every state
	Rows     []WfRunRow `json:"rows"`
	Pager    WfPager    `json:"pager"`
}

var wfRunStates = []string{string(workflow.RunQueued), string(workflow.RunRunning), string(workflow.RunSucceeded),
	string(workflow.RunFailed), string(workflow.RunStopped)}

// wfAllowed loads a workflow the user may see: one of a group the user
// may use; a deleted workflow's runs are for admins.
func (c *Console) wfAllowed(x *exchange, id int) (WfRef, error) {
	row, err := c.store.WorkflowLoad(x.ctx, id)
	if errors.Is(err, schema.ErrNotFound) {
		if x.user.Role != 1 {
			return WfRef{}, runtimeException(c.permissionText(x.user))
		}
		return WfRef{ID: id}, nil
	}
	if err != nil {
		return WfRef{}, err
	}
	if err := c.checkGroupTrimmed(x.user, row.JobGroup); err != nil {
		return WfRef{}, err
	}
	return WfRef{ID: row.ID, JobGroup: row.JobGroup, Name: row.Name}, nil
}

func (c *Console) wfRunRow(r workflow.RunSummary) WfRunRow {
	return WfRunRow{ID: r.ID, State: string(r.State), TriggerType: r.TriggerType, Params: strings.TrimSpace(r.Params),
		ScheduleTime: c.wfTime(r.ScheduleTime), StartTime: c.wfTime(r.StartTime), EndTime: c.wfTime(r.EndTime), Msg: r.Msg,
		ParentLogID: r.ParentLogID}
}

// workflowRuns renders <wf>/runs?id=&state=&page=.
func (c *Console) workflowRuns(x *exchange) error {
	id, err := x.form.intReq("id")
	if err != nil {
		return err
	}
	page, err := x.form.intOr("page", 1)
	if err != nil {
		return err
	}
	page = max(page, 1)
	ref, err := c.wfAllowed(x, id)
	if err != nil {
		return err
	}
	q := workflow.RunQuery{Offset: (page - 1) * wfPageSize, Size: wfPageSize}
	state := x.form.text("state")
	for _, s := range wfRunStates {
		if s == state {
			q.States = []workflow.RunState{workflow.RunState(s)}
		}
	}
	if q.States == nil {
		state = ""
	}
	runs, total, err := workflow.Runs(x.ctx, c.store, id, q)
	if err != nil {
		return err
	}
	d := WfRunsData{Links: c.wfLinks(), Workflow: ref, States: wfRunStates, State: state, Rows: []WfRunRow{}}
	for _, r := range runs {
		d.Rows = append(d.Rows, c.wfRunRow(r))
	}
	filter := url.Values{"id": {strconv.Itoa(id)}}
	if state != "" {
		filter.Set("state", state)
	}
	d.Pager = wfPager(filter, page, total)
	c.render(x, c.wfPage(x, "workflow_runs", d))
	return nil
}
