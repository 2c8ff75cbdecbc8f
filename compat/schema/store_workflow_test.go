package schema

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestWorkflowTablesPrepared: Prepare creates the workflow tables on
// either generation when asked, once, without a warning; without the
// option it creates none (what an admin with workflows off sees).
func TestWorkflowTablesPrepared(t *testing.T) {
	for _, gen := range []Generation{Gen2, Gen3} {
		t.Run(string(gen), func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, s *Store) {
				ctx := context.Background()
				res, err := s.Prepare(ctx, PrepareOptions{Create: gen})
				mustNoErr(t, err)
				if res.WorkflowCreated {
					t.Fatal("workflow tables created without PrepareOptions.Workflows")
				}
				cols, err := s.d.columns(ctx, s.q, WorkflowTable)
				mustNoErr(t, err)
				if len(cols) != 0 {
					t.Fatalf("%s exists without PrepareOptions.Workflows", WorkflowTable)
				}
				res, err = s.Prepare(ctx, PrepareOptions{Workflows: true})
				mustNoErr(t, err)
				if !res.WorkflowCreated || len(res.Warnings) != 0 {
					t.Fatalf("Prepare = %+v, want the workflow tables created, no warning", res)
				}
				res, err = s.Prepare(ctx, PrepareOptions{Workflows: true})
				mustNoErr(t, err)
				if res.WorkflowCreated || len(res.Warnings) != 0 || res.Generation != gen {
					t.Fatalf("second Prepare = %+v", res)
				}
			})
		})
	}
}

// forEachWorkflowStore is forEachPrepared with the workflow tables.
func forEachWorkflowStore(t *testing.T, fn func(t *testing.T, s *Store)) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		if _, err := s.EnsureWorkflowTables(context.Background()); err != nil {
			t.Fatal(err)
		}
		fn(t, s)
	})
}

func TestWorkflowStore(t *testing.T) {
	forEachWorkflowStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		at := time.UnixMilli(time.Now().UnixMilli())
		w := WorkflowRow{JobGroup: 1, Name: "etl 工作流", Graph: `{"nodes":[]}`, Params: Ptr("day=1"), ScheduleType: "CRON",
			ScheduleConf: Ptr("0 0 2 * * ?"), ScheduleTimezone: Ptr("Europe/Berlin"), MisfireStrategy: "DO_NOTHING",
			Concurrency: "PARALLEL", MaxParallel: 3, Enabled: true, TriggerNextTime: 123, AddTime: at, UpdateTime: at}
		id, err := s.WorkflowAdd(ctx, w)
		mustNoErr(t, err)
		got, err := s.WorkflowLoad(ctx, id)
		mustNoErr(t, err)
		w.ID = id
		if got.Name != w.Name || *got.ScheduleTimezone != "Europe/Berlin" || !got.Enabled || got.MaxParallel != 3 ||
			got.TriggerNextTime != 123 || !got.AddTime.Equal(at) || *got.Params != "day=1" {
			t.Fatalf("WorkflowLoad = %+v, want %+v", got, w)
		}
		w.Name, w.Enabled = "renamed", false
		mustNoErr(t, s.WorkflowUpdate(ctx, w))
		if got, _ := s.WorkflowLoad(ctx, id); got.Name != "renamed" || got.Enabled {
			t.Fatalf("after update: %+v", got)
		}
		mustNoErr(t, s.WithTx(ctx, func(tx *Store) error { _, err := tx.WorkflowLock(ctx, id); return err }))
		if list, err := s.WorkflowList(ctx, 1); err != nil || len(list) != 1 {
			t.Fatalf("WorkflowList = %v, %v", list, err)
		}
		if list, _ := s.WorkflowList(ctx, 2); len(list) != 0 {
			t.Fatalf("WorkflowList(2) = %v", list)
		}
		if err := s.WorkflowUpdate(ctx, WorkflowRow{ID: id + 100, AddTime: at, UpdateTime: at}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("update of a missing workflow = %v", err)
		}
		if ok, err := s.WorkflowDelete(ctx, id); !ok || err != nil {
			t.Fatalf("WorkflowDelete = %v, %v", ok, err)
		}
		if _, err := s.WorkflowLoad(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Fatalf("load of a deleted workflow = %v", err)
		}
	})
}

func TestWorkflowRunStore(t *testing.T) {
	forEachWorkflowStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		at := time.UnixMilli(1_800_000_000_000)
		r := WorkflowRun{WorkflowID: 7, State: "RUNNING", TriggerType: "MANUAL", Graph: "{}", ScheduleTime: at, StartTime: at, AddTime: at}
		id, err := s.WorkflowRunAdd(ctx, r)
		mustNoErr(t, err)
		q := r
		q.State, q.StartTime = "QUEUED", time.Time{}
		queued, err := s.WorkflowRunAdd(ctx, q)
		mustNoErr(t, err)
		if n, err := s.WorkflowRunCount(ctx, 7, "RUNNING", "QUEUED"); n != 2 || err != nil {
			t.Fatalf("WorkflowRunCount = %d, %v", n, err)
		}
		if old, err := s.WorkflowRunOldest(ctx, 7, "QUEUED"); err != nil || old.ID != queued || !old.StartTime.IsZero() {
			t.Fatalf("WorkflowRunOldest = %+v, %v", old, err)
		}
		if _, err := s.WorkflowRunOldest(ctx, 8, "QUEUED"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("WorkflowRunOldest of none = %v", err)
		}
		// The move is a compare-and-set: the second one finds the run moved.
		end := at.Add(time.Minute)
		if ok, err := s.WorkflowRunMove(ctx, id, "RUNNING", "FAILED", time.Time{}, end, Ptr("node 3 failed")); !ok || err != nil {
			t.Fatalf("first move = %v, %v", ok, err)
		}
		if ok, err := s.WorkflowRunMove(ctx, id, "RUNNING", "SUCCEEDED", time.Time{}, end, nil); ok || err != nil {
			t.Fatalf("second move = %v, %v; want false", ok, err)
		}
		got, err := s.WorkflowRunLoad(ctx, id)
		mustNoErr(t, err)
		if got.State != "FAILED" || !got.EndTime.Equal(end) || *got.Msg != "node 3 failed" || !got.ScheduleTime.Equal(at) {
			t.Fatalf("WorkflowRunLoad = %+v", got)
		}
		var locked map[int64]WorkflowRun
		mustNoErr(t, s.WithTx(ctx, func(tx *Store) error {
			locked, err = tx.WorkflowRunsLock(ctx, []int64{queued, id, 999})
			return err
		}))
		if len(locked) != 2 {
			t.Fatalf("WorkflowRunsLock = %v", locked)
		}
		if open, err := s.WorkflowRunsIn(ctx, 0, 10, "RUNNING", "QUEUED"); err != nil || len(open) != 1 || open[0].ID != queued {
			t.Fatalf("WorkflowRunsIn = %+v, %v", open, err)
		}
		if list, err := s.WorkflowRunList(ctx, 7, 0, 10); err != nil || len(list) != 2 || list[0].ID != queued {
			t.Fatalf("WorkflowRunList = %+v, %v", list, err)
		}
	})
}

func TestWorkflowNodeStore(t *testing.T) {
	forEachWorkflowStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		at := time.UnixMilli(1_800_000_000_000)
		mustNoErr(t, s.WorkflowNodeRunsAdd(ctx, []WorkflowNodeRun{
			{RunID: 5, NodeID: 2, JobID: 1, State: "WAITING", UpdateTime: at},
			{RunID: 5, NodeID: 1, JobID: 1, State: "WAITING", UpdateTime: at},
			{RunID: 6, NodeID: 1, JobID: 1, State: "WAITING", UpdateTime: at},
		}))
		if err := s.WorkflowNodeRunsAdd(ctx, []WorkflowNodeRun{{RunID: 5, NodeID: 1, JobID: 1, State: "WAITING", UpdateTime: at}}); err == nil {
			t.Fatal("a node stored twice in one run was accepted")
		}
		nodes, err := s.WorkflowNodeRuns(ctx, []int64{5}, false)
		mustNoErr(t, err)
		if len(nodes) != 2 || nodes[0].NodeID != 1 || nodes[1].NodeID != 2 {
			t.Fatalf("WorkflowNodeRuns = %+v", nodes)
		}
		n := nodes[0]
		move := NodeRunMove{ID: n.ID, From: "WAITING", To: "TRIGGERED", Attempt: 1, Retries: 2, Param: Ptr("x=1"), At: at}
		if ok, err := s.WorkflowNodeRunMove(ctx, move); !ok || err != nil {
			t.Fatalf("first move = %v, %v", ok, err)
		}
		if ok, err := s.WorkflowNodeRunMove(ctx, move); ok || err != nil {
			t.Fatalf("repeated move = %v, %v; want false", ok, err)
		}
		mustNoErr(t, s.WithTx(ctx, func(tx *Store) error {
			nodes, err = tx.WorkflowNodeRuns(ctx, []int64{5, 6}, true)
			return err
		}))
		if len(nodes) != 3 || nodes[0].State != "TRIGGERED" || nodes[0].Attempt != 1 || nodes[0].Retries != 2 || *nodes[0].ExecutorParam != "x=1" {
			t.Fatalf("after the move: %+v", nodes)
		}

		log := s.logForWorkflow(t, 500)
		logs := []WorkflowNodeLog{{LogID: log, NodeRunID: n.ID, Attempt: 1, ShardTotal: 1}, {LogID: 999_999, NodeRunID: n.ID, Attempt: 1}}
		mustNoErr(t, s.WorkflowNodeLogsAdd(ctx, logs))
		mustNoErr(t, s.WorkflowNodeLogsAdd(ctx, logs[:1])) // a repeat is skipped
		byLog, err := s.WorkflowNodeLogsOf(ctx, []int64{log, 1})
		mustNoErr(t, err)
		if len(byLog) != 1 || byLog[log].NodeRunID != n.ID || byLog[log].ShardTotal != 1 {
			t.Fatalf("WorkflowNodeLogsOf = %+v", byLog)
		}
		open, err := s.WorkflowNodeLogsOpen(ctx, []int64{n.ID})
		mustNoErr(t, err)
		if len(open) != 2 || open[0].LogID != log || open[0].TriggerCode != 500 || open[0].Missing || !open[1].Missing {
			t.Fatalf("WorkflowNodeLogsOpen = %+v", open)
		}
		if ok, err := s.WorkflowNodeLogResult(ctx, log, 500); !ok || err != nil {
			t.Fatalf("first result = %v, %v", ok, err)
		}
		if ok, err := s.WorkflowNodeLogResult(ctx, log, 200); ok || err != nil {
			t.Fatalf("second result = %v, %v; want false", ok, err)
		}
		all, err := s.WorkflowNodeLogsOfRuns(ctx, []int64{n.ID}, false)
		mustNoErr(t, err)
		if len(all) != 2 || all[0].Result != 500 {
			t.Fatalf("WorkflowNodeLogsOfRuns = %+v", all)
		}
		if open, _ := s.WorkflowNodeLogsOpen(ctx, []int64{n.ID}); len(open) != 1 {
			t.Fatalf("open logs after a result: %+v", open)
		}
		if ok, err := s.PendingDecisionExists(ctx, "WORKFLOW", n.ID, 1); ok || err != nil {
			t.Fatalf("PendingDecisionExists = %v, %v", ok, err)
		}
		mustNoErr(t, s.PendingInsert(ctx, []PendingTrigger{{Claim: 1, Owner: "a", LeaseUntil: at, Kind: "WORKFLOW", JobID: 1,
			SourceLogID: n.ID, Seq: 1, DecidedAt: at}}))
		if ok, err := s.PendingDecisionExists(ctx, "WORKFLOW", n.ID, 1); !ok || err != nil {
			t.Fatalf("PendingDecisionExists = %v, %v", ok, err)
		}
	})
}

// logForWorkflow writes a log row whose trigger failed with code.
func (s *Store) logForWorkflow(t *testing.T, code int) int64 {
	t.Helper()
	now := time.Now()
	id, err := s.LogSave(context.Background(), JobLog{JobGroup: 1, JobID: 1, TriggerTime: &now})
	mustNoErr(t, err)
	l, err := s.LogLoad(context.Background(), id)
	mustNoErr(t, err)
	l.TriggerCode = code
	mustNoErr(t, s.LogUpdateTriggerInfo(context.Background(), l))
	return id
}

// TestWorkflowStoreSteps: the reads and writes the engine's steps and the
// workflow scheduler use besides the rows' own.
func TestWorkflowStoreSteps(t *testing.T) {
	forEachWorkflowStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		at := time.UnixMilli(1_800_000_000_000)
		due := WorkflowRow{JobGroup: 1, Name: "due", Graph: "{}", ScheduleType: "FIX_RATE", ScheduleConf: Ptr("5"),
			MisfireStrategy: "DO_NOTHING", Concurrency: "SKIP", MaxParallel: 1, Enabled: true, TriggerNextTime: 1000, AddTime: at, UpdateTime: at}
		dueID, err := s.WorkflowAdd(ctx, due)
		mustNoErr(t, err)
		later := due
		later.TriggerNextTime = 5000
		_, err = s.WorkflowAdd(ctx, later)
		mustNoErr(t, err)
		manual := due
		manual.ScheduleType = "NONE"
		_, err = s.WorkflowAdd(ctx, manual)
		mustNoErr(t, err)
		if rows, err := s.WorkflowsDue(ctx, 2000, 10); err != nil || len(rows) != 1 || rows[0].ID != dueID {
			t.Fatalf("WorkflowsDue = %+v, %v", rows, err)
		}
		mustNoErr(t, s.WorkflowSetTrigger(ctx, dueID, 1000, 6000))
		if rows, _ := s.WorkflowsDue(ctx, 2000, 10); len(rows) != 0 {
			t.Fatalf("due after the move: %+v", rows)
		}
		mustNoErr(t, s.WithTx(ctx, func(tx *Store) error { return tx.WorkflowLockMany(ctx, []int{dueID, 999}) }))

		runID, err := s.WorkflowRunAdd(ctx, WorkflowRun{WorkflowID: dueID, State: "FAILED", TriggerType: "API", Graph: "{}",
			ScheduleTime: at, StartTime: at, EndTime: at, Msg: Ptr("x"), AddTime: at})
		mustNoErr(t, err)
		if ok, err := s.WorkflowRunReopen(ctx, runID, "FAILED", "RUNNING"); !ok || err != nil {
			t.Fatalf("WorkflowRunReopen = %v, %v", ok, err)
		}
		if ok, _ := s.WorkflowRunReopen(ctx, runID, "FAILED", "RUNNING"); ok {
			t.Fatal("a run reopened twice")
		}
		runs, err := s.WorkflowRunsRead(ctx, []int64{runID})
		mustNoErr(t, err)
		if r := runs[runID]; r.State != "RUNNING" || !r.EndTime.IsZero() || r.Msg != nil {
			t.Fatalf("reopened run: %+v", r)
		}

		mustNoErr(t, s.WorkflowNodeLogsAdd(ctx, []WorkflowNodeLog{{LogID: 70, NodeRunID: 7, Attempt: 1, ShardTotal: 2},
			{LogID: 71, NodeRunID: 7, Attempt: 1, ShardIndex: 1, ShardTotal: 2}}))
		var locked []WorkflowNodeLog
		mustNoErr(t, s.WithTx(ctx, func(tx *Store) error {
			locked, err = tx.WorkflowNodeLogsLock(ctx, []int64{71, 70, 72})
			return err
		}))
		if len(locked) != 2 || locked[0].LogID != 70 || locked[1].ShardIndex != 1 {
			t.Fatalf("WorkflowNodeLogsLock = %+v", locked)
		}

		mustNoErr(t, s.PendingInsert(ctx, []PendingTrigger{
			{Claim: 11, Owner: "a", LeaseUntil: at, Kind: "WORKFLOW", JobID: 1, SourceLogID: 7, Seq: 1, DecidedAt: at},
			{Claim: 12, Owner: "a", LeaseUntil: at, Stage: PendingLogged, Kind: "WORKFLOW", JobID: 1, SourceLogID: 8, Seq: 1, DecidedAt: at, LogID: 5},
			{Claim: 13, Owner: "a", LeaseUntil: at, Kind: "PARENT", JobID: 1, SourceLogID: 7, Seq: 0, DecidedAt: at},
		}))
		mustNoErr(t, s.PendingDeleteDecided(ctx, "WORKFLOW", []int64{7, 8}))
		for _, c := range []struct {
			kind   string
			source int64
			seq    int
			want   bool
		}{{"WORKFLOW", 7, 1, false}, {"WORKFLOW", 8, 1, true}, {"PARENT", 7, 0, true}} {
			if ok, err := s.PendingDecisionExists(ctx, c.kind, c.source, c.seq); ok != c.want || err != nil {
				t.Errorf("pending %s %d/%d exists = %v, %v; want %v", c.kind, c.source, c.seq, ok, err, c.want)
			}
		}
	})
}
