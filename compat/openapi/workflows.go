package openapi

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

// The workflow endpoints exist only when workflows are on
// (Config.Workflows); their part of the document is openapi_workflows.yaml.

// workflowRoutes are the routes added when workflows are on.
func workflowRoutes() []route {
	return []route{
		{"GET", "/workflows", "listWorkflows", false, (*API).listWorkflows},
		{"POST", "/workflows", "createWorkflow", false, (*API).createWorkflow},
		{"POST", "/workflows/validate", "validateWorkflow", false, (*API).validateWorkflow},
		{"GET", "/workflows/{id}", "getWorkflow", false, (*API).getWorkflow},
		{"PUT", "/workflows/{id}", "updateWorkflow", false, (*API).updateWorkflow},
		{"DELETE", "/workflows/{id}", "deleteWorkflow", false, (*API).deleteWorkflow},
		{"POST", "/workflows/{id}/runs", "startRun", false, (*API).startRun},
		{"GET", "/workflows/{id}/runs", "listRuns", false, (*API).listRuns},
		{"GET", "/runs/{id}", "getRun", false, (*API).getRun},
		{"POST", "/runs/{id}/stop", "stopRun", false, (*API).stopRun},
		{"POST", "/runs/{id}/retry", "retryRun", false, (*API).retryRun},
		{"POST", "/runs/{id}/nodes/{node}/skip", "skipNode", false, (*API).skipNode},
		{"POST", "/runs/{id}/nodes/{node}/succeed", "markNodeSucceeded", false, (*API).markNodeSucceeded},
	}
}

// wfError classifies the workflow packages' errors.
func wfError(err error) error {
	var inv *workflow.InvalidError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &inv):
		return invalid("%s", err.Error())
	case errors.Is(err, workflow.ErrInvalid):
		return invalid("%s", err.Error())
	case errors.Is(err, schema.ErrNotFound):
		return notFound("not found")
	case errors.Is(err, workflow.ErrSkipped), errors.Is(err, workflow.ErrState):
		return conflict("%s", err.Error())
	}
	return err
}

type scheduleJSON struct {
	Type     string `json:"type"`
	Conf     string `json:"conf"`
	TimeZone string `json:"timeZone"`
	Misfire  string `json:"misfire"`
	// ParentJobID is the job a JOB workflow starts after (its conf, as a
	// number); on input it may stand for conf.
	ParentJobID int `json:"parentJobId,omitempty"`
}

func scheduleOut(s workflow.Schedule) scheduleJSON {
	out := scheduleJSON{Type: s.Type, Conf: s.Conf, TimeZone: s.TimeZone, Misfire: s.Misfire}
	out.ParentJobID, _ = s.ParentJob()
	return out
}

func (s scheduleJSON) schedule() workflow.Schedule {
	out := workflow.Schedule{Type: s.Type, Conf: s.Conf, TimeZone: s.TimeZone, Misfire: s.Misfire}
	if s.Type == workflow.ScheduleJob && s.Conf == "" && s.ParentJobID != 0 {
		out.Conf = strconv.Itoa(s.ParentJobID)
	}
	return out
}

type concurrencyJSON struct {
	Policy string `json:"policy"`
	Max    int    `json:"max"`
}

type nodeJSON struct {
	ID    int     `json:"id"`
	JobID int     `json:"jobId"`
	Rule  string  `json:"rule"`
	Label string  `json:"label"`
	Param *string `json:"param,omitempty"`
}

// workflowJSON is a workflow as the API writes it.
type workflowJSON struct {
	ID           int             `json:"id"`
	JobGroup     int             `json:"jobGroup"`
	Name         string          `json:"name"`
	Author       string          `json:"author"`
	Params       string          `json:"params"`
	Schedule     scheduleJSON    `json:"schedule"`
	Concurrency  concurrencyJSON `json:"concurrency"`
	Enabled      bool            `json:"enabled"`
	Nodes        []nodeJSON      `json:"nodes"`
	Edges        []workflow.Edge `json:"edges"`
	NextFireTime *string         `json:"nextFireTime"`
	AddTime      *string         `json:"addTime"`
	UpdateTime   *string         `json:"updateTime"`
	Warnings     []string        `json:"warnings"`
}

func (a *API) timeOf(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	return a.rfc3339(&t)
}

func (a *API) workflowOut(d workflow.Detail) workflowJSON {
	w := d.Workflow
	out := workflowJSON{ID: w.ID, JobGroup: w.JobGroup, Name: w.Name, Author: w.Author, Params: w.Params,
		Schedule:    scheduleOut(w.Schedule),
		Concurrency: concurrencyJSON{Policy: string(w.Concurrency.Policy), Max: w.Concurrency.Max}, Enabled: w.Enabled,
		Nodes: make([]nodeJSON, 0, len(w.Graph.Nodes)), Edges: w.Graph.Edges, NextFireTime: a.timeOf(d.NextFire),
		AddTime: a.timeOf(w.AddTime), UpdateTime: a.timeOf(w.UpdateTime), Warnings: d.Warnings}
	for _, n := range w.Graph.Nodes {
		out.Nodes = append(out.Nodes, nodeJSON{ID: n.ID, JobID: n.JobID, Rule: string(n.Rule), Label: n.Label, Param: n.Param})
	}
	if out.Edges == nil {
		out.Edges = []workflow.Edge{}
	}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	return out
}

// workflowInput is the body of create, update and validate: the whole
// workflow (update replaces it).
type workflowInput struct {
	JobGroup    int              `json:"jobGroup"`
	Name        string           `json:"name"`
	Author      string           `json:"author"`
	Params      string           `json:"params"`
	Schedule    *scheduleJSON    `json:"schedule"`
	Concurrency *concurrencyJSON `json:"concurrency"`
	Enabled     bool             `json:"enabled"`
	Nodes       []nodeJSON       `json:"nodes"`
	Edges       []workflow.Edge  `json:"edges"`
}

func (in workflowInput) workflow(id int) workflow.Workflow {
	w := workflow.Workflow{ID: id, JobGroup: in.JobGroup, Name: in.Name, Author: in.Author, Params: in.Params,
		Enabled: in.Enabled, Graph: workflow.Graph{Nodes: make([]workflow.Node, 0, len(in.Nodes)), Edges: in.Edges}}
	if in.Schedule != nil {
		w.Schedule = in.Schedule.schedule()
	}
	if in.Concurrency != nil {
		w.Concurrency = workflow.Concurrency{Policy: workflow.Policy(in.Concurrency.Policy), Max: in.Concurrency.Max}
	}
	for _, n := range in.Nodes {
		w.Graph.Nodes = append(w.Graph.Nodes, workflow.Node{ID: n.ID, JobID: n.JobID, Rule: workflow.Rule(n.Rule), Label: n.Label, Param: n.Param})
	}
	if w.Graph.Edges == nil {
		w.Graph.Edges = []workflow.Edge{}
	}
	return w
}

// loadWorkflow reads a workflow the caller may use.
func (a *API) loadWorkflow(c *call, id int) (workflow.Detail, error) {
	d, err := workflow.Load(c.ctx, a.cfg.Store, id)
	if err != nil {
		return d, wfError(err)
	}
	return d, c.mayUse(d.Workflow.JobGroup)
}

func (a *API) listWorkflows(c *call) error {
	w, err := c.window()
	if err != nil {
		return err
	}
	group, err := c.queryInt("jobGroup", 0)
	if err != nil {
		return err
	}
	if group > 0 {
		if err := c.mayUse(group); err != nil {
			return err
		}
	}
	q := workflow.ListQuery{Group: group, Groups: c.access.GroupIDs(), Name: c.r.URL.Query().Get("name"), Offset: w.Offset, Size: w.Limit}
	list, total, err := workflow.List(c.ctx, a.cfg.Store, q)
	if err != nil {
		return err
	}
	type summaryJSON struct {
		ID           int             `json:"id"`
		JobGroup     int             `json:"jobGroup"`
		Name         string          `json:"name"`
		Author       string          `json:"author"`
		Nodes        int             `json:"nodes"`
		Edges        int             `json:"edges"`
		Schedule     scheduleJSON    `json:"schedule"`
		Concurrency  concurrencyJSON `json:"concurrency"`
		Enabled      bool            `json:"enabled"`
		NextFireTime *string         `json:"nextFireTime"`
		UpdateTime   *string         `json:"updateTime"`
	}
	out := make([]summaryJSON, 0, len(list))
	for _, s := range list {
		out = append(out, summaryJSON{ID: s.ID, JobGroup: s.JobGroup, Name: s.Name, Author: s.Author, Nodes: s.Nodes, Edges: s.Edges,
			Schedule:    scheduleOut(s.Schedule),
			Concurrency: concurrencyJSON{Policy: string(s.Concurrency.Policy), Max: s.Concurrency.Max}, Enabled: s.Enabled,
			NextFireTime: a.timeOf(s.NextFire), UpdateTime: a.timeOf(s.UpdateTime)})
	}
	w.Total = total
	writeData(c.w, http.StatusOK, out, &w)
	return nil
}

func (a *API) getWorkflow(c *call) error {
	id, err := c.pathID()
	if err != nil {
		return err
	}
	d, err := a.loadWorkflow(c, id)
	if err != nil {
		return err
	}
	writeData(c.w, http.StatusOK, a.workflowOut(d), nil)
	return nil
}

// save validates and stores a workflow, then answers it as stored.
func (a *API) save(c *call, id, status int) error {
	var in workflowInput
	if err := c.decode(&in); err != nil {
		return err
	}
	if err := c.mayUse(in.JobGroup); err != nil {
		return err
	}
	if id > 0 {
		if _, err := a.loadWorkflow(c, id); err != nil {
			return err
		}
	}
	w := in.workflow(id)
	saved, err := workflow.Save(c.ctx, a.cfg.Store, w, a.now(), a.cfg.Loc)
	if err != nil {
		return wfError(err)
	}
	d, err := workflow.Load(c.ctx, a.cfg.Store, saved)
	if err != nil {
		return err
	}
	a.log.Info().Int("workflow_id", saved).Str("username", c.access.User).Msg("workflow saved through the job API")
	writeData(c.w, status, a.workflowOut(d), nil)
	return nil
}

func (a *API) createWorkflow(c *call) error { return a.save(c, 0, http.StatusCreated) }

func (a *API) updateWorkflow(c *call) error {
	id, err := c.pathID()
	if err != nil {
		return err
	}
	return a.save(c, id, http.StatusOK)
}

// validateWorkflow checks a workflow as a save would, storing nothing:
// every problem, and the warnings a save would show.
func (a *API) validateWorkflow(c *call) error {
	var in workflowInput
	if err := c.decode(&in); err != nil {
		return err
	}
	if err := c.mayUse(in.JobGroup); err != nil {
		return err
	}
	w := in.workflow(0)
	out := struct {
		Valid    bool     `json:"valid"`
		Problems []string `json:"problems"`
		Warnings []string `json:"warnings"`
	}{Valid: true, Problems: []string{}, Warnings: []string{}}
	err := workflow.Check(c.ctx, a.cfg.Store, w)
	var inv *workflow.InvalidError
	switch {
	case errors.As(err, &inv):
		out.Valid, out.Problems = false, inv.Problems
	case err != nil:
		return err
	default:
		if out.Warnings, err = workflow.Warnings(c.ctx, a.cfg.Store, w); err != nil {
			return err
		}
		if out.Warnings == nil {
			out.Warnings = []string{}
		}
	}
	writeData(c.w, http.StatusOK, out, nil)
	return nil
}

func (a *API) deleteWorkflow(c *call) error {
	id, err := c.pathID()
	if err != nil {
		return err
	}
	if _, err := a.loadWorkflow(c, id); err != nil {
		return err
	}
	if _, err := a.cfg.Store.WorkflowDelete(c.ctx, id); err != nil {
		return err
	}
	a.log.Info().Int("workflow_id", id).Str("username", c.access.User).Msg("workflow deleted through the job API")
	writeData(c.w, http.StatusOK, map[string]int{"id": id}, nil)
	return nil
}
