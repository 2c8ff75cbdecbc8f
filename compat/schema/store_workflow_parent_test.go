package schema

import (
	"context"
	"testing"
	"time"
)

// TestWorkflowParentStore: the statements of workflows started after a
// job, on every backend: the JOB workflows listed, a parent's logs read
// from a mark (another job's skipped), a start recorded once per workflow
// and log, the mark stored, a run's parent log found.
func TestWorkflowParentStore(t *testing.T) {
	forEachWorkflowStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		at := time.UnixMilli(time.Now().UnixMilli())
		row := func(typ, conf string) WorkflowRow {
			return WorkflowRow{JobGroup: 1, Name: typ, Graph: "{}", ScheduleType: typ, ScheduleConf: Ptr(conf),
				MisfireStrategy: "DO_NOTHING", Concurrency: "SKIP", MaxParallel: 1, Enabled: true, AddTime: at, UpdateTime: at}
		}
		child, err := s.WorkflowAdd(ctx, row("JOB", "5"))
		mustNoErr(t, err)
		_, err = s.WorkflowAdd(ctx, row("CRON", "0 0 2 * * ?"))
		mustNoErr(t, err)
		if got, err := s.WorkflowsByType(ctx, "JOB"); err != nil || len(got) != 1 || got[0].ID != child {
			t.Fatalf("WorkflowsByType = %+v, %v", got, err)
		}
		var ids []int64
		for i, job := range []int{5, 6, 5, 5} {
			id, err := s.LogSave(ctx, JobLog{JobGroup: 1, JobID: job, TriggerTime: Ptr(at.Truncate(time.Second))})
			mustNoErr(t, err)
			if i == 2 {
				mustNoErr(t, s.LogUpdateHandleInfo(ctx, JobLog{ID: id, HandleCode: 200, HandleTime: Ptr(at.Truncate(time.Second))}))
			}
			ids = append(ids, id)
		}
		logs, err := s.WorkflowParentLogs(ctx, 5, ids[1], 10)
		mustNoErr(t, err)
		if len(logs) != 2 || logs[0].ID != ids[2] || !logs[0].Succeeded() || logs[1].ID != ids[3] || !logs[1].Running() {
			t.Fatalf("WorkflowParentLogs = %+v (ids %v)", logs, ids)
		}
		if logs, _ := s.WorkflowParentLogs(ctx, 5, ids[0], 1); len(logs) != 1 || logs[0].ID != ids[0] {
			t.Fatalf("WorkflowParentLogs, size 1 = %+v", logs)
		}
		mustNoErr(t, s.WorkflowSetParentMark(ctx, child, ids[3]))
		if got, _ := s.WorkflowLoad(ctx, child); got.TriggerLastTime != ids[3] {
			t.Fatalf("mark = %d, want %d", got.TriggerLastTime, ids[3])
		}
		for i, want := range []bool{true, false} {
			added, err := s.WorkflowParentAdd(ctx, WorkflowParent{WorkflowID: child, LogID: ids[2], RunID: 42 + int64(i), AddTime: at})
			if err != nil || added != want {
				t.Fatalf("WorkflowParentAdd #%d = %v, %v; want %v", i+1, added, err, want)
			}
		}
		added, err := s.WorkflowParentAdd(ctx, WorkflowParent{WorkflowID: child + 1, LogID: ids[2], AddTime: at})
		if err != nil || !added {
			t.Fatalf("the same log for another workflow = %v, %v", added, err)
		}
		got, err := s.WorkflowParentsOf(ctx, child, []int64{ids[2], ids[3]})
		mustNoErr(t, err)
		if len(got) != 1 || got[ids[2]].RunID != 42 || !got[ids[2]].AddTime.Equal(at) {
			t.Fatalf("WorkflowParentsOf = %+v", got)
		}
		runs, err := s.WorkflowRunParents(ctx, []int64{42, 43})
		mustNoErr(t, err)
		if len(runs) != 1 || runs[42] != ids[2] {
			t.Fatalf("WorkflowRunParents = %v", runs)
		}
	})
}

// TestWorkflowParentTableAdded: a database whose workflow tables come from
// the release before xxl_job_workflow_parent (the four others, with their
// rows) gets the new table at start, its other tables and rows untouched;
// a second start changes nothing.
func TestWorkflowParentTableAdded(t *testing.T) {
	forEachPrepared(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for _, table := range workflowTables {
			if table.name == WorkflowParentTable {
				continue
			}
			for _, stmt := range table.ddl(s.Backend()) {
				rawExec(t, s, stmt)
			}
		}
		at := time.UnixMilli(time.Now().UnixMilli())
		id, err := s.WorkflowAdd(ctx, WorkflowRow{JobGroup: 1, Name: "old", Graph: "{}", ScheduleType: "NONE",
			MisfireStrategy: "DO_NOTHING", Concurrency: "SKIP", MaxParallel: 1, AddTime: at, UpdateTime: at})
		mustNoErr(t, err)
		created, err := s.EnsureWorkflowTables(ctx)
		mustNoErr(t, err)
		if !created {
			t.Fatal("the parent table was not created beside the older workflow tables")
		}
		if _, err := s.WorkflowParentAdd(ctx, WorkflowParent{WorkflowID: id, LogID: 1, AddTime: at}); err != nil {
			t.Fatal(err)
		}
		if got, err := s.WorkflowLoad(ctx, id); err != nil || got.Name != "old" {
			t.Fatalf("the old workflow after the upgrade: %+v, %v", got, err)
		}
		if created, err := s.EnsureWorkflowTables(ctx); created || err != nil {
			t.Fatalf("second start: created %v, %v", created, err)
		}
	})
}
