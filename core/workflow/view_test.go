package workflow

import (
	"context"
	"errors"
	"testing"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestView: the read side lists workflows by group, permitted groups and
// name, pages a workflow's runs by state, and shows a run's nodes with
// their states and the log rows each attempt wrote.
func TestView(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 1)
		ctx := context.Background()
		e := r.admins[0].engine
		a, b := r.job(0), r.job(0)
		r.fail(b)
		label := `<b>"load"</b>`
		g := Graph{Nodes: []Node{{ID: 1, JobID: a, Label: "extract"}, {ID: 2, JobID: b, Label: label}, {ID: 3, JobID: a}},
			Edges: []Edge{{1, 2}, {2, 3}}}
		wf := r.workflow(g, Concurrency{Policy: PolicyParallel, Max: 5}, "")
		other := r.workflow(Graph{Nodes: []Node{{ID: 1, JobID: a}}}, Concurrency{}, "")

		list, total, err := List(ctx, s, ListQuery{Group: r.group.ID, Size: 10})
		if err != nil || total != 2 || len(list) != 2 || list[0].ID != other || list[1].Nodes != 3 || list[1].Edges != 2 {
			t.Fatalf("List = %+v, %d, %v", list, total, err)
		}
		if list, total, _ := List(ctx, s, ListQuery{Groups: []int{}, Size: 10}); total != 0 || len(list) != 0 {
			t.Fatalf("List of no permitted group = %+v, %d", list, total)
		}
		if list, total, _ := List(ctx, s, ListQuery{Groups: []int{r.group.ID}, Name: "WF", Offset: 1, Size: 1}); total != 2 || len(list) != 1 || list[0].ID != wf {
			t.Fatalf("List's second page = %+v, %d", list, total)
		}
		if _, total, _ := List(ctx, s, ListQuery{Name: "none such"}); total != 0 {
			t.Fatalf("List by a name nothing has = %d", total)
		}

		d, err := Load(ctx, s, wf)
		if err != nil || d.Workflow.Name != "wf" || len(d.Workflow.Graph.Nodes) != 3 || d.Jobs[a].ID != a || d.Jobs[b].JobGroup != r.group.ID {
			t.Fatalf("Load = %+v, %v", d, err)
		}
		if _, err := Load(ctx, s, wf+100); !errors.Is(err, schema.ErrNotFound) {
			t.Fatalf("Load of a missing workflow = %v", err)
		}

		runID, err := e.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		if run := r.settle(runID); RunState(run.State) != RunFailed {
			t.Fatalf("run ended %s", run.State)
		}
		second, err := e.StartRun(ctx, wf, StartRequest{TriggerType: "API"})
		if err != nil {
			t.Fatal(err)
		}
		r.settle(second)

		runs, total, err := Runs(ctx, s, wf, RunQuery{Size: 1})
		if err != nil || total != 2 || len(runs) != 1 || runs[0].ID != second || runs[0].TriggerType != "API" {
			t.Fatalf("Runs = %+v, %d, %v", runs, total, err)
		}
		if runs, total, _ := Runs(ctx, s, wf, RunQuery{States: []RunState{RunSucceeded, RunRunning}}); total != 0 || len(runs) != 0 {
			t.Fatalf("Runs that succeeded or run = %+v", runs)
		}
		if runs, total, _ := Runs(ctx, s, wf, RunQuery{States: []RunState{RunFailed}}); total != 2 || len(runs) != 2 || runs[1].ID != runID {
			all, _, _ := Runs(ctx, s, wf, RunQuery{})
			t.Fatalf("failed Runs = %+v, %d; all %+v", runs, total, all)
		}

		if runs, total, _ := Runs(ctx, s, wf, RunQuery{Offset: 1}); total != 2 || len(runs) != 1 || runs[0].ID != runID {
			t.Fatalf("Runs from the second on = %+v", runs)
		}

		rd, err := LoadRun(ctx, s, runID)
		if err != nil {
			t.Fatal(err)
		}
		if rd.Run.State != RunFailed || rd.Run.StartTime.IsZero() || rd.Run.EndTime.IsZero() || len(rd.Nodes) != 3 {
			t.Fatalf("LoadRun = %+v", rd)
		}
		want := []NodeState{NodeSucceeded, NodeFailed, NodeSkipped}
		for i, n := range rd.Nodes {
			if n.ID != i+1 || n.State != want[i] {
				t.Fatalf("node %d: %+v, want state %s", i+1, n, want[i])
			}
		}
		if n := rd.Nodes[1]; n.Label != label || n.Attempt != 1 || len(n.Logs) != 1 || n.Logs[0].LogID != n.LogID || n.Logs[0].Result == 0 {
			t.Fatalf("the failed node: %+v", n)
		}
		found := false
		for _, l := range r.logs(b) { // one per run
			found = found || l.ID == rd.Nodes[1].LogID
		}
		if !found {
			t.Fatalf("the failed node shows log %d, not a log row of its job", rd.Nodes[1].LogID)
		}
		if n := rd.Nodes[2]; n.LogID != 0 || len(n.Logs) != 0 {
			t.Fatalf("the skipped node shows logs: %+v", n)
		}
		if _, err := LoadRun(ctx, s, second+100); !errors.Is(err, schema.ErrNotFound) {
			t.Fatalf("LoadRun of a missing run = %v", err)
		}
	})
}
