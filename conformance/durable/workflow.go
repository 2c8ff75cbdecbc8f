package durable

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/conformance/cluster"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/fakeexec"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// wfNode is a node of the crash test's workflow: its parents, its rule,
// whether its job fails, and the state its run must leave it in.
type wfNode struct {
	id      int
	parents []int
	rule    workflow.Rule
	fails   bool
	want    workflow.NodeState
}

// wfShape is the workflow every one of the load's workflows runs: a
// fan-out from 1 to 2, 3 (which fails) and 4, a node of each rule after
// the failing branch, a fan-in of successes and a final fan-in after
// everything. Written out by hand (not computed with the engine's rules):
// it is what docs/workflows.md's table of rules says.
var wfShape = []wfNode{
	{id: 1, rule: workflow.AllSuccess, want: workflow.NodeSucceeded},
	{id: 2, parents: []int{1}, rule: workflow.AllSuccess, want: workflow.NodeSucceeded},
	{id: 3, parents: []int{1}, rule: workflow.AllSuccess, fails: true, want: workflow.NodeFailed},
	{id: 4, parents: []int{1}, rule: workflow.AllSuccess, want: workflow.NodeSucceeded},
	// a parent failed: skipped
	{id: 5, parents: []int{2, 3}, rule: workflow.AllSuccess, want: workflow.NodeSkipped},
	// both ended: runs
	{id: 6, parents: []int{2, 3}, rule: workflow.AllDone, want: workflow.NodeSucceeded},
	// 3 failed: runs (without waiting for 4)
	{id: 7, parents: []int{3, 4}, rule: workflow.OneFailed, want: workflow.NodeSucceeded},
	// 4 succeeded, 5 skipped, none failed: runs
	{id: 8, parents: []int{4, 5}, rule: workflow.NoneFailed, want: workflow.NodeSucceeded},
	// fan-in of successes
	{id: 9, parents: []int{2, 4}, rule: workflow.AllSuccess, want: workflow.NodeSucceeded},
	// fan-in after everything
	{id: 10, parents: []int{6, 7, 8, 9}, rule: workflow.AllDone, want: workflow.NodeSucceeded},
}

// wfRunWant is the state every run ends in: node 3 failed.
const wfRunWant = workflow.RunFailed

// wfMaxParallel bounds each workflow's runs at once (PolicyParallel): a
// run takes one to three seconds, the workflows start every second.
const wfMaxParallel = 10

// Workflows is the workflow part of a run's load: n workflows of
// wfShape, each FIX_RATE 1 s (n starts a second), every node a job of
// its own (the executor runs a job's runs one after another, as Java's
// does).
type Workflows struct {
	IDs  []int
	jobs map[int]bool // job id → fails
}

// SeedWorkflows stores n workflows of wfShape on the load's group,
// switched off until Arm. The admins must have started (they create the
// workflow tables).
func SeedWorkflows(ctx context.Context, st *schema.Store, l *Load, n int) (*Workflows, error) {
	now := time.Now()
	w := &Workflows{jobs: map[int]bool{}}
	err := st.WithTx(ctx, func(tx *schema.Store) error {
		for i := range n {
			var g workflow.Graph
			for _, nd := range wfShape {
				job, err := tx.JobSave(ctx, testfactory.JobRow(testfactory.JobOpts{Group: l.Group, Author: "durable", Handler: "h",
					At: now, Desc: fmt.Sprintf("workflow %d node %d", i, nd.id)}))
				if err != nil {
					return err
				}
				w.jobs[job] = nd.fails
				kind := "W"
				if nd.fails {
					kind = "X"
				}
				l.kind[job] = kind
				param := fmt.Sprintf("run=${run.id} node=%d", nd.id)
				g.Nodes = append(g.Nodes, workflow.Node{ID: nd.id, JobID: job, Rule: nd.rule, Param: &param})
				for _, p := range nd.parents {
					g.Edges = append(g.Edges, workflow.Edge{From: p, To: nd.id})
				}
			}
			id, err := workflow.Save(ctx, tx, workflow.Workflow{JobGroup: l.Group, Name: fmt.Sprintf("durable %d", i), Author: "durable",
				Graph: g, Schedule: workflow.Schedule{Type: "FIX_RATE", Conf: "1", Misfire: "DO_NOTHING"},
				Concurrency: workflow.Concurrency{Policy: workflow.PolicyParallel, Max: wfMaxParallel}}, now, time.Local)
			if err != nil {
				return fmt.Errorf("save workflow %d: %w", i, err)
			}
			w.IDs = append(w.IDs, id)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("seed %d workflows: %w", n, err)
	}
	return w, nil
}

// Arm switches the workflows on, to fire first at first.
func (w *Workflows) Arm(ctx context.Context, db *cluster.DB, first time.Time) error {
	return w.set(ctx, db, 1, first.UnixMilli())
}

// Stop switches the workflows off: a scheduler that read one before
// finds it off under its row lock and starts nothing. On Galera an
// update that conflicts with a fire is run again.
func (w *Workflows) Stop(ctx context.Context, db *cluster.DB) error {
	return schema.RetryConflicts(ctx, 20, func() error { return w.set(ctx, db, 0, 0) }, nil)
}

func (w *Workflows) set(ctx context.Context, db *cluster.DB, enabled int, next int64) error {
	ids := make([]string, len(w.IDs))
	for i, id := range w.IDs {
		ids[i] = fmt.Sprint(id)
	}
	_, err := db.SQL.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET enabled = %d, trigger_next_time = %d WHERE id IN (%s)",
		schema.WorkflowTable, enabled, next, strings.Join(ids, ",")))
	if err != nil {
		return fmt.Errorf("switch workflows to %d: %w", enabled, err)
	}
	return nil
}

// openRuns counts the runs not ended.
func (w *Workflows) openRuns(ctx context.Context, db *sql.DB) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+schema.WorkflowRunTable+" WHERE state IN ('QUEUED', 'RUNNING')").Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count open runs: %w", err)
	}
	return n, nil
}

// dumpOpen describes up to 5 runs not ended, node by node (state,
// attempt, its log rows with their workflow result and their codes in
// xxl_job_log): what a failed settle reports.
func (w *Workflows) dumpOpen(ctx context.Context, db *sql.DB, ledger map[int64]fakeexec.Entry) string {
	var b strings.Builder
	rs, err := db.QueryContext(ctx, fmt.Sprintf("SELECT n.run_id, n.node_id, n.state, n.attempt, n.log_id, "+
		"COALESCE(l.log_id, 0), COALESCE(l.attempt, 0), COALESCE(l.result, 0), COALESCE(j.trigger_code, -1), COALESCE(j.handle_code, -1) "+
		"FROM %s n LEFT JOIN %s l ON l.node_run_id = n.id LEFT JOIN xxl_job_log j ON j.id = l.log_id "+
		"WHERE n.run_id IN (SELECT id FROM (SELECT id FROM %s WHERE state IN ('QUEUED', 'RUNNING') ORDER BY id LIMIT 5) o) "+
		"ORDER BY n.run_id, n.node_id",
		schema.WorkflowNodeRunTable, schema.WorkflowNodeLogTable, schema.WorkflowRunTable))
	if err != nil {
		return err.Error()
	}
	defer rs.Close()
	for rs.Next() {
		var run, nodeLog, logID int64
		var node, attempt, logAttempt, result, tc, hc int
		var state string
		if err := rs.Scan(&run, &node, &state, &attempt, &nodeLog, &logID, &logAttempt, &result, &tc, &hc); err != nil {
			return err.Error()
		}
		fmt.Fprintf(&b, "\n  run %d node %d %s attempt %d log %d; node log %d attempt %d result %d, trigger_code %d handle_code %d",
			run, node, state, attempt, nodeLog, logID, logAttempt, result, tc, hc)
		if e, ok := ledger[logID]; ok && logID != 0 && hc == 0 {
			fmt.Fprintf(&b, "; executor: received %d, started %d, callback acknowledged %v by %q", e.Received, e.Started, e.Acknowledged, e.AckedBy)
		}
	}
	return b.String()
}
