package workflow

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/cron"
	"github.com/xxl-admin-go/xxl-admin-go/core/trigger"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/testfactory"
)

// childWorkflow saves (through Save, as the console does) a workflow of
// one node running job that starts after parent.
func (r *rig) childWorkflow(parent, job int, c Concurrency) int {
	r.t.Helper()
	w := Workflow{JobGroup: r.group.ID, Name: "after parent", Enabled: true, Concurrency: c,
		Schedule: Schedule{Type: ScheduleJob, Conf: strconv.Itoa(parent)}, Graph: Graph{Nodes: []Node{{ID: 1, JobID: job}}}}
	id, err := Save(context.Background(), r.s, w, time.Now(), time.UTC)
	if err != nil {
		r.t.Fatal(err)
	}
	return id
}

func (r *rig) runsOf(workflowID int) []schema.WorkflowRun {
	r.t.Helper()
	runs, err := r.s.WorkflowRunList(context.Background(), workflowID, 0, 100)
	if err != nil {
		r.t.Fatal(err)
	}
	return runs
}

// fireParent triggers the parent job through the first admin's door and
// waits for its callback to be handled.
func (r *rig) fireParent(parent int) {
	r.t.Helper()
	if err := r.admins[0].door.Submit(trigger.Request{JobID: parent, Type: trigger.TypeManual, FailRetryCount: -1}); err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if !r.exec.WaitIdle(ctx) {
		r.t.Fatal("the executor did not become idle")
	}
}

// TestParentStartsRun: on every backend, a parent's success handled by
// our callback starts one run (trigger PARENT, the parent's log recorded
// on it) in the result's transaction; a failure starts none; a success
// stored without our hook (a Java admin's callback) is started by the
// pass, once, however many admins pass; a success before the workflow was
// saved starts nothing; a success while a run goes under SKIP is recorded
// as skipped and never started later.
func TestParentStartsRun(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		r := newRig(t, s, 2)
		parent, node := r.job(0), r.job(0)
		before := testfactory.Log(t, s, testfactory.LogOpts{Group: r.group.ID, Job: parent, TriggerCode: 200, HandleCode: 200})
		wf := r.childWorkflow(parent, node, Concurrency{Policy: PolicyParallel, Max: 10})
		for _, a := range r.admins {
			if err := a.engine.Pass(ctx); err != nil { // learns the parent
				t.Fatal(err)
			}
		}
		if runs := r.runsOf(wf); len(runs) != 0 {
			t.Fatalf("a success logged before the save (log %d) started %d runs", before.ID, len(runs))
		}

		// Our callback: the run starts with the result.
		r.fireParent(parent)
		runs := r.runsOf(wf)
		if len(runs) != 1 || runs[0].TriggerType != TriggerParent {
			t.Fatalf("runs after the parent's success: %+v", runs)
		}
		run := r.settle(runs[0].ID)
		if RunState(run.State) != RunSucceeded {
			t.Fatalf("run: %+v%s", run, r.dump(run.ID))
		}
		parentLogs := r.logs(parent)
		detail, err := LoadRun(ctx, s, run.ID)
		if err != nil {
			t.Fatal(err)
		}
		fired := int64(0)
		for _, l := range parentLogs {
			if l.ID != before.ID {
				fired = l.ID
			}
		}
		if detail.Run.ParentLogID == 0 || detail.Run.ParentLogID != fired {
			t.Fatalf("run's parent log %d, parent's logs %+v", detail.Run.ParentLogID, parentLogs)
		}

		// A failure starts nothing.
		r.fail(parent)
		r.fireParent(parent)
		if runs := r.runsOf(wf); len(runs) != 1 {
			t.Fatalf("a failed parent started a run: %+v", runs)
		}

		// A Java admin stores a success: no hook; both passes at once
		// start it once.
		java := testfactory.Log(t, s, testfactory.LogOpts{Group: r.group.ID, Job: parent, TriggerCode: 200, HandleCode: 200})
		var wg sync.WaitGroup
		errs := make([]error, len(r.admins))
		for i, a := range r.admins {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = a.engine.Pass(ctx) }()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil && !schema.IsConflict(err) {
				t.Fatal(err)
			}
		}
		for _, a := range r.admins {
			if err := a.engine.Pass(ctx); err != nil {
				t.Fatal(err)
			}
		}
		runs = r.runsOf(wf)
		if len(runs) != 2 {
			t.Fatalf("after a Java admin's success: %d runs, want 2", len(runs))
		}
		got, err := s.WorkflowRunParents(ctx, []int64{runs[0].ID})
		if err != nil {
			t.Fatal(err)
		}
		if got[runs[0].ID] != java.ID {
			t.Fatalf("the pass's run names parent log %d, want %d", got[runs[0].ID], java.ID)
		}
		r.settle(runs[0].ID)
	})
}

// TestParentSkip: under SKIP, a parent success while a run goes is
// recorded as skipped (run 0) and no later pass starts it.
func TestParentSkip(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		r := newRig(t, s, 1)
		parent, node := r.job(0), r.job(0)
		wf := r.childWorkflow(parent, node, Concurrency{})
		if err := r.admins[0].engine.Pass(ctx); err != nil {
			t.Fatal(err)
		}
		// A run in progress (started by hand, never triggered: its node
		// waits), then two Java successes.
		row, err := s.WorkflowLoad(ctx, wf)
		if err != nil {
			t.Fatal(err)
		}
		var going int64
		err = s.WithTx(ctx, func(tx *schema.Store) error {
			going, err = tx.WorkflowRunAdd(ctx, schema.WorkflowRun{WorkflowID: wf, State: string(RunRunning), TriggerType: "MANUAL",
				Graph: row.Graph, ScheduleTime: time.Now(), StartTime: time.Now(), AddTime: time.Now()})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		l1 := testfactory.Log(t, s, testfactory.LogOpts{Group: r.group.ID, Job: parent, TriggerCode: 200, HandleCode: 200})
		e := r.admins[0].engine
		if err := e.passParents(ctx); err != nil {
			t.Fatal(err)
		}
		got, err := s.WorkflowParentsOf(ctx, wf, []int64{l1.ID})
		if err != nil {
			t.Fatal(err)
		}
		if p, ok := got[l1.ID]; !ok || p.RunID != 0 {
			t.Fatalf("skipped start recorded as %+v (%v)", p, ok)
		}
		if _, err := s.WorkflowRunMove(ctx, going, string(RunRunning), string(RunStopped), time.Time{}, time.Now(), nil); err != nil {
			t.Fatal(err)
		}
		if err := e.passParents(ctx); err != nil {
			t.Fatal(err)
		}
		if runs := r.runsOf(wf); len(runs) != 1 {
			t.Fatalf("a skipped parent success was started later: %+v", runs)
		}
		row = mustLoad(t, s, wf)
		if row.TriggerLastTime != l1.ID+1 {
			t.Fatalf("mark %d, want %d", row.TriggerLastTime, l1.ID+1)
		}
	})
}

func mustLoad(t *testing.T, s *schema.Store, id int) schema.WorkflowRow {
	t.Helper()
	row, err := s.WorkflowLoad(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return row
}

// TestParentMark: the pass's mark stops at the first parent log still
// running (a success stored there later is started), moves past a stale
// one, and past failures.
func TestParentMark(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		r := newRig(t, s, 1)
		parent, node := r.job(0), r.job(0)
		wf := r.childWorkflow(parent, node, Concurrency{Policy: PolicyParallel, Max: 5})
		e := r.admins[0].engine
		// The test moves the engine's clock later; callbacks of the runs
		// it starts read it meanwhile, so the shift is atomic and the
		// clock set before anything runs.
		var shift atomic.Int64
		e.cfg.Now = func() time.Time { return time.Now().Add(time.Duration(shift.Load())) }
		log := func(trig, handle int, at time.Time) schema.JobLog {
			return testfactory.Log(t, s, testfactory.LogOpts{Group: r.group.ID, Job: parent, TriggerCode: trig, HandleCode: handle, TriggerTime: at})
		}
		stale := log(200, 0, time.Now().Add(-25*time.Hour))
		failed := log(500, 0, time.Now())
		running := log(200, 0, time.Now())
		ok := log(200, 200, time.Now())
		if err := e.passParents(ctx); err != nil {
			t.Fatal(err)
		}
		if m := mustLoad(t, s, wf).TriggerLastTime; m != running.ID {
			t.Fatalf("mark %d, want the running log %d (stale %d, failed %d)", m, running.ID, stale.ID, failed.ID)
		}
		if runs := r.runsOf(wf); len(runs) != 1 {
			t.Fatalf("%d runs after one success (log %d)", len(runs), ok.ID)
		}
		running.HandleCode, running.HandleTime = 200, schema.Ptr(time.Now())
		if err := s.LogUpdateHandleInfo(ctx, running); err != nil {
			t.Fatal(err)
		}
		if err := e.passParents(ctx); err != nil {
			t.Fatal(err)
		}
		if runs := r.runsOf(wf); len(runs) != 2 {
			t.Fatalf("%d runs after the running log succeeded, want 2", len(runs))
		}
		if m := mustLoad(t, s, wf).TriggerLastTime; m != ok.ID+1 {
			t.Fatalf("mark %d, want %d", m, ok.ID+1)
		}

		// Logs of other jobs: a minute after it read the next log id, the
		// pass moves its cursor and mark past them; a parent's success
		// after them still starts a run.
		other := r.job(0)
		for range 5 {
			testfactory.Log(t, s, testfactory.LogOpts{Group: r.group.ID, Job: other, TriggerCode: 200, HandleCode: 200})
		}
		next, err := s.LogNextID(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 { // reads the next log id; a minute on, jumps there
			shift.Store(int64(time.Duration(i) * 2 * parentSettle))
			if err := e.passParents(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if m := mustLoad(t, s, wf).TriggerLastTime; m != next {
			t.Fatalf("mark %d after the other job's logs, want %d", m, next)
		}
		log(200, 200, time.Now())
		if err := e.passParents(ctx); err != nil {
			t.Fatal(err)
		}
		if runs := r.runsOf(wf); len(runs) != 3 {
			t.Fatalf("%d runs after a third success, want 3", len(runs))
		}
	})
}

// TestParentSaveRefused: a parent that is a node's job, of another group,
// missing, or closing a cycle through other workflows is refused with a
// message naming it.
func TestParentSaveRefused(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		if _, err := s.EnsureWorkflowTables(ctx); err != nil {
			t.Fatal(err)
		}
		g := testfactory.Group(t, s, testfactory.GroupOpts{})
		other := testfactory.Group(t, s, testfactory.GroupOpts{})
		job := func(group int) int { return testfactory.Job(t, s, testfactory.JobOpts{Group: group, Handler: "h"}).ID }
		a, b, c, foreign := job(g.ID), job(g.ID), job(g.ID), job(other.ID)
		save := func(id int, parent int, nodes ...int) (int, error) {
			w := Workflow{ID: id, JobGroup: g.ID, Name: "w", Enabled: true, Schedule: Schedule{Type: ScheduleJob, Conf: strconv.Itoa(parent)}}
			for i, n := range nodes {
				w.Graph.Nodes = append(w.Graph.Nodes, Node{ID: i + 1, JobID: n})
			}
			return Save(ctx, s, w, time.Now(), time.UTC)
		}
		for _, tt := range []struct {
			parent int
			nodes  []int
			want   string
		}{
			{a, []int{b, a}, "parent job " + strconv.Itoa(a) + " is the job of node 2"},
			{foreign, []int{b}, "belongs to executor group"},
			{999999, []int{b}, "parent job 999999 does not exist"},
		} {
			_, err := save(0, tt.parent, tt.nodes...)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("parent %d nodes %v: %v, want %q", tt.parent, tt.nodes, err, tt.want)
			}
		}
		// W1 runs b after a; W2 runs c after b; W3 runs a after c closes it.
		if _, err := save(0, a, b); err != nil {
			t.Fatal(err)
		}
		w2, err := save(0, b, c)
		if err != nil {
			t.Fatal(err)
		}
		_, err = save(0, c, a)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "start each other for ever") ||
			!strings.Contains(err.Error(), "this workflow runs job "+strconv.Itoa(a)) {
			t.Fatalf("cycle: %v", err)
		}
		// Through child_jobid: a workflow after a whose node runs d, whose
		// child job is a, would start itself after each run.
		d := testfactory.Job(t, s, testfactory.JobOpts{Group: g.ID, Handler: "h", ChildJobIDs: strconv.Itoa(a)}).ID
		_, err = save(0, a, d)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "job "+strconv.Itoa(d)+" fires job "+strconv.Itoa(a)+" through child_jobid") {
			t.Fatalf("cycle through child_jobid: %v", err)
		}
		t.Log(err)
		// Saving W2 again as it is is no cycle.
		if _, err := save(w2, b, c); err != nil {
			t.Fatal(err)
		}
		// A CRON workflow keeps no mark; a JOB one gets the next log id.
		row := mustLoad(t, s, w2)
		next, err := s.LogNextID(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if row.TriggerLastTime != next || row.TriggerNextTime != 0 || row.ScheduleType != ScheduleJob {
			t.Fatalf("saved JOB workflow: %+v, want mark %d", row, next)
		}
		if _, err := Save(ctx, s, Workflow{ID: w2, JobGroup: g.ID, Name: "w", Enabled: true,
			Schedule: Schedule{Type: cron.TypeFixRate, Conf: "60"}, Graph: Graph{Nodes: []Node{{ID: 1, JobID: c}}}}, time.Now(), time.UTC); err != nil {
			t.Fatal(err)
		}
		if row := mustLoad(t, s, w2); row.TriggerLastTime != 0 || row.TriggerNextTime == 0 {
			t.Fatalf("back to FIX_RATE: %+v", row)
		}
	})
}

// TestParentStartCommitsWithResult: the hook's start is part of the
// result's transaction — rolled back with it (an admin killed before the
// commit starts nothing), found by the pass once the result is stored
// without the hook, and not started again by a repeated callback.
func TestParentStartCommitsWithResult(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, s *schema.Store) {
		ctx := context.Background()
		r := newRig(t, s, 1)
		parent, node := r.job(0), r.job(0)
		wf := r.childWorkflow(parent, node, Concurrency{Policy: PolicyParallel, Max: 5})
		e := r.admins[0].engine
		if err := e.Pass(ctx); err != nil {
			t.Fatal(err)
		}
		l := testfactory.Log(t, s, testfactory.LogOpts{Group: r.group.ID, Job: parent, TriggerCode: 200})
		done := l
		done.HandleCode, done.HandleTime = 200, schema.Ptr(time.Now())
		crash := errors.New("killed before the commit")
		err := s.WithTx(ctx, func(tx *schema.Store) error {
			reqs, err := e.Finished(ctx, tx, []schema.JobLog{done})
			if err != nil {
				return err
			}
			if len(reqs) != 1 {
				t.Errorf("the hook decided %d node triggers, want 1", len(reqs))
			}
			return crash
		})
		if !errors.Is(err, crash) {
			t.Fatal(err)
		}
		if runs := r.runsOf(wf); len(runs) != 0 {
			t.Fatalf("a start rolled back with its result left runs: %+v", runs)
		}
		// The result is stored by a Java admin: the pass starts it.
		if err := s.LogUpdateHandleInfo(ctx, done); err != nil {
			t.Fatal(err)
		}
		if err := e.Pass(ctx); err != nil {
			t.Fatal(err)
		}
		if runs := r.runsOf(wf); len(runs) != 1 {
			t.Fatalf("after the pass: %d runs, want 1", len(runs))
		}
		// The executor repeats the callback to an admin of ours.
		if err := s.WithTx(ctx, func(tx *schema.Store) error { _, err := e.Finished(ctx, tx, []schema.JobLog{done}); return err }); err != nil {
			t.Fatal(err)
		}
		if runs := r.runsOf(wf); len(runs) != 1 {
			t.Fatalf("a repeated result started %d runs, want 1", len(runs))
		}
		r.settle(r.runsOf(wf)[0].ID)
	})
}

// TestParentDeletedWarns: a workflow whose parent job was deleted warns
// that it does not start by itself.
func TestParentDeletedWarns(t *testing.T) {
	t.Parallel()
	s := storetest.SQLite(t)
	r := newRig(t, s, 1)
	ctx := context.Background()
	parent, node := r.job(0), r.job(0)
	wf := r.childWorkflow(parent, node, Concurrency{})
	if _, err := s.JobDelete(ctx, parent); err != nil {
		t.Fatal(err)
	}
	d, err := Load(ctx, s, wf)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "no longer exists") || d.Parent == nil || d.Parent.ID != parent {
		t.Fatalf("detail of a workflow whose parent was deleted: %+v", d)
	}
}
