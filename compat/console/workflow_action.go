package console

import (
	"context"
	"errors"
	"net/url"
	"strconv"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

// workflowAction takes the operator's actions (POST <wf>/action):
//
//	action=start&id=WF&params=…   start a run now (MANUAL), with run parameters
//	action=delete&id=WF           delete a workflow (its runs stay, for their history)
//	action=stop&runId=…           stop a run; its nodes at an executor are killed there
//	action=retry&runId=…          retry a failed or stopped run from its failed nodes
//	action=rerun&runId=…          start a new run with the same parameters
//	action=skip&runId=…&nodeId=…  skip a node
//	action=mark&runId=…&nodeId=…  mark a node succeeded
//
// and answers with a 303 to the run's page. An action its run's state
// does not allow (or a start the concurrency policy skips) is the error
// page with the reason.
func (c *Console) workflowAction(x *exchange) error {
	action := x.form.text("action")
	if action == "start" {
		id, err := x.form.intReq("id")
		if err != nil {
			return err
		}
		if _, err := c.wfAllowed(x, id); err != nil {
			return err
		}
		return c.wfStart(x, id, x.form.text("params"))
	}
	if action == "delete" {
		id, err := x.form.intReq("id")
		if err != nil {
			return err
		}
		if _, err := c.wfAllowed(x, id); err != nil {
			return err
		}
		if _, err := c.store.WorkflowDelete(x.ctx, id); err != nil {
			return err
		}
		c.log.Info().Str("user", x.user.Username).Int("workflow_id", id).Msg("workflow deleted")
		c.wfRedirect(x, "", nil)
		return nil
	}
	runID, err := x.form.int64Req("runId")
	if err != nil {
		return err
	}
	run, err := c.store.WorkflowRunLoad(x.ctx, runID)
	if errors.Is(err, schema.ErrNotFound) {
		return &cleanFailure{msg: "workflow run " + strconv.FormatInt(runID, 10) + " " + c.text("system_not_found")}
	}
	if err != nil {
		return err
	}
	if _, err := c.wfAllowed(x, run.WorkflowID); err != nil {
		return err
	}
	eng := c.cfg.Workflows
	switch action {
	case "stop":
		_, err = eng.StopRunKilling(x.ctx, runID, c.wfKiller(x))
	case "retry":
		err = eng.RetryRun(x.ctx, runID)
	case "rerun":
		params := ""
		if run.Params != nil {
			params = *run.Params
		}
		return c.wfStart(x, run.WorkflowID, params)
	case "skip", "mark":
		node, nerr := x.form.intReq("nodeId")
		if nerr != nil {
			return nerr
		}
		if action == "skip" {
			err = eng.SkipNode(x.ctx, runID, node)
		} else {
			err = eng.MarkSucceeded(x.ctx, runID, node)
		}
	default:
		return &cleanFailure{msg: "unknown action " + strconv.Quote(action)}
	}
	if err := c.wfActionFailed(err); err != nil {
		return err
	}
	c.log.Info().Str("user", x.user.Username).Int64("run_id", runID).Str("action", action).Msg("workflow run action")
	c.wfRedirect(x, "/run", url.Values{"id": {strconv.FormatInt(runID, 10)}, "done": {action}})
	return nil
}

// wfStart starts a run by hand and shows it.
func (c *Console) wfStart(x *exchange, workflowID int, params string) error {
	runID, err := c.cfg.Workflows.StartRun(x.ctx, workflowID, workflow.StartRequest{TriggerType: "MANUAL", Params: params})
	if err := c.wfActionFailed(err); err != nil {
		return err
	}
	c.log.Info().Str("user", x.user.Username).Int("workflow_id", workflowID).Int64("run_id", runID).Msg("workflow run started")
	c.wfRedirect(x, "/run", url.Values{"id": {strconv.FormatInt(runID, 10)}, "done": {"start"}})
	return nil
}

// wfActionFailed turns the engine's refusals into the error page's text.
func (c *Console) wfActionFailed(err error) error {
	var invalid *workflow.InvalidError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, workflow.ErrState), errors.Is(err, workflow.ErrSkipped), errors.As(err, &invalid),
		errors.Is(err, schema.ErrNotFound):
		return &cleanFailure{msg: err.Error()}
	}
	return err
}

// wfKiller kills what a stopped run left running as the log list's kill
// does, with the user's access; the engine logs a refusal, and the run is
// stopped either way (those results change nothing).
func (c *Console) wfKiller(x *exchange) workflow.Killer {
	return func(ctx context.Context, logID int64) error {
		_, err := c.logs.Kill(ctx, logID, accessOf(x.user).MayUse(), x.user.Username)
		return err
	}
}
