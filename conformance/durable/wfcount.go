package durable

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
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
	// TriggerFailed counts nodes whose /run the admin recorded as failed
	// (on a loaded box: the test's executor answered after the 3 s read
	// timeout). Such a node ends failed and its descendants follow the
	// rules from there; expectations are derived accordingly (wfExpect).
	TriggerFailed int
	// Examples name the first nodes that were not as wfShape says: run,
	// node, state got and wanted, and the node's log ids with the runs
	// the executor started of each.
	Examples []string
}

// maxExamples bounds WfFigures.Examples.
const maxExamples = 12

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
	f.TriggerFailed += o.TriggerFailed
	for _, e := range o.Examples {
		if len(f.Examples) < maxExamples {
			f.Examples = append(f.Examples, e)
		}
	}
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
	line("node triggers recorded failed (/run late)", f.TriggerFailed)
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
	// failed are the nodes with a log row whose trigger failed.
	failed map[wfRunKey]bool
	// stray are log ids of workflow jobs whose parameter names no run.
	stray []int64
}

func (w *Workflows) read(ctx context.Context, db *sql.DB, group int) (wfRead, error) {
	out := wfRead{runs: map[int64]string{}, nodes: map[wfRunKey]string{}, logs: map[wfRunKey][]int64{}, failed: map[wfRunKey]bool{}}
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
	err = scan(fmt.Sprintf("SELECT id, COALESCE(executor_param, ''), trigger_code FROM xxl_job_log WHERE job_group = %d AND job_id IN (%s)",
		group, strings.Join(jobs, ",")), func(rs *sql.Rows) error {
		var id int64
		var param string
		var code int
		if err := rs.Scan(&id, &param, &code); err != nil {
			return err
		}
		var k wfRunKey
		if _, err := fmt.Sscanf(param, "run=%d node=%d", &k.run, &k.node); err != nil {
			out.stray = append(out.stray, id)
			return nil
		}
		out.logs[k] = append(out.logs[k], id)
		if code != 0 && code != 200 {
			out.failed[k] = true
		}
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
		want, runWant := wfExpect(r, run)
		switch {
		case st == "QUEUED" || st == "RUNNING":
			f.Open++
		case st != string(runWant):
			f.WrongRuns++
		}
		for _, nd := range wfShape {
			k := wfRunKey{run, nd.id}
			runs := 0
			if want[nd.id] != workflow.NodeSkipped {
				runs = 1
				f.NodesDecided++
			}
			started := 0
			for _, id := range r.logs[k] {
				seen[id] = true
				started += ledger[id].Started
			}
			if r.failed[k] {
				// A /run recorded failed may or may not have reached
				// the executor: once at most.
				f.TriggerFailed++
				started = max(started, 1)
			}
			if r.nodes[k] != string(want[nd.id]) || started != runs || len(r.logs[k]) != runs {
				if r.nodes[k] != string(want[nd.id]) {
					f.WrongNodes++
				}
				if len(f.Examples) < maxExamples {
					logs := make([]string, len(r.logs[k]))
					for i, id := range r.logs[k] {
						logs[i] = fmt.Sprintf("log %d started %d", id, ledger[id].Started)
					}
					f.Examples = append(f.Examples, fmt.Sprintf("run %d (%s) node %d: %s, want %s; %v",
						run, st, nd.id, r.nodes[k], want[nd.id], logs))
				}
			}
			add(runs, started, &f.ExecutedOnce, &f.Lost, &f.Doubled)
			add(runs, len(r.logs[k]), &f.LogExecutedOnce, &f.LogLost, &f.LogDoubled)
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

// wfExpect is the state each node of a run must end in, and the run's,
// by docs/workflows.md's table of rules (written out here, not the
// engine's code): a node that runs ends as wfShape says, or failed when
// its trigger was recorded failed (then as the engine recorded it, when
// its executor's result came first); a node decides by its rule from
// its parents' states; the run fails when a node failed.
func wfExpect(r wfRead, run int64) (map[int]workflow.NodeState, workflow.RunState) {
	want := make(map[int]workflow.NodeState, len(wfShape))
	runWant := workflow.RunSucceeded
	for _, nd := range wfShape { // parents come first
		outcome := workflow.NodeSucceeded
		if nd.fails {
			outcome = workflow.NodeFailed
		}
		if k := (wfRunKey{run, nd.id}); r.failed[k] {
			outcome = workflow.NodeFailed
			if got := workflow.NodeState(r.nodes[k]); got == workflow.NodeSucceeded {
				outcome = got
			}
		}
		var succeeded, failed int
		for _, p := range nd.parents {
			switch want[p] {
			case workflow.NodeSucceeded:
				succeeded++
			case workflow.NodeFailed:
				failed++
			}
		}
		runs := true
		switch nd.rule {
		case workflow.AllSuccess:
			runs = succeeded == len(nd.parents)
		case workflow.OneFailed:
			runs = failed > 0
		case workflow.NoneFailed:
			runs = failed == 0
		}
		want[nd.id] = workflow.NodeSkipped
		if runs {
			want[nd.id] = outcome
		}
		if want[nd.id] == workflow.NodeFailed {
			runWant = workflow.RunFailed
		}
	}
	return want, runWant
}
