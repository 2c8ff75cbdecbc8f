package durable

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/fakeexec"
)

// WfFigures are the workflow part of a run's figures. A run is decided
// when its row exists (its start committed); each decides the nodes
// wfShape says run (9 of 10). "Executed once" is per (run, node), from
// the executor's ledger (runs started per log id, the log ids of the
// node's rows) and from xxl_job_log (rows whose parameter names the run
// and node): a node wfShape skips counts as doubled when it ran at all.
type WfFigures struct {
	Runs, NodesDecided                   int
	ExecutedOnce, Lost, Doubled          int
	LogExecutedOnce, LogLost, LogDoubled int
	// WrongNodes counts node rows whose final state is not wfShape's,
	// WrongRuns runs whose state is not wfRunWant (Open: not ended).
	WrongNodes, WrongRuns, Open int
}

// Add adds another run's figures.
func (f *WfFigures) Add(o WfFigures) {
	f.Runs += o.Runs
	f.NodesDecided += o.NodesDecided
	f.ExecutedOnce += o.ExecutedOnce
	f.Lost += o.Lost
	f.Doubled += o.Doubled
	f.LogExecutedOnce += o.LogExecutedOnce
	f.LogLost += o.LogLost
	f.LogDoubled += o.LogDoubled
	f.WrongNodes += o.WrongNodes
	f.WrongRuns += o.WrongRuns
	f.Open += o.Open
}

// Bad reports whether anything was lost, doubled or ended wrong.
func (f WfFigures) Bad() bool {
	return f.Lost+f.Doubled+f.LogLost+f.LogDoubled+f.WrongNodes+f.WrongRuns+f.Open != 0
}

func (f WfFigures) table(line func(string, any)) {
	line("workflow runs started", f.Runs)
	line("workflow nodes decided (to run)", f.NodesDecided)
	line("nodes executed once (executor ledger)", f.ExecutedOnce)
	line("nodes lost (executor ledger)", f.Lost)
	line("nodes doubled (executor ledger)", f.Doubled)
	line("nodes executed once (xxl_job_log)", f.LogExecutedOnce)
	line("nodes lost (xxl_job_log)", f.LogLost)
	line("nodes doubled (xxl_job_log)", f.LogDoubled)
	line("node states not as the rules imply", f.WrongNodes)
	line("run states not as the rules imply", f.WrongRuns)
	line("runs not ended", f.Open)
}

// wfRunKey is a node of a run.
type wfRunKey struct {
	run  int64
	node int
}

// wfRead is what the workflow count reads: runs' states, node runs'
// states, and the workflow jobs' log rows by the run and node their
// parameter names.
type wfRead struct {
	runs  map[int64]string
	nodes map[wfRunKey]string
	logs  map[wfRunKey][]int64
	// stray are log ids of workflow jobs whose parameter names no run.
	stray []int64
}

func (w *Workflows) read(ctx context.Context, db *sql.DB, group int) (wfRead, error) {
	out := wfRead{runs: map[int64]string{}, nodes: map[wfRunKey]string{}, logs: map[wfRunKey][]int64{}}
	ids := make([]string, len(w.IDs))
	for i, id := range w.IDs {
		ids[i] = fmt.Sprint(id)
	}
	runs := fmt.Sprintf("SELECT id FROM %s WHERE workflow_id IN (%s)", schema.WorkflowRunTable, strings.Join(ids, ","))
	scan := func(q string, each func(*sql.Rows) error) error {
		rs, err := db.QueryContext(ctx, q)
		if err != nil {
			return fmt.Errorf("workflow count: %w", err)
		}
		defer rs.Close()
		for rs.Next() {
			if err := each(rs); err != nil {
				return fmt.Errorf("workflow count: %w", err)
			}
		}
		return rs.Err()
	}
	err := scan(fmt.Sprintf("SELECT id, state FROM %s WHERE workflow_id IN (%s)", schema.WorkflowRunTable, strings.Join(ids, ",")),
		func(rs *sql.Rows) error {
			var id int64
			var st string
			err := rs.Scan(&id, &st)
			out.runs[id] = st
			return err
		})
	if err != nil {
		return out, err
	}
	err = scan(fmt.Sprintf("SELECT run_id, node_id, state FROM %s WHERE run_id IN (%s)", schema.WorkflowNodeRunTable, runs),
		func(rs *sql.Rows) error {
			var k wfRunKey
			var st string
			err := rs.Scan(&k.run, &k.node, &st)
			out.nodes[k] = st
			return err
		})
	if err != nil {
		return out, err
	}
	jobs := make([]string, 0, len(w.jobs))
	for j := range w.jobs {
		jobs = append(jobs, fmt.Sprint(j))
	}
	err = scan(fmt.Sprintf("SELECT id, COALESCE(executor_param, '') FROM xxl_job_log WHERE job_group = %d AND job_id IN (%s)",
		group, strings.Join(jobs, ",")), func(rs *sql.Rows) error {
		var id int64
		var param string
		if err := rs.Scan(&id, &param); err != nil {
			return err
		}
		var k wfRunKey
		if _, err := fmt.Sscanf(param, "run=%d node=%d", &k.run, &k.node); err != nil {
			out.stray = append(out.stray, id)
			return nil
		}
		out.logs[k] = append(out.logs[k], id)
		return nil
	})
	return out, err
}

// countWorkflows checks every run against wfShape.
func countWorkflows(r wfRead, ledger map[int64]fakeexec.Entry, isWorkflowJob func(int) bool) WfFigures {
	var f WfFigures
	add := func(want, got int, once, lost, doubled *int) {
		*once += min(want, got)
		*lost += max(want-got, 0)
		*doubled += max(got-want, 0)
	}
	seen := map[int64]bool{}
	for run, st := range r.runs {
		f.Runs++
		switch {
		case st == "QUEUED" || st == "RUNNING":
			f.Open++
		case st != string(wfRunWant):
			f.WrongRuns++
		}
		for _, nd := range wfShape {
			k := wfRunKey{run, nd.id}
			want := 0
			if nd.want != "SKIPPED" {
				want = 1
				f.NodesDecided++
			}
			if r.nodes[k] != string(nd.want) {
				f.WrongNodes++
			}
			started := 0
			for _, id := range r.logs[k] {
				seen[id] = true
				started += ledger[id].Started
			}
			add(want, started, &f.ExecutedOnce, &f.Lost, &f.Doubled)
			add(want, len(r.logs[k]), &f.LogExecutedOnce, &f.LogLost, &f.LogDoubled)
		}
	}
	// Rows naming no run of the load, and runs of workflow jobs without
	// a row of a run, are doubles.
	for k, ids := range r.logs {
		if _, ok := r.runs[k.run]; !ok {
			f.LogDoubled += len(ids)
		}
	}
	f.LogDoubled += len(r.stray)
	for id, e := range ledger {
		if isWorkflowJob(e.JobID) && !seen[id] && e.Started > 0 {
			f.Doubled += e.Started
		}
	}
	return f
}
