package transfer

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

// Workflow is a workflow (xxl_job_workflow) of a group of the document,
// identified by Group + Name. Its nodes name their jobs by identity, like
// children, so it travels with its jobs.
type Workflow struct {
	Group       string              `json:"group"` // the executor group's app name
	Name        string              `json:"name"`
	Author      string              `json:"author,omitempty"`
	Params      string              `json:"params,omitempty"` // default run parameters, key=value lines
	Schedule    WorkflowSchedule    `json:"schedule"`
	Concurrency WorkflowConcurrency `json:"concurrency"`
	Enabled     bool                `json:"enabled"` // whether the schedule fires
	Nodes       []WorkflowNode      `json:"nodes"`
	Edges       []workflow.Edge     `json:"edges"`
}

// WorkflowSchedule is when a workflow starts by itself.
type WorkflowSchedule struct {
	Type     string `json:"type"` // NONE, CRON, FIX_RATE or JOB
	Conf     string `json:"conf,omitempty"`
	TimeZone string `json:"timeZone,omitempty"`
	Misfire  string `json:"misfire"`
	// Parent is the job a JOB workflow starts after, by identity as a
	// node's job (its id, the conf in the database, means nothing
	// elsewhere).
	Parent *Ref `json:"parent,omitempty"`
}

// WorkflowConcurrency is what a start does while runs are going.
type WorkflowConcurrency struct {
	Policy string `json:"policy"` // SKIP, QUEUE or PARALLEL
	Max    int    `json:"max"`
}

// WorkflowNode is one step: its id in the workflow, its job by identity.
type WorkflowNode struct {
	ID    int     `json:"id"`
	Job   Ref     `json:"job"`
	Rule  string  `json:"rule,omitempty"`
	Label string  `json:"label,omitempty"`
	Param *string `json:"param,omitempty"`
}

func (w Workflow) String() string { return fmt.Sprintf("%s / %q", w.Group, w.Name) }

// exportWorkflows reads the workflows of one group. A node whose job no
// longer exists has no identity to write: the export is refused naming
// the workflow, rather than writing a workflow that lost a step.
func exportWorkflows(ctx context.Context, st *schema.Store, g schema.Group, refs *refCache) ([]Workflow, error) {
	rows, err := st.WorkflowList(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	out := make([]Workflow, 0, len(rows))
	for _, row := range rows {
		w, err := workflow.FromRow(row)
		if err != nil {
			return nil, err
		}
		e := Workflow{Group: g.AppName, Name: w.Name, Author: w.Author, Params: w.Params,
			Schedule:    WorkflowSchedule{Type: row.ScheduleType, Conf: w.Schedule.Conf, TimeZone: w.Schedule.TimeZone, Misfire: row.MisfireStrategy},
			Concurrency: WorkflowConcurrency{Policy: row.Concurrency, Max: row.MaxParallel},
			Enabled:     w.Enabled, Nodes: make([]WorkflowNode, 0, len(w.Graph.Nodes)), Edges: w.Graph.Edges}
		if e.Edges == nil {
			e.Edges = []workflow.Edge{}
		}
		if parent, ok := w.Schedule.ParentJob(); ok {
			r, err := refs.ref(ctx, parent)
			if err != nil {
				return nil, err
			}
			if r == nil {
				return nil, fmt.Errorf("workflow %d %q starts after job %d, which no longer exists: fix or delete the workflow, then export",
					w.ID, w.Name, parent)
			}
			e.Schedule.Conf, e.Schedule.Parent = "", r
		}
		for _, n := range w.Graph.Nodes {
			r, err := refs.ref(ctx, n.JobID)
			if err != nil {
				return nil, err
			}
			if r == nil {
				return nil, fmt.Errorf("workflow %d %q: node %d names job %d, which no longer exists: fix or delete the workflow, then export",
					w.ID, w.Name, n.ID, n.JobID)
			}
			e.Nodes = append(e.Nodes, WorkflowNode{ID: n.ID, Job: *r, Rule: string(n.Rule), Label: n.Label, Param: n.Param})
		}
		out = append(out, e)
	}
	return out, nil
}

// workflows creates or matches the document's workflows once its jobs
// exist, each validated as a save is (a cycle, a job of another group).
func (im *importer) workflows(ctx context.Context, doc Document) ([]Change, error) {
	changes := []Change{}
	for i, d := range doc.Workflows {
		c, err := im.workflow(ctx, d)
		if err != nil {
			return nil, &ItemError{Item: fmt.Sprintf("workflow %d (%s)", i+1, d), Err: err}
		}
		changes = append(changes, c)
	}
	return changes, nil
}

func (im *importer) workflow(ctx context.Context, d Workflow) (Change, error) {
	c := Change{Kind: "workflow", Name: d.String()}
	group, err := im.groupID(d.Group)
	if err != nil {
		return c, err
	}
	w := workflow.Workflow{JobGroup: group, Name: d.Name, Author: d.Author, Params: d.Params,
		Schedule:    workflow.Schedule{Type: d.Schedule.Type, Conf: d.Schedule.Conf, TimeZone: d.Schedule.TimeZone, Misfire: d.Schedule.Misfire},
		Concurrency: workflow.Concurrency{Policy: workflow.Policy(d.Concurrency.Policy), Max: d.Concurrency.Max},
		Enabled:     d.Enabled, Graph: workflow.Graph{Nodes: make([]workflow.Node, 0, len(d.Nodes)), Edges: d.Edges}}
	if w.Graph.Edges == nil {
		w.Graph.Edges = []workflow.Edge{}
	}
	if d.Schedule.Type == workflow.ScheduleJob {
		if d.Schedule.Parent == nil {
			return c, &jobs.Refusal{Err: workflow.ErrInvalid, Msg: "schedule JOB names no parent job (schedule.parent)"}
		}
		id, err := im.refID(*d.Schedule.Parent)
		if err != nil {
			return c, fmt.Errorf("parent: %w", err)
		}
		w.Schedule.Conf = strconv.Itoa(id)
	}
	for _, n := range d.Nodes {
		id, err := im.refID(n.Job)
		if err != nil {
			return c, fmt.Errorf("node %d: %w", n.ID, err)
		}
		w.Graph.Nodes = append(w.Graph.Nodes, workflow.Node{ID: n.ID, JobID: id, Rule: workflow.Rule(n.Rule), Label: n.Label, Param: n.Param})
	}
	tx := im.b.Store()
	existing, err := tx.WorkflowList(ctx, group)
	if err != nil {
		return c, err
	}
	var old *schema.WorkflowRow
	for i := range existing {
		if existing[i].Name != d.Name {
			continue
		}
		if old != nil {
			return c, &jobs.Refusal{Err: jobs.ErrConflict,
				Msg: fmt.Sprintf("the group has several workflows named %q (ids %d and %d): rename one", d.Name, old.ID, existing[i].ID)}
		}
		old = &existing[i]
	}
	if old != nil {
		c.ID, c.Outcome = old.ID, jobs.Unchanged
		if c.Fields, err = workflowDiff(*old, w); err != nil {
			return c, err
		}
		switch {
		case len(c.Fields) == 0:
			return c, nil
		case im.opt.Mode != Overwrite:
			c.Outcome = jobs.Kept
			return c, nil
		}
		w.ID, c.Outcome = old.ID, jobs.Updated
	}
	id, err := workflow.Save(ctx, tx, w, im.opt.Now, im.opt.Loc)
	if errors.Is(err, workflow.ErrInvalid) {
		return c, &jobs.Refusal{Err: err, Msg: err.Error()}
	}
	if err != nil {
		return c, err
	}
	if old == nil {
		c.ID, c.Outcome = id, jobs.Created
	}
	return c, nil
}

// workflowDiff names the members in which the stored workflow differs
// from the document's, both in their stored form.
func workflowDiff(old schema.WorkflowRow, w workflow.Workflow) ([]string, error) {
	want, err := w.Row()
	if err != nil {
		return nil, err
	}
	oldGraph, err := workflow.DecodeGraph(old.Graph)
	if err != nil {
		return nil, err
	}
	if old.Graph, err = workflow.EncodeGraph(oldGraph); err != nil {
		return nil, err
	}
	var fields []string
	diff := func(name string, differ bool) {
		if differ {
			fields = append(fields, name)
		}
	}
	diff("author", str(old.Author) != str(want.Author))
	diff("params", str(old.Params) != str(want.Params))
	diff("schedule", old.ScheduleType != want.ScheduleType || str(old.ScheduleConf) != str(want.ScheduleConf) ||
		str(old.ScheduleTimezone) != str(want.ScheduleTimezone) || old.MisfireStrategy != want.MisfireStrategy)
	diff("concurrency", old.Concurrency != want.Concurrency || old.MaxParallel != want.MaxParallel)
	diff("enabled", old.Enabled != want.Enabled)
	diff("graph", old.Graph != want.Graph)
	return fields, nil
}

// refID is the id of a job named by identity, in the document or the
// database.
func (im *importer) refID(r Ref) (int, error) {
	id := jobs.Identity{Key: r.Key}
	if r.Key == "" {
		group, err := im.groupID(r.Group)
		if err != nil {
			return 0, fmt.Errorf("job %s: %w", r, err)
		}
		id = jobs.Identity{JobGroup: group, ExecutorHandler: r.ExecutorHandler, JobDesc: r.JobDesc}
	}
	j, ok, err := im.b.FindJob(id)
	if err != nil {
		return 0, fmt.Errorf("job %s: %w", r, err)
	}
	if !ok {
		return 0, &jobs.Refusal{Err: jobs.ErrNotFound,
			Msg: fmt.Sprintf("job %s is neither in the document nor in the database", r)}
	}
	return j.ID, nil
}
