package console

import (
	"errors"
	"strconv"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

// WfRunData is the run page's model: the run, its nodes with their
// states and logs, its edges, and the actions its state allows.
type WfRunData struct {
	Links    WfLinks     `json:"links"`
	Workflow WfRef       `json:"workflow"`
	Run      WfRunRow    `json:"run"`
	Nodes    []WfRunNode `json:"nodes"`
	Edges    []WfEdge    `json:"edges"`
	CanStop  bool        `json:"canStop"`
	CanRetry bool        `json:"canRetry"`
	Done     string      `json:"done"` // the action just done, after its redirect
}

// WfRunNode is a node of a run.
type WfRunNode struct {
	ID      int     `json:"id"`
	JobID   int     `json:"jobId"`
	JobDesc string  `json:"jobDesc"`
	Label   string  `json:"label"`
	Rule    string  `json:"rule"`
	State   string  `json:"state"`
	Attempt int     `json:"attempt"`
	LogID   int64   `json:"logId"` // the current attempt's first log (0: none)
	Logs    []int64 `json:"logs"`  // every attempt's
	Param   string  `json:"param"`
	Msg     string  `json:"msg"`
	// CanSkip and CanMark: the operator's node actions its state allows.
	CanSkip bool `json:"canSkip"`
	CanMark bool `json:"canMark"`
}

// WfEdge is an edge of a run's graph.
type WfEdge struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// workflowRun renders <wf>/run?id=: the run's graph coloured by node
// state (drawn by the page script; a table of nodes and edges without
// it), each node linking to its log.
func (c *Console) workflowRun(x *exchange) error {
	id, err := x.form.int64Req("id")
	if err != nil {
		return err
	}
	rd, err := workflow.LoadRun(x.ctx, c.store, id)
	if errors.Is(err, schema.ErrNotFound) {
		return &cleanFailure{msg: "workflow run " + strconv.FormatInt(id, 10) + " " + c.text("system_not_found")}
	}
	if err != nil {
		return err
	}
	ref, err := c.wfAllowed(x, rd.Run.WorkflowID)
	if err != nil {
		return err
	}
	ids := make([]int, 0, len(rd.Nodes))
	for _, n := range rd.Nodes {
		ids = append(ids, n.JobID)
	}
	jobs, err := c.store.JobTriggerLoad(x.ctx, ids)
	if err != nil {
		return err
	}
	open := !rd.Run.State.Final()
	d := WfRunData{Links: c.wfLinks(), Workflow: ref, Run: c.wfRunRow(rd.Run), Nodes: make([]WfRunNode, 0, len(rd.Nodes)),
		Edges: make([]WfEdge, 0, len(rd.Graph.Edges)), CanStop: open,
		CanRetry: rd.Run.State == workflow.RunFailed || rd.Run.State == workflow.RunStopped, Done: x.form.text("done")}
	for _, n := range rd.Nodes {
		v := WfRunNode{ID: n.ID, JobID: n.JobID, Label: n.Label, Rule: string(n.Rule), State: string(n.State), Attempt: n.Attempt,
			LogID: n.LogID, Logs: []int64{}, Param: n.Param, Msg: n.Msg}
		if v.Rule == "" {
			v.Rule = string(workflow.AllSuccess)
		}
		if j, ok := jobs[n.JobID]; ok {
			v.JobDesc = j.JobDesc
		}
		for _, l := range n.Logs {
			v.Logs = append(v.Logs, l.LogID)
		}
		switch n.State {
		case workflow.NodeWaiting, workflow.NodeFailed, workflow.NodeStopped:
			v.CanSkip = true
		}
		v.CanMark = n.State != workflow.NodeSucceeded
		d.Nodes = append(d.Nodes, v)
	}
	for _, e := range rd.Graph.Edges {
		d.Edges = append(d.Edges, WfEdge{From: e.From, To: e.To})
	}
	c.render(x, c.wfPage(x, "workflow_run", d))
	return nil
}
