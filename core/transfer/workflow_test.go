package transfer

import (
	"bytes"
	"context"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xxl-admin-go/xxl-admin-go/compat/schema"
	"github.com/xxl-admin-go/xxl-admin-go/core/jobs"
	"github.com/xxl-admin-go/xxl-admin-go/core/workflow"
	"github.com/xxl-admin-go/xxl-admin-go/internal/testsupport/storetest"
)

// workflowFixture adds to fixture a CRON workflow of app-orders over its
// two jobs: "sync orders" (by group, handler and description) then the
// keyed cleanup, which runs whatever happened and is given the run's id.
func workflowFixture(t *testing.T, s *schema.Store) {
	t.Helper()
	ctx := context.Background()
	fixture(t, s)
	if _, err := s.EnsureWorkflowTables(ctx); err != nil {
		t.Fatal(err)
	}
	orders, _, err := service(s).FindGroup(ctx, "app-orders")
	if err != nil {
		t.Fatal(err)
	}
	sync, _, err := service(s).FindJob(ctx, jobs.Identity{JobGroup: orders.ID, ExecutorHandler: "orderSync", JobDesc: "sync orders"})
	if err != nil {
		t.Fatal(err)
	}
	cleanup, _, err := service(s).FindJob(ctx, jobs.Identity{Key: "orders/cleanup"})
	if err != nil {
		t.Fatal(err)
	}
	w := workflow.Workflow{JobGroup: orders.ID, Name: "nightly <i>orders</i>", Author: "ops", Params: "day=today\n",
		Schedule:    workflow.Schedule{Type: "CRON", Conf: "0 0 2 * * ?", TimeZone: "Asia/Shanghai", Misfire: "FIRE_ONCE_NOW"},
		Concurrency: workflow.Concurrency{Policy: workflow.PolicyParallel, Max: 3}, Enabled: true,
		Graph: workflow.Graph{Nodes: []workflow.Node{{ID: 1, JobID: sync.ID, Label: "sync"},
			{ID: 2, JobID: cleanup.ID, Rule: workflow.AllDone, Param: schema.Ptr("run=${run.id}")}},
			Edges: []workflow.Edge{{From: 1, To: 2}}}}
	if _, err := workflow.Save(ctx, s, w, t0, time.UTC); err != nil {
		t.Fatal(err)
	}
}

// TestWorkflowRoundTrip: a workflow travels with its jobs — its nodes name
// them by key or identity, not by id — and exporting the copy gives the
// same document; importing it again changes nothing, overwrite updates a
// changed one, and an import is validated as a save is.
func TestWorkflowRoundTrip(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, src *schema.Store) {
		ctx := context.Background()
		workflowFixture(t, src)
		doc, err := Export(ctx, src, ExportOptions{Access: admin, Now: t0, Workflows: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Workflows) != 1 || doc.Workflows[0].Nodes[1].Job.Key != "orders/cleanup" ||
			doc.Workflows[0].Nodes[0].Job.JobDesc != "sync orders" {
			t.Fatalf("exported workflows %+v", doc.Workflows)
		}
		var file bytes.Buffer
		if err := Encode(&file, doc); err != nil {
			t.Fatal(err)
		}
		read, err := Decode(bytes.NewReader(file.Bytes()))
		if err != nil {
			t.Fatalf("decode own export: %v\n%s", err, file.String())
		}
		dst := another(t, src)
		if _, err := Import(ctx, service(dst), read, ImportOptions{Mode: Merge, Access: admin}); err == nil ||
			!strings.Contains(err.Error(), "xxl.job.workflows.enabled") {
			t.Errorf("import with workflows off: %v", err)
		}
		if _, err := dst.EnsureWorkflowTables(ctx); err != nil {
			t.Fatal(err)
		}
		opt := ImportOptions{Mode: Merge, Access: admin, Workflows: true, Now: t0, Loc: time.UTC}
		rep, err := Import(ctx, service(dst), read, opt)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Count("workflow", jobs.Created) != 1 {
			t.Errorf("report %+v", rep.Changes)
		}
		copied, err := Export(ctx, dst, ExportOptions{Access: admin, Now: t0, Workflows: true})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(doc, copied) {
			var a, b bytes.Buffer
			_ = Encode(&a, doc)
			_ = Encode(&b, copied)
			t.Fatalf("copy differs:\n%s\nvs\n%s", a.String(), b.String())
		}
		rows, err := dst.WorkflowList(ctx, 0)
		if err != nil || len(rows) != 1 || rows[0].TriggerNextTime == 0 {
			t.Fatalf("imported rows %+v %v: want one, scheduled", rows, err)
		}

		// Again: unchanged. Changed: kept by merge, updated by overwrite.
		if rep, err = Import(ctx, service(dst), read, opt); err != nil || rep.Count("workflow", jobs.Unchanged) != 1 {
			t.Errorf("second import %+v %v", rep.Changes, err)
		}
		read.Workflows[0].Params = "day=yesterday\n"
		rep, err = Import(ctx, service(dst), read, opt)
		if err != nil || rep.Count("workflow", jobs.Kept) != 1 || rep.Changes[len(rep.Changes)-1].Fields[0] != "params" {
			t.Errorf("merge of a changed workflow %+v %v", rep.Changes, err)
		}
		opt.Mode = Overwrite
		rep, err = Import(ctx, service(dst), read, opt)
		if err != nil || rep.Count("workflow", jobs.Updated) != 1 {
			t.Errorf("overwrite of a changed workflow %+v %v", rep.Changes, err)
		}
		if w, err := dst.WorkflowLoad(ctx, rows[0].ID); err != nil || *w.Params != "day=yesterday\n" {
			t.Errorf("after overwrite %+v %v", w, err)
		}

		// Validated as a save: a cycle is refused, named, and nothing of
		// the document is written.
		read.Workflows[0].Edges = append(read.Workflows[0].Edges, workflow.Edge{From: 2, To: 1})
		read.Workflows[0].Name = "looping"
		if _, err := Import(ctx, service(dst), read, opt); err == nil || !strings.Contains(err.Error(), "cycle") ||
			!strings.Contains(err.Error(), `workflow 1 (app-orders / "looping")`) {
			t.Errorf("cycle: %v", err)
		}
		// A node naming a job nowhere is refused.
		read.Workflows[0].Edges = read.Workflows[0].Edges[:1]
		read.Workflows[0].Nodes[0].Job.JobDesc = "gone"
		if _, err := Import(ctx, service(dst), read, opt); err == nil || !strings.Contains(err.Error(), "neither in the document nor in the database") {
			t.Errorf("unknown job: %v", err)
		}
		if rows, _ := dst.WorkflowList(ctx, 0); len(rows) != 1 {
			t.Errorf("refused imports wrote workflows: %+v", rows)
		}

		// Export refuses a workflow whose node's job was deleted.
		cleanup, _, err := service(src).FindJob(ctx, jobs.Identity{Key: "orders/cleanup"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := src.JobDelete(ctx, cleanup.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := Export(ctx, src, ExportOptions{Access: admin, Now: t0, Workflows: true}); err == nil ||
			!strings.Contains(err.Error(), "no longer exists") {
			t.Errorf("export of a workflow whose job was deleted: %v", err)
		}
	})
}

// TestWorkflowParentRoundTrip: a workflow started after a job names its
// parent by identity, as its nodes name theirs: the copy starts after the
// copy's own job, exports as the original did, and a JOB schedule
// without a parent is refused.
func TestWorkflowParentRoundTrip(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, src *schema.Store) {
		ctx := context.Background()
		workflowFixture(t, src)
		orders, _, err := service(src).FindGroup(ctx, "app-orders")
		if err != nil {
			t.Fatal(err)
		}
		sync, _, err := service(src).FindJob(ctx, jobs.Identity{JobGroup: orders.ID, ExecutorHandler: "orderSync", JobDesc: "sync orders"})
		if err != nil {
			t.Fatal(err)
		}
		cleanup, _, err := service(src).FindJob(ctx, jobs.Identity{Key: "orders/cleanup"})
		if err != nil {
			t.Fatal(err)
		}
		w := workflow.Workflow{JobGroup: orders.ID, Name: "after sync", Enabled: true,
			Schedule: workflow.Schedule{Type: workflow.ScheduleJob, Conf: strconv.Itoa(sync.ID)},
			Graph:    workflow.Graph{Nodes: []workflow.Node{{ID: 1, JobID: cleanup.ID}}}}
		if _, err := workflow.Save(ctx, src, w, t0, time.UTC); err != nil {
			t.Fatal(err)
		}
		doc, err := Export(ctx, src, ExportOptions{Access: admin, Now: t0, Workflows: true})
		if err != nil {
			t.Fatal(err)
		}
		var after *Workflow
		for i := range doc.Workflows {
			if doc.Workflows[i].Name == "after sync" {
				after = &doc.Workflows[i]
			}
		}
		if after == nil || after.Schedule.Type != "JOB" || after.Schedule.Conf != "" || after.Schedule.Parent == nil ||
			after.Schedule.Parent.JobDesc != "sync orders" {
			t.Fatalf("exported %+v", after)
		}
		var file bytes.Buffer
		if err := Encode(&file, doc); err != nil {
			t.Fatal(err)
		}
		read, err := Decode(bytes.NewReader(file.Bytes()))
		if err != nil {
			t.Fatalf("decode own export: %v\n%s", err, file.String())
		}
		dst := another(t, src)
		if _, err := dst.EnsureWorkflowTables(ctx); err != nil {
			t.Fatal(err)
		}
		opt := ImportOptions{Mode: Merge, Access: admin, Workflows: true, Now: t0, Loc: time.UTC}
		if _, err := Import(ctx, service(dst), read, opt); err != nil {
			t.Fatal(err)
		}
		copied, err := Export(ctx, dst, ExportOptions{Access: admin, Now: t0, Workflows: true})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(doc, copied) {
			var a, b bytes.Buffer
			_ = Encode(&a, doc)
			_ = Encode(&b, copied)
			t.Fatalf("copy differs:\n%s\nvs\n%s", a.String(), b.String())
		}
		dstOrders, _, err := service(dst).FindGroup(ctx, "app-orders")
		if err != nil {
			t.Fatal(err)
		}
		dstSync, _, err := service(dst).FindJob(ctx, jobs.Identity{JobGroup: dstOrders.ID, ExecutorHandler: "orderSync", JobDesc: "sync orders"})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := dst.WorkflowsByType(ctx, workflow.ScheduleJob)
		if err != nil || len(rows) != 1 || *rows[0].ScheduleConf != strconv.Itoa(dstSync.ID) {
			t.Fatalf("imported JOB workflows %+v %v, want the parent %d", rows, err, dstSync.ID)
		}
		for i := range read.Workflows {
			read.Workflows[i].Name += " again"
			read.Workflows[i].Schedule.Parent = nil
		}
		if _, err := Import(ctx, service(dst), read, opt); err == nil || !strings.Contains(err.Error(), "names no parent job") {
			t.Errorf("JOB without a parent: %v", err)
		}
	})
}
