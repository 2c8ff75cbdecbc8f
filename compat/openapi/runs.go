package openapi

import (
	"context"
	"net/http"
	"strconv"

	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

// runJSON is a run as the API writes it; Nodes only in a run's detail.
type runJSON struct {
	ID           int64   `json:"id"`
	WorkflowID   int     `json:"workflowId"`
	State        string  `json:"state"`
	TriggerType  string  `json:"triggerType"`
	Params       string  `json:"params"`
	ScheduleTime *string `json:"scheduleTime"`
	StartTime    *string `json:"startTime"`
	EndTime      *string `json:"endTime"`
	Msg          string  `json:"msg"`
	// ParentLogID is the parent job's log whose success started a run of a
	// JOB-scheduled workflow; absent for other runs.
	ParentLogID int64           `json:"parentLogId,omitempty"`
	Nodes       []nodeRunOut    `json:"nodes,omitempty"`
	Edges       []workflow.Edge `json:"edges,omitempty"`
}

// nodeRunOut is a node of a run: where it stands and its log rows.
type nodeRunOut struct {
	ID      int     `json:"id"`
	JobID   int     `json:"jobId"`
	Label   string  `json:"label"`
	Rule    string  `json:"rule"`
	State   string  `json:"state"`
	Attempt int     `json:"attempt"`
	LogID   int64   `json:"logId"`
	Param   string  `json:"param"`
	Msg     string  `json:"msg"`
	LogIDs  []int64 `json:"logIds"`
}

func (a *API) runOut(r workflow.RunSummary) runJSON {
	return runJSON{ID: r.ID, WorkflowID: r.WorkflowID, State: string(r.State), TriggerType: r.TriggerType, Params: r.Params,
		ScheduleTime: a.timeOf(r.ScheduleTime), StartTime: a.timeOf(r.StartTime), EndTime: a.timeOf(r.EndTime), Msg: r.Msg,
		ParentLogID: r.ParentLogID}
}

func (a *API) runDetailOut(d workflow.RunDetail) runJSON {
	out := a.runOut(d.Run)
	out.Nodes, out.Edges = make([]nodeRunOut, 0, len(d.Nodes)), d.Graph.Edges
	for _, n := range d.Nodes {
		v := nodeRunOut{ID: n.ID, JobID: n.JobID, Label: n.Label, Rule: string(n.Rule), State: string(n.State), Attempt: n.Attempt,
			LogID: n.LogID, Param: n.Param, Msg: n.Msg, LogIDs: []int64{}}
		for _, l := range n.Logs {
			v.LogIDs = append(v.LogIDs, l.LogID)
		}
		out.Nodes = append(out.Nodes, v)
	}
	return out
}

// loadRun reads a run whose workflow the caller may use; the run of a
// deleted workflow is an admin's.
func (a *API) loadRun(c *call) (workflow.RunDetail, error) {
	id, err := c.pathID()
	if err != nil {
		return workflow.RunDetail{}, err
	}
	d, err := workflow.LoadRun(c.ctx, a.cfg.Store, int64(id))
	if err != nil {
		return d, wfError(err)
	}
	w, err := a.cfg.Store.WorkflowLoad(c.ctx, d.Run.WorkflowID)
	if err != nil {
		if err := wfError(err); isAPINotFound(err) {
			return d, c.requireAdmin()
		}
		return d, err
	}
	return d, c.mayUse(w.JobGroup)
}

func isAPINotFound(err error) bool {
	e, ok := err.(*apiError)
	return ok && e.status == http.StatusNotFound
}

// writeRun answers a run as it stands now.
func (a *API) writeRun(c *call, status int, id int64) error {
	out, err := a.runNow(c, id)
	if err != nil {
		return err
	}
	writeData(c.w, status, out, nil)
	return nil
}

func (a *API) runNow(c *call, id int64) (runJSON, error) {
	d, err := workflow.LoadRun(c.ctx, a.cfg.Store, id)
	if err != nil {
		return runJSON{}, wfError(err)
	}
	return a.runDetailOut(d), nil
}

func (a *API) startRun(c *call) error {
	id, err := c.pathID()
	if err != nil {
		return err
	}
	if _, err := a.loadWorkflow(c, id); err != nil {
		return err
	}
	var in struct {
		Params string `json:"params"`
	}
	if err := c.decodeOptional(&in); err != nil {
		return err
	}
	runID, err := a.cfg.Workflows.StartRun(c.ctx, id, workflow.StartRequest{TriggerType: "API", Params: in.Params})
	if err != nil {
		return wfError(err)
	}
	a.log.Info().Int("workflow_id", id).Int64("run_id", runID).Str("username", c.access.User).Msg("workflow run started through the job API")
	return a.writeRun(c, http.StatusCreated, runID)
}

func (a *API) listRuns(c *call) error {
	id, err := c.pathID()
	if err != nil {
		return err
	}
	w, err := c.window()
	if err != nil {
		return err
	}
	if _, err := a.loadWorkflow(c, id); err != nil {
		return err
	}
	q := workflow.RunQuery{Offset: w.Offset, Size: w.Limit}
	if st := c.r.URL.Query().Get("state"); st != "" {
		q.States = []workflow.RunState{workflow.RunState(st)}
	}
	list, total, err := workflow.Runs(c.ctx, a.cfg.Store, id, q)
	if err != nil {
		return err
	}
	out := make([]runJSON, 0, len(list))
	for _, r := range list {
		out = append(out, a.runOut(r))
	}
	w.Total = total
	writeData(c.w, http.StatusOK, out, &w)
	return nil
}

func (a *API) getRun(c *call) error {
	d, err := a.loadRun(c)
	if err != nil {
		return err
	}
	writeData(c.w, http.StatusOK, a.runDetailOut(d), nil)
	return nil
}

// stoppedRun is the answer to a stop: the run, and what became of its
// executions at executors.
type stoppedRun struct {
	runJSON
	Running []int64       `json:"runningLogIds"`
	Killed  []int64       `json:"killedLogIds"`
	Failed  []killFailure `json:"killFailures"`
}

// killFailure is an execution the stop could not kill.
type killFailure struct {
	LogID   int64  `json:"logId"`
	Message string `json:"message"`
}

// stopRun stops a run and kills its executions at their executors as the
// console's stop does (the same engine call, the log list's kill with the
// caller's access); ?kill=false leaves them running, listed in
// runningLogIds for POST /logs/{id}/kill.
func (a *API) stopRun(c *call) error {
	kill := true
	switch v := c.r.URL.Query().Get("kill"); v {
	case "", "true":
	case "false":
		kill = false
	default:
		return invalid("kill: use true or false, not %q", v)
	}
	d, err := a.loadRun(c)
	if err != nil {
		return err
	}
	out := stoppedRun{Killed: []int64{}, Failed: []killFailure{}}
	if kill {
		stopped, err := a.cfg.Workflows.StopRunKilling(c.ctx, d.Run.ID, func(ctx context.Context, logID int64) error {
			_, err := a.cfg.Logs.Kill(ctx, logID, c.access.MayUse(), c.access.User)
			return err
		})
		if err != nil {
			return wfError(err)
		}
		out.Running, out.Killed = stopped.Running, stopped.Killed
		for _, f := range stopped.Failed {
			out.Failed = append(out.Failed, killFailure{LogID: f.LogID, Message: f.Err.Error()})
		}
	} else {
		if out.Running, err = a.cfg.Workflows.StopRun(c.ctx, d.Run.ID); err != nil {
			return wfError(err)
		}
		if out.Running == nil {
			out.Running = []int64{}
		}
	}
	a.log.Info().Int64("run_id", d.Run.ID).Str("username", c.access.User).Bool("kill", kill).Ints64("killed", out.Killed).
		Int("kill_failures", len(out.Failed)).Msg("workflow run stopped through the job API")
	if out.runJSON, err = a.runNow(c, d.Run.ID); err != nil {
		return err
	}
	writeData(c.w, http.StatusOK, out, nil)
	return nil
}

func (a *API) retryRun(c *call) error {
	d, err := a.loadRun(c)
	if err != nil {
		return err
	}
	if err := a.cfg.Workflows.RetryRun(c.ctx, d.Run.ID); err != nil {
		return wfError(err)
	}
	return a.writeRun(c, http.StatusOK, d.Run.ID)
}

// nodeAction runs an operator's action on a node of a run.
func (a *API) nodeAction(c *call, act func(runID int64, node int) error) error {
	d, err := a.loadRun(c)
	if err != nil {
		return err
	}
	node, err := strconv.Atoi(c.r.PathValue("node"))
	if err != nil || node < 1 {
		return invalid("node: %q is not a positive integer", c.r.PathValue("node"))
	}
	if _, ok := d.Graph.Node(node); !ok {
		return notFound("run %d has no node %d", d.Run.ID, node)
	}
	if err := act(d.Run.ID, node); err != nil {
		return wfError(err)
	}
	return a.writeRun(c, http.StatusOK, d.Run.ID)
}

func (a *API) skipNode(c *call) error {
	return a.nodeAction(c, func(run int64, node int) error { return a.cfg.Workflows.SkipNode(c.ctx, run, node) })
}

func (a *API) markNodeSucceeded(c *call) error {
	return a.nodeAction(c, func(run int64, node int) error { return a.cfg.Workflows.MarkSucceeded(c.ctx, run, node) })
}
