package workflow

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// diamond is A → B, A → C, B → D, C → D over four jobs, D under rule.
func diamond(jobs [4]int, rule Rule) Graph {
	return Graph{
		Nodes: []Node{{ID: 1, JobID: jobs[0]}, {ID: 2, JobID: jobs[1]}, {ID: 3, JobID: jobs[2]}, {ID: 4, JobID: jobs[3], Rule: rule}},
		Edges: []Edge{{1, 2}, {1, 3}, {2, 4}, {3, 4}},
	}
}

// TestEngineRules: a fan-out and fan-in run to its end on every backend,
// with and without a failing branch, under each trigger rule of the
// fan-in node: each node that runs has exactly one log row and ran once
// at the executor, each node ends in the state its rule implies, and the
// run in the state its nodes imply — all through the callbacks, without a
// pass.
func TestEngineRules(t *testing.T) {
	t.Parallel()
	const S, F, K = NodeSucceeded, NodeFailed, NodeSkipped
	tests := []struct {
		rule    Rule
		failB   bool
		wantB   NodeState
		wantD   NodeState
		wantRun RunState
	}{
		{AllSuccess, false, S, S, RunSucceeded},
		{AllSuccess, true, F, K, RunFailed},
		{AllDone, true, F, S, RunFailed},
		{OneFailed, true, F, S, RunFailed},
		{OneFailed, false, S, K, RunSucceeded},
		{NoneFailed, true, F, K, RunFailed},
	}
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 1)
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/failB=%v", tt.rule, tt.failB), func(t *testing.T) {
				r.t = t
				jobs := [4]int{r.job(0), r.job(0), r.job(0), r.job(0)}
				if tt.failB {
					r.fail(jobs[1])
				}
				wf := r.workflow(diamond(jobs, tt.rule), Concurrency{}, "")
				runID, err := r.admins[0].engine.StartRun(context.Background(), wf, StartRequest{TriggerType: "MANUAL"})
				if err != nil {
					t.Fatal(err)
				}
				run := r.idle(runID)
				nodes := r.nodes(runID)
				want := map[int]NodeState{1: S, 2: tt.wantB, 3: S, 4: tt.wantD}
				for id, st := range want {
					if NodeState(nodes[id].State) != st {
						t.Errorf("node %d: %s, want %s (%+v)", id, nodes[id].State, st, nodes[id])
					}
					ran := 0
					if st != K {
						ran = 1
					}
					if logs := r.logs(jobs[id-1]); len(logs) != ran {
						t.Errorf("node %d: %d log rows, want %d", id, len(logs), ran)
					} else if ran == 1 && logs[0].ID != nodes[id].LogID {
						t.Errorf("node %d: log %d, node run names %d", id, logs[0].ID, nodes[id].LogID)
					}
				}
				if RunState(run.State) != tt.wantRun || run.EndTime.IsZero() {
					t.Errorf("run: %+v, want %s", run, tt.wantRun)
				}
				for logID, e := range r.exec.Ledger() {
					if e.Received != 1 || e.Started != 1 {
						t.Errorf("log %d at the executor: %+v, want received and started once", logID, e)
					}
				}
			})
		}
	})
}

// TestEngineRetriesAndParams: a node's job's retry count is the node's
// (the engine retries, the log rows carry no retry of the fail monitor's);
// the run's parameters, laid over the workflow's, reach the node's param
// through its placeholders, and a job's own param without any stays.
func TestEngineRetriesAndParams(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 1)
		flaky, plain := r.job(2), r.job(0)
		r.fail(flaky)
		param := "day=${param.day} env=${param.env} run=${run.id} ${param.unknown}"
		g := Graph{Nodes: []Node{{ID: 1, JobID: plain, Param: &param}, {ID: 2, JobID: flaky}, {ID: 3, JobID: plain, Rule: AllDone}},
			Edges: []Edge{{1, 2}, {2, 3}}}
		wf := r.workflow(g, Concurrency{}, "env=prod\nday=default")
		runID, err := r.admins[0].engine.StartRun(context.Background(), wf, StartRequest{TriggerType: "API", Params: "day=2026-11-28"})
		if err != nil {
			t.Fatal(err)
		}
		run := r.settle(runID)
		nodes := r.nodes(runID)
		if RunState(run.State) != RunFailed || NodeState(nodes[2].State) != NodeFailed || nodes[2].Attempt != 3 {
			t.Fatalf("run %s, flaky node %+v; want FAILED after 3 attempts", run.State, nodes[2])
		}
		if logs := r.logs(flaky); len(logs) != 3 {
			t.Fatalf("flaky job: %d log rows, want 3 (1 + 2 retries)", len(logs))
		} else {
			for _, l := range logs {
				if l.ExecutorFailRetryCount != 0 {
					t.Errorf("log %d has retry count %d: the fail monitor would retry it too", l.ID, l.ExecutorFailRetryCount)
				}
			}
		}
		logs := r.logs(plain)
		if len(logs) != 2 {
			t.Fatalf("plain job: %d log rows, want 2", len(logs))
		}
		if m := deref(logs[0].TriggerMsg); !strings.Contains(m, "WORKFLOW<br>") {
			t.Errorf("trigger_msg does not name the type WORKFLOW: %q", m)
		}
		want := fmt.Sprintf("day=2026-11-28 env=prod run=%d ${param.unknown}", runID)
		got := map[string]bool{}
		for _, l := range logs {
			got[deref(l.ExecutorParam)] = true
		}
		if !got[want] || !got[""] {
			t.Errorf("params sent: %v, want %q and the job's own (empty)", got, want)
		}
	})
}

// TestEngineTriggerFailure: a node whose trigger fails before any
// executor runs it (its group has no executor) gets no callback; the pass
// finds its log's trigger code and fails it, and a node whose job was
// deleted fails when its turn comes.
func TestEngineTriggerFailure(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 1)
		ctx := context.Background()
		empty := testfactory.Group(t, s, testfactory.GroupOpts{AddressType: 1, AddressList: schema.Ptr("")})
		orphan := testfactory.Job(t, s, testfactory.JobOpts{Group: empty.ID, Handler: "h"}).ID
		gone := r.job(0)
		g := Graph{Nodes: []Node{{ID: 1, JobID: orphan}, {ID: 2, JobID: gone, Rule: AllDone}}, Edges: []Edge{{1, 2}}}
		w := Workflow{JobGroup: r.group.ID, Name: "broken", Graph: g}
		row, _ := w.Row()
		wf, err := s.WorkflowAdd(ctx, row)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.JobDelete(ctx, gone); err != nil {
			t.Fatal(err)
		}
		runID, err := r.admins[0].engine.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		run := r.settle(runID)
		nodes := r.nodes(runID)
		if RunState(run.State) != RunFailed || NodeState(nodes[1].State) != NodeFailed || NodeState(nodes[2].State) != NodeFailed {
			t.Fatalf("run %s, nodes %+v", run.State, nodes)
		}
		if m := deref(nodes[2].Msg); m != fmt.Sprintf("job %d no longer exists", gone) {
			t.Errorf("deleted job's node: %q", m)
		}
	})
}

// TestEngineConcurrency: SKIP refuses a start while a run goes; QUEUE
// keeps one start waiting (a second is refused) and begins it when the
// run going ends; PARALLEL admits up to its bound.
func TestEngineConcurrency(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 1)
		ctx := context.Background()
		e := r.admins[0].engine
		job := r.job(0)
		r.exec.Hold(job)
		one := Graph{Nodes: []Node{{ID: 1, JobID: job}}}

		skip := r.workflow(one, Concurrency{Policy: PolicySkip}, "")
		first, err := e.StartRun(ctx, skip, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.StartRun(ctx, skip, StartRequest{TriggerType: "MANUAL"}); !errors.Is(err, ErrSkipped) {
			t.Fatalf("second start under SKIP: %v", err)
		}

		queue := r.workflow(one, Concurrency{Policy: PolicyQueue}, "")
		running, err := e.StartRun(ctx, queue, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		queued, err := e.StartRun(ctx, queue, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		if q, _ := s.WorkflowRunLoad(ctx, queued); RunState(q.State) != RunQueued {
			t.Fatalf("second start under QUEUE: %s", q.State)
		}
		if _, err := e.StartRun(ctx, queue, StartRequest{TriggerType: "MANUAL"}); !errors.Is(err, ErrSkipped) {
			t.Fatalf("third start under QUEUE: %v", err)
		}

		par := r.workflow(one, Concurrency{Policy: PolicyParallel, Max: 2}, "")
		var parallel []int64
		for range 2 {
			id, err := e.StartRun(ctx, par, StartRequest{TriggerType: "MANUAL"})
			if err != nil {
				t.Fatal(err)
			}
			parallel = append(parallel, id)
		}
		if _, err := e.StartRun(ctx, par, StartRequest{TriggerType: "MANUAL"}); !errors.Is(err, ErrSkipped) {
			t.Fatalf("third start under PARALLEL 2: %v", err)
		}

		r.exec.Release(job)
		for _, id := range append([]int64{first, running, queued}, parallel...) {
			if run := r.settle(id); RunState(run.State) != RunSucceeded {
				t.Errorf("run %d: %s", id, run.State)
			}
		}
		if q, _ := s.WorkflowRunLoad(ctx, queued); !q.StartTime.After(q.AddTime.Add(-1)) {
			t.Errorf("queued run: %+v", q)
		}
	})
}

// TestEngineTwoAdmins: two admins of ours on one database, the executor
// calling back each in turn, both passing over the runs at the same time
// as the callbacks: every node of every run is triggered once, ran once,
// and every run ends as its rules imply.
func TestEngineTwoAdmins(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 2)
		ctx, cancel := context.WithCancel(context.Background())
		jobs := [4]int{r.job(0), r.job(0), r.job(0), r.job(0)}
		r.fail(jobs[2])
		wf := r.workflow(diamond(jobs, AllDone), Concurrency{Policy: PolicyParallel, Max: 100}, "")
		var wg sync.WaitGroup
		for _, a := range r.admins {
			wg.Go(func() {
				for ctx.Err() == nil {
					_ = a.engine.Pass(ctx) // a lost race is an error the next pass repeats
				}
			})
		}
		const runs = 6
		var ids []int64
		for i := range runs {
			id, err := r.admins[i%2].engine.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		for _, id := range ids {
			if run := r.settle(id); RunState(run.State) != RunFailed {
				t.Errorf("run %d: %s, want FAILED (node 3 fails)", id, run.State)
			}
		}
		cancel()
		wg.Wait()
		for i, job := range jobs {
			if n := len(r.logs(job)); n != runs {
				t.Errorf("node %d: %d log rows for %d runs", i+1, n, runs)
			}
		}
		for logID, e := range r.exec.Ledger() {
			if e.Received != 1 || e.Started != 1 {
				t.Errorf("log %d at the executor: %+v", logID, e)
			}
		}
		for _, id := range ids {
			for nodeID, n := range r.nodes(id) {
				if n.Attempt != 1 || !NodeState(n.State).Final() {
					t.Errorf("run %d node %d: %+v", id, nodeID, n)
				}
			}
		}
	})
}

// TestEngineDecisionsSurvive: an admin that decides node triggers and
// dies before it submits them (its door drops them) loses none: another
// admin's sweeper takes the pending rows over once their leases run out
// and the run goes on to its end, each node once — at the start (the
// first nodes) and after a callback (the next ones).
func TestEngineDecisionsSurvive(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 2)
		ctx := context.Background()
		dying, heir := r.admins[0], r.admins[1]
		dying.durable.Lease = -time.Second // its rows are up for takeover at once (on the leases' clock)
		dying.door.dead.Store(true)
		jobs := [4]int{r.job(0), r.job(0), r.job(0), r.job(0)}
		wf := r.workflow(diamond(jobs, AllSuccess), Concurrency{}, "")
		runID, err := dying.engine.StartRun(ctx, wf, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(r.logs(jobs[0])); n != 0 {
			t.Fatalf("the dead admin's door sent %d triggers", n)
		}
		// The callbacks reach the dying admin too: what it decides after
		// them is dropped as well, and taken over the same way.
		sweeper := heir.sweeper()
		for range 10 {
			if err := sweeper.Pass(ctx); err != nil {
				t.Fatal(err)
			}
			if err := heir.engine.Pass(ctx); err != nil {
				t.Fatal(err)
			}
			if run := r.idle(runID); RunState(run.State).Final() {
				break
			}
		}
		run := r.idle(runID)
		if RunState(run.State) != RunSucceeded {
			t.Fatalf("run: %s, nodes %+v", run.State, r.nodes(runID))
		}
		for i, job := range jobs {
			if n := len(r.logs(job)); n != 1 {
				t.Errorf("node %d: %d log rows", i+1, n)
			}
		}
		for logID, e := range r.exec.Ledger() {
			if e.Received != 1 || e.Started != 1 {
				t.Errorf("log %d at the executor: %+v", logID, e)
			}
		}
	})
}

// TestEngineBroadcast: a node whose job broadcasts to its group's two
// executors has a log row per shard and ends when both have ended: it
// succeeds when both did, and otherwise is retried whole (both shards)
// and fails.
func TestEngineBroadcast(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 1)
		ctx := context.Background()
		both := r.exec.Address() + "," + r.exec.Address()
		group := testfactory.Group(t, s, testfactory.GroupOpts{AddressType: 1, AddressList: &both})
		ok := testfactory.Job(t, s, testfactory.JobOpts{Group: group.ID, Handler: "h", Route: "SHARDING_BROADCAST"}).ID
		bad := testfactory.Job(t, s, testfactory.JobOpts{Group: group.ID, Handler: "h", Route: "SHARDING_BROADCAST", Retry: 1}).ID
		after := testfactory.Job(t, s, testfactory.JobOpts{Group: group.ID, Handler: "h"}).ID
		r.fail(bad)
		w := Workflow{JobGroup: group.ID, Name: "broadcast", Graph: Graph{
			Nodes: []Node{{ID: 1, JobID: ok}, {ID: 2, JobID: bad}, {ID: 3, JobID: after, Rule: AllDone}},
			Edges: []Edge{{1, 3}, {2, 3}}}}
		id, err := Save(ctx, s, w, time.Now(), time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		runID, err := r.admins[0].engine.StartRun(ctx, id, StartRequest{TriggerType: "MANUAL"})
		if err != nil {
			t.Fatal(err)
		}
		run := r.idle(runID)
		nodes := r.nodes(runID)
		if RunState(run.State) != RunFailed || NodeState(nodes[1].State) != NodeSucceeded ||
			NodeState(nodes[2].State) != NodeFailed || nodes[2].Attempt != 2 || NodeState(nodes[3].State) != NodeSucceeded {
			t.Fatalf("run %s, nodes %+v", run.State, nodes)
		}
		for job, want := range map[int]int{ok: 2, bad: 4, after: 1} {
			if n := len(r.logs(job)); n != want {
				t.Errorf("job %d: %d log rows, want %d", job, n, want)
			}
		}
	})
}

// TestEngineJavaCallbacks: results a Java admin stored (it has no hook:
// the log row finished, nothing else) are settled by the passes of two
// admins of ours running at the same moment: each next node is decided
// once, and the runs end.
func TestEngineJavaCallbacks(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		r := newRig(t, s, 2)
		ctx := context.Background()
		first, second := r.job(0), r.job(0)
		r.exec.SetAdmins(nil) // nobody of ours hears the callbacks
		wf := r.workflow(Graph{Nodes: []Node{{ID: 1, JobID: first}, {ID: 2, JobID: second}}, Edges: []Edge{{1, 2}}},
			Concurrency{Policy: PolicyParallel, Max: 20}, "")
		var runs []int64
		for range 5 {
			id, err := r.admins[0].engine.StartRun(ctx, wf, StartRequest{TriggerType: "API"})
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, id)
		}
		javaFinish := func(job int) {
			for _, l := range r.logs(job) {
				if l.HandleCode == 0 {
					l.HandleCode, l.HandleMsg = 200, schema.Ptr("stored by a Java admin")
					if _, err := s.LogFinish(ctx, l); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		bothPass := func() {
			var wg sync.WaitGroup
			for _, a := range r.admins {
				wg.Go(func() {
					if err := a.engine.Pass(ctx); err != nil && !schema.IsConflict(err) {
						t.Error(err)
					}
				})
			}
			wg.Wait()
		}
		r.exec.WaitIdle(ctx)
		javaFinish(first)
		bothPass()
		r.exec.WaitIdle(ctx)
		javaFinish(second)
		bothPass()
		for _, id := range runs {
			run, err := s.WorkflowRunLoad(ctx, id)
			if err != nil || RunState(run.State) != RunSucceeded {
				t.Errorf("run %d: %+v %v%s", id, run, err, r.dump(id))
			}
		}
		if n := len(r.logs(second)); n != len(runs) {
			t.Errorf("second node: %d log rows for %d runs", n, len(runs))
		}
	})
}
