package console

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
)

// workflowSave takes the editor's form (POST <wf>/save): the workflow is
// validated by core/workflow against the jobs as they are and stored, and
// the editor shown again (a 303 to it); a refused form comes back as it
// was typed with every problem listed (a cycle named node by node).
func (c *Console) workflowSave(x *exchange) error {
	f, problems := wfFormFrom(x.form)
	if f.ID > 0 {
		// The stored workflow's group must be one the user may use too:
		// moving a workflow out of a group is an edit of that group.
		old, err := c.store.WorkflowLoad(x.ctx, f.ID)
		if errors.Is(err, schema.ErrNotFound) {
			return &cleanFailure{msg: "workflow " + strconv.Itoa(f.ID) + " " + c.text("system_not_found")}
		}
		if err != nil {
			return err
		}
		if err := c.checkGroupTrimmed(x.user, old.JobGroup); err != nil {
			return err
		}
	}
	if err := c.checkGroupTrimmed(x.user, f.JobGroup); err != nil {
		return err
	}
	w, more := wfFromForm(f)
	problems = append(problems, more...)
	if len(problems) > 0 {
		return c.renderEditor(x, f, problems, nil, false)
	}
	w.Author = x.user.Username
	id, err := workflow.Save(x.ctx, c.store, w, c.now(), c.cfg.Loc)
	var invalid *workflow.InvalidError
	switch {
	case errors.As(err, &invalid):
		return c.renderEditor(x, f, invalid.Problems, nil, false)
	case errors.Is(err, schema.ErrNotFound):
		return &cleanFailure{msg: "workflow " + strconv.Itoa(f.ID) + " " + c.text("system_not_found")}
	case err != nil:
		return err
	}
	c.log.Info().Str("user", x.user.Username).Int("workflow_id", id).Int("nodes", len(w.Graph.Nodes)).Msg("workflow saved")
	c.wfRedirect(x, "/edit", url.Values{"id": {strconv.Itoa(id)}, "saved": {"1"}})
	return nil
}

// wfFormFrom reads the editor's fields; the node rows are the parallel
// lists node_id, node_job, node_label, node_rule and node_param.
func wfFormFrom(in form) (WfForm, []string) {
	var problems []string
	num := func(name string) int {
		v := strings.TrimSpace(in.text(name))
		if v == "" {
			return 0
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %q is not a number", name, v))
		}
		return n
	}
	f := WfForm{ID: num("id"), JobGroup: num("jobGroup"), Name: in.text("name"), Params: in.text("params"),
		ScheduleType: in.text("scheduleType"), ScheduleConf: strings.TrimSpace(in.text("scheduleConf")),
		TimeZone: strings.TrimSpace(in.text("timeZone")), Misfire: in.text("misfire"), Policy: in.text("policy"),
		MaxParallel: num("maxParallel"), Enabled: in.text("enabled") == "on" || in.text("enabled") == "1",
		Edges: in.text("edges"), ParentJob: strings.TrimSpace(in.text("parentJob"))}
	col := func(name string, i int) string {
		if v := in.vals[name]; i < len(v) {
			return v[i]
		}
		return ""
	}
	for i := range in.vals["node_id"] {
		n := WfNodeForm{ID: strings.TrimSpace(col("node_id", i)), JobID: strings.TrimSpace(col("node_job", i)),
			Label: col("node_label", i), Rule: col("node_rule", i), Param: col("node_param", i)}
		if n.JobID == "" && n.Label == "" && n.Param == "" {
			continue // a blank row (one the page script added has an id)
		}
		f.Nodes = append(f.Nodes, n)
	}
	return f, problems
}

// wfFromForm is the workflow a form describes, and what in it is not a
// number or an edge (the rest is Validate's).
func wfFromForm(f WfForm) (workflow.Workflow, []string) {
	var problems []string
	w := workflow.Workflow{ID: f.ID, JobGroup: f.JobGroup, Name: f.Name, Params: f.Params, Enabled: f.Enabled,
		Schedule:    workflow.Schedule{Type: f.ScheduleType, Conf: f.ScheduleConf, TimeZone: f.TimeZone, Misfire: f.Misfire},
		Concurrency: workflow.Concurrency{Policy: workflow.Policy(f.Policy), Max: f.MaxParallel}}
	if f.ScheduleType == workflow.ScheduleJob {
		// The parent comes from its picker; the CRON/seconds field, the
		// zone and the misfire strategy mean nothing after a job.
		w.Schedule = workflow.Schedule{Type: workflow.ScheduleJob, Conf: f.ParentJob, Misfire: f.Misfire}
	}
	w.Graph.Nodes = make([]workflow.Node, 0, len(f.Nodes))
	for i, n := range f.Nodes {
		id, err1 := strconv.Atoi(n.ID)
		job, err2 := strconv.Atoi(n.JobID)
		if err1 != nil || err2 != nil {
			problems = append(problems, fmt.Sprintf("node row %d: node %q and job %q must be numbers", i+1, n.ID, n.JobID))
			continue
		}
		node := workflow.Node{ID: id, JobID: job, Label: strings.TrimSpace(n.Label), Rule: workflow.Rule(n.Rule)}
		if n.Param != "" {
			node.Param = &n.Param
		}
		w.Graph.Nodes = append(w.Graph.Nodes, node)
	}
	w.Graph.Edges = []workflow.Edge{}
	for i, line := range strings.Split(f.Edges, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		from, to, ok := splitEdge(line)
		if !ok {
			problems = append(problems, fmt.Sprintf("edge line %d: %q is not \"from -> to\"", i+1, line))
			continue
		}
		w.Graph.Edges = append(w.Graph.Edges, workflow.Edge{From: from, To: to})
	}
	return w, problems
}

// splitEdge reads "1 -> 2" (also "1>2", "1,2", "1 2").
func splitEdge(line string) (int, int, bool) {
	parts := strings.FieldsFunc(line, func(r rune) bool { return r == '-' || r == '>' || r == ',' || r == ' ' || r == '\t' })
	if len(parts) != 2 {
		return 0, 0, false
	}
	a, err1 := strconv.Atoi(parts[0])
	b, err2 := strconv.Atoi(parts[1])
	return a, b, err1 == nil && err2 == nil
}
