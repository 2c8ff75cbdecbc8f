package workflow

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/fakeexec"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// TestStopRun: a stopped run stops its nodes in flight and waiting, its
// first node's run at the executor is reported for a kill, and that run's
// result triggers nothing.
func TestStopRun(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 1)
		ctx := context.Background()
		e := r.admins[0].engine
		first, second := r.job(0), r.job(0)
		r.exec.Hold(first)
		wf := r.workflow(Graph{Nodes: []Node{{ID: 1, JobID: first}, {ID: 2, JobID: second}}, Edges: []Edge{{1, 2}}}, Concurrency{}, "")
		runID, err := e.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		running, err := e.StopRun(ctx, runID)
		if err != nil {
			t.Fatal(err)
		}
		logs := r.logs(first)
		if len(running) != 1 || len(logs) != 1 || running[0] != logs[0].ID {
			t.Fatalf("StopRun reported %v running, the first job has logs %+v", running, logs)
		}
		if _, err := e.StopRun(ctx, runID); !errors.Is(err, ErrState) {
			t.Fatalf("stopping a stopped run: %v", err)
		}
		r.exec.Release(first)
		run := r.idle(runID)
		nodes := r.nodes(runID)
		if RunState(run.State) != RunStopped || NodeState(nodes[1].State) != NodeStopped || NodeState(nodes[2].State) != NodeStopped {
			t.Fatalf("run %s, nodes %+v", run.State, nodes)
		}
		if n := len(r.logs(second)); n != 0 {
			t.Fatalf("the second node ran %d times after the stop", n)
		}
	})
}

// TestStopRunKilling: a stop kills the execution of the node in flight
// with the caller's killer after the stop commits, and reports a kill
// that failed without undoing the stop; a run retried and stopped again
// kills only the current attempt's execution, not one an earlier stop
// already had.
func TestStopRunKilling(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 1)
		ctx := context.Background()
		e := r.admins[0].engine
		job := r.job(0)
		r.exec.Hold(job)
		defer r.exec.Release(job)
		wf := r.workflow(Graph{Nodes: []Node{{ID: 1, JobID: job}}}, Concurrency{}, "")
		runID, err := e.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		var asked []int64
		kill := func(_ context.Context, logID int64) error {
			asked = append(asked, logID)
			if len(asked) == 2 {
				return errors.New("executor gone")
			}
			return nil
		}
		stopped, err := e.StopRunKilling(ctx, runID, kill)
		if err != nil {
			t.Fatal(err)
		}
		logs := r.logs(job)
		if len(logs) != 1 || fmt.Sprint(stopped.Running, stopped.Killed, len(stopped.Failed)) != fmt.Sprint([]int64{logs[0].ID}, []int64{logs[0].ID}, 0) {
			t.Fatalf("first stop: %+v, logs %+v", stopped, logs)
		}
		if err := e.RetryRun(ctx, runID); err != nil {
			t.Fatal(err)
		}
		stopped, err = e.StopRunKilling(ctx, runID, kill)
		if err != nil {
			t.Fatal(err)
		}
		first := logs[0].ID
		logs = r.logs(job)
		if len(logs) != 2 {
			t.Fatalf("logs after the retry: %+v", logs)
		}
		second := max(logs[0].ID, logs[1].ID)
		if second == first || fmt.Sprint(stopped.Running, stopped.Killed) != fmt.Sprint([]int64{second}, []int64{}) ||
			len(stopped.Failed) != 1 || stopped.Failed[0].LogID != second || stopped.Failed[0].Err.Error() != "executor gone" {
			t.Fatalf("second stop: %+v, logs %+v", stopped, logs)
		}
		if run, err := s.WorkflowRunLoad(ctx, runID); err != nil || RunState(run.State) != RunStopped {
			t.Fatalf("run after a failed kill: %+v %v", run, err)
		}
		if _, err := e.StopRunKilling(ctx, runID, kill); !errors.Is(err, ErrState) || len(asked) != 2 {
			t.Fatalf("stopping a stopped run: %v, kills asked %v", err, asked)
		}

		// An execution that ended before its kill (its result stored, not
		// yet taken by the run) is not killed: the kill would overwrite its
		// result.
		if err := e.RetryRun(ctx, runID); err != nil {
			t.Fatal(err)
		}
		logs = r.logs(job)
		if len(logs) != 3 {
			t.Fatalf("logs after the second retry: %+v", logs)
		}
		third := max(logs[0].ID, logs[1].ID, logs[2].ID)
		now := time.Now()
		if err := s.LogUpdateHandleInfo(ctx, schema.JobLog{ID: third, HandleTime: &now, HandleCode: 200, HandleMsg: schema.Ptr("done")}); err != nil {
			t.Fatal(err)
		}
		stopped, err = e.StopRunKilling(ctx, runID, kill)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(stopped.Running, stopped.Killed, len(stopped.Failed), len(asked)) != fmt.Sprint([]int64{third}, []int64{}, 0, 2) {
			t.Fatalf("stop after the execution ended: %+v, kills asked %v", stopped, asked)
		}
	})
}

// TestStopRunKillingWaitsForTheTrigger: a stop that lands while a
// node's /run is on its way (the log row written, the executor's answer
// not yet recorded) waits for the answer and then kills: the log list's
// kill refuses a log whose trigger is not recorded as sent.
func TestStopRunKillingWaitsForTheTrigger(t *testing.T) {
	t.Parallel()
	s := storetest.SQLite(t)
	r := newRig(t, s, 1)
	ctx := context.Background()
	e := r.admins[0].engine
	job := r.job(0)
	r.exec.Hold(job) // once sent, the run stays at the executor
	defer r.exec.Release(job)
	r.exec.Configure(fakeexec.Config{Result: r.result, Delay: func(int) time.Duration { return 300 * time.Millisecond }})
	wf := r.workflow(Graph{Nodes: []Node{{ID: 1, JobID: job}}}, Concurrency{}, "")
	started := make(chan error, 1)
	go func() {
		_, err := e.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
		started <- err
	}()
	// The run and its node's log row are written before the /run goes
	// out; nothing signals them, so they are polled for.
	var logID, runID int64
	for deadline := time.Now().Add(10 * time.Second); logID == 0 || runID == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no log row for the node within 10 s")
		}
		if logs := r.logs(job); len(logs) == 1 {
			if logs[0].TriggerCode != 0 {
				t.Fatalf("the trigger was recorded before the stop: %+v", logs[0])
			}
			logID = logs[0].ID
		}
		runs, _, err := Runs(ctx, s, wf, RunQuery{Size: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) == 1 {
			runID = runs[0].ID
		}
	}
	var code int
	stopped, err := e.StopRunKilling(ctx, runID, func(ctx context.Context, id int64) error {
		l, err := s.LogLoad(ctx, id)
		code = l.TriggerCode
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(stopped.Running, stopped.Killed) != fmt.Sprint([]int64{logID}, []int64{logID}) || code != 200 {
		t.Fatalf("stopped %+v; the kill saw trigger code %d", stopped, code)
	}
	if err := <-started; err != nil {
		t.Fatal(err)
	}
}

// TestRetryRun: a failed run retried goes on from its failed node (a new
// attempt) to the nodes its rules skipped; what succeeded does not run
// again. An operator's skip and mark take a node as decided.
func TestRetryRun(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 1)
		ctx := context.Background()
		e := r.admins[0].engine
		jobs := [4]int{r.job(0), r.job(0), r.job(0), r.job(0)}
		r.fail(jobs[1])
		wf := r.workflow(diamond(jobs, AllSuccess), Concurrency{}, "")
		runID, err := e.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		if run := r.idle(runID); RunState(run.State) != RunFailed {
			t.Fatalf("first try: %s", run.State)
		}
		if err := e.RetryRun(ctx, runID); err != nil { // fails again: B still fails
			t.Fatal(err)
		}
		if run := r.idle(runID); RunState(run.State) != RunFailed || r.nodes(runID)[2].Attempt != 2 {
			t.Fatalf("second try: %s, %+v", run.State, r.nodes(runID))
		}
		r.mu.Lock()
		delete(r.failing, jobs[1])
		r.mu.Unlock()
		if err := e.RetryRun(ctx, runID); err != nil {
			t.Fatal(err)
		}
		run := r.idle(runID)
		if RunState(run.State) != RunSucceeded || !run.EndTime.After(run.StartTime.Add(-1)) {
			t.Fatalf("third try: %+v %+v", run, r.nodes(runID))
		}
		for i, want := range []int{1, 3, 1, 1} {
			if n := len(r.logs(jobs[i])); n != want {
				t.Errorf("node %d: %d log rows, want %d", i+1, n, want)
			}
		}
		if err := e.RetryRun(ctx, runID); !errors.Is(err, ErrState) {
			t.Fatalf("retrying a run that succeeded: %v", err)
		}

		// Mark the failing node succeeded and retry: D runs.
		r.fail(jobs[1])
		again, err := e.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		r.idle(again)
		if err := e.SkipNode(ctx, again, 1); !errors.Is(err, ErrState) {
			t.Fatalf("skipping a node that succeeded: %v", err)
		}
		if err := e.MarkSucceeded(ctx, again, 2); err != nil {
			t.Fatal(err)
		}
		if err := e.RetryRun(ctx, again); err != nil {
			t.Fatal(err)
		}
		if run := r.idle(again); RunState(run.State) != RunSucceeded {
			t.Fatalf("after the mark: %s %+v", run.State, r.nodes(again))
		}
		if n := len(r.logs(jobs[3])); n != 2 {
			t.Errorf("D ran %d times over both runs, want 2", n)
		}
	})
}

// TestSkipNode: a node skipped while it waits never runs, and its run
// goes on past it as its rules say.
func TestSkipNode(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 1)
		ctx := context.Background()
		e := r.admins[0].engine
		a, b, c := r.job(0), r.job(0), r.job(0)
		r.exec.Hold(a)
		g := Graph{Nodes: []Node{{ID: 1, JobID: a}, {ID: 2, JobID: b}, {ID: 3, JobID: c, Rule: NoneFailed}}, Edges: []Edge{{1, 2}, {2, 3}}}
		runID, err := e.StartRun(ctx, r.workflow(g, Concurrency{}, ""), StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.SkipNode(ctx, runID, 2); err != nil {
			t.Fatal(err)
		}
		if err := e.SkipNode(ctx, runID, 9); !errors.Is(err, schema.ErrNotFound) {
			t.Fatalf("skipping a node the run lacks: %v", err)
		}
		r.exec.Release(a)
		run := r.idle(runID)
		nodes := r.nodes(runID)
		if RunState(run.State) != RunSucceeded || NodeState(nodes[2].State) != NodeSkipped || NodeState(nodes[3].State) != NodeSucceeded {
			t.Fatalf("run %s, nodes %+v", run.State, nodes)
		}
		if n := len(r.logs(b)); n != 0 {
			t.Fatalf("the skipped node ran %d times", n)
		}
	})
}

// TestStopQueue: stopping the run going begins the run its QUEUE policy
// kept waiting; a waiting run stopped ends without running anything.
func TestStopQueue(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 1)
		ctx := context.Background()
		e := r.admins[0].engine
		job := r.job(0)
		r.exec.Hold(job)
		wf := r.workflow(Graph{Nodes: []Node{{ID: 1, JobID: job}}}, Concurrency{Policy: PolicyQueue}, "")
		first, err := e.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		second, err := e.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.StopRun(ctx, first); err != nil {
			t.Fatal(err)
		}
		if run, _ := s.WorkflowRunLoad(ctx, second); RunState(run.State) != RunRunning || run.StartTime.IsZero() {
			t.Fatalf("the queued run after the stop: %+v", run)
		}
		third, err := e.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.StopRun(ctx, third); err != nil {
			t.Fatal(err)
		}
		r.exec.Release(job)
		if run := r.idle(second); RunState(run.State) != RunSucceeded {
			t.Fatalf("the second run: %s", run.State)
		}
		if run, _ := s.WorkflowRunLoad(ctx, third); RunState(run.State) != RunStopped {
			t.Fatalf("the third run: %s", run.State)
		}
		if n := len(r.logs(job)); n != 2 {
			t.Fatalf("%d log rows, want 2 (the stopped first run's and the second's)", n)
		}
	})
}
